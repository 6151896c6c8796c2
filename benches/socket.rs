//! Round trips over the real socket: 64 concurrent askers, one protocol answerer that
//! answers in its offer reply. Prints the median and p99 of one ask and the asks per
//! second, next to an in-process ask measured in the same run as the reference.
//!
//! The parties run as they do in separate processes: the server on a one-thread
//! runtime of its own (as `userq serve` runs it), the answerer on another, the askers
//! on a third. The same server on a two-thread runtime is measured too, for comparison.
//!
//! The floors beside them are measured in the same run with bare sockets and blocking
//! reads: a line there and back (two hops, as an ask answered inside the server
//! crosses) and a line through a middle thread to a third and back (four hops, as an
//! ask answered by a protocol answerer crosses).
//!
//! With 64 askers the figure steadier than the asks per second is each party's CPU
//! time per ask (its thread's clock, read around the crowd): the server's is what
//! bounds the throughput when its one thread is busy all the time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;
use user_questions::{AskRequest, Scope, UserQuestions};

mod common;
use common::{
    alone, answer_everything, apart, cpu_time, crowd, own_cpu_time, percentile, question, scaled, serve_apart, AtOnce,
};

const ASKERS: usize = 64;
const PER_ASKER: usize = 1_000;

async fn in_process_median() -> Duration {
    let s = UserQuestions::new();
    s.register("at-once", Scope::Any, 0, Arc::new(AtOnce));
    let cancel = CancellationToken::new();
    let mut times = Vec::with_capacity(100_000);
    for _ in 0..100_000 {
        let t = Instant::now();
        s.ask(AskRequest::new(vec![question()]), &cancel).await.unwrap();
        times.push(t.elapsed());
    }
    times.sort();
    percentile(&times, 0.5)
}

fn main() {
    let floor = ping_pong_median();
    let chain = chain_median();
    println!("reference: one line there and back between two threads over a bare socket pair, median {floor:?}");
    println!("reference: a line through a middle thread to a third and back (four hops, as an ask answered by a protocol answerer crosses: asker -> server -> answerer -> server -> asker), median {chain:?}");
    answered_in_server(floor);
    for server_threads in [1, 2] {
        measure(server_threads, chain);
    }
}

/// One asker alone, its asks answered inside the server (an answerer in process, as a
/// remembered answer or the app's own window are): two hops, asker -> server -> asker,
/// beside the bare two-hop line.
fn answered_in_server(floor: Duration) {
    let service = UserQuestions::new();
    service.register("at-once", Scope::Any, 0, Arc::new(AtOnce));
    let (_dir, path, _server) = serve_apart(1, service);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let times = rt.block_on(alone(&path, scaled(1000), scaled(10_000)));
    let median = percentile(&times, 0.5);
    println!(
        "one asker alone, answered inside the server, 10000 asks: median {median:?}  p99 {:?}  ({:.2}x the bare two-hop round trip)",
        percentile(&times, 0.99),
        median.as_secs_f64() / floor.as_secs_f64()
    );
}

/// The floor of an ask answered by a protocol answerer: a line from one thread through
/// a second to a third and back the same way, over bare socket pairs, blocking reads.
fn chain_median() -> Duration {
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::net::UnixStream;
    let (near, middle_near) = UnixStream::pair().unwrap();
    let (middle_far, far) = UnixStream::pair().unwrap();
    echo(far);
    std::thread::spawn(move || {
        let mut from_near = BufReader::new(middle_near.try_clone().unwrap());
        let mut to_near = middle_near;
        let mut from_far = BufReader::new(middle_far.try_clone().unwrap());
        let mut to_far = middle_far;
        let mut line = String::new();
        while from_near.read_line(&mut line).unwrap_or(0) > 0 {
            to_far.write_all(line.as_bytes()).unwrap();
            line.clear();
            from_far.read_line(&mut line).unwrap();
            to_near.write_all(line.as_bytes()).unwrap();
            line.clear();
        }
    });
    round_trips(near)
}

/// The floor this machine sets: a line to another thread and back over a Unix socket,
/// with blocking reads and nothing else.
fn ping_pong_median() -> Duration {
    let (a, b) = std::os::unix::net::UnixStream::pair().unwrap();
    echo(b);
    round_trips(a)
}

/// A thread that sends every line it reads on `end` straight back.
fn echo(end: std::os::unix::net::UnixStream) {
    use std::io::{BufRead, Write};
    std::thread::spawn(move || {
        let mut reader = std::io::BufReader::new(end.try_clone().unwrap());
        let mut writer = end;
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            writer.write_all(line.as_bytes()).unwrap();
            line.clear();
        }
    });
}

/// The median of 10,000 lines sent on `end` and read back (after 1,000 to warm up).
fn round_trips(end: std::os::unix::net::UnixStream) -> Duration {
    use std::io::{BufRead, Write};
    let mut reader = std::io::BufReader::new(end.try_clone().unwrap());
    let mut writer = end;
    let mut line = String::new();
    let mut times = Vec::with_capacity(10_000);
    for i in 0..scaled(11_000) {
        let t = Instant::now();
        writer.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1}\n").unwrap();
        line.clear();
        reader.read_line(&mut line).unwrap();
        if i >= scaled(1_000) {
            times.push(t.elapsed());
        }
    }
    times.sort();
    percentile(&times, 0.5)
}

fn measure(server_threads: usize, chain: Duration) {
    let (_dir, path, server) = serve_apart(server_threads, UserQuestions::new());
    let answerer = apart("answerer", 1, answer_everything(path.clone()));
    // The askers' runtime is one thread too, as in `userq ask` and `userq mcp`.
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        // Warm up, then one asker alone: the latency of a round trip without queueing.
        let alone = alone(&path, scaled(1000), scaled(10_000)).await;
        let cpu = (cpu_time(&server), cpu_time(&answerer), own_cpu_time());
        let (times, wall) = crowd(&path, ASKERS, scaled(PER_ASKER)).await;
        let per_ask = |spent: Duration| spent / times.len() as u32;
        let (server_cpu, answerer_cpu, askers_cpu) = (
            per_ask(cpu_time(&server) - cpu.0),
            per_ask(cpu_time(&answerer) - cpu.1),
            per_ask(own_cpu_time() - cpu.2),
        );
        let reference = in_process_median().await;
        let median = percentile(&times, 0.5);
        println!("server on {server_threads} thread(s); socket round trip, {ASKERS} concurrent askers x {PER_ASKER} asks, one protocol answerer");
        println!("  median {:?}  p99 {:?}  max {:?}", median, percentile(&times, 0.99), times.last().unwrap());
        println!("  throughput {:.0} asks/s ({} asks in {:?})", times.len() as f64 / wall.as_secs_f64(), times.len(), wall);
        // A server of more threads runs on workers whose clocks this does not read.
        if server_threads == 1 {
            println!("  CPU per ask: server {server_cpu:?}, answerer {answerer_cpu:?}, askers {askers_cpu:?}");
        }
        let alone_median = percentile(&alone, 0.5);
        println!(
            "one asker alone, answered by the protocol answerer, 10000 asks: median {alone_median:?}  p99 {:?}  ({:.2}x the bare four-hop chain)",
            percentile(&alone, 0.99),
            alone_median.as_secs_f64() / chain.as_secs_f64()
        );
        println!("  (with {ASKERS} askers always in flight, Little's law ties latency to throughput: {ASKERS} / {:.0} per s = {:?})",
            times.len() as f64 / wall.as_secs_f64(), wall / scaled(PER_ASKER) as u32);
        println!("reference: in-process ask answered at once, median {reference:?} (socket/in-process = {:.0}x)", median.as_secs_f64() / reference.as_secs_f64());
    });
}
