//! What the socket and history benchmarks share: a protocol answerer that answers
//! every offer at once, an in-process answerer that does the same, the question they
//! answer, a runtime in a thread of its own, and percentiles.

#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use user_questions::channel::client::Client;
use user_questions::channel::protocol;
use user_questions::model::UserQuestionError;
use user_questions::{Answer, AnswerItem, Answerer, Ask, AskRequest, Next, Question};

/// `n`, or a fiftieth of it (at least 2) when `cargo test` runs the bench, which it
/// does without `--bench` to see that the bench works: figures worth quoting come from
/// `cargo bench` alone.
pub fn scaled(n: usize) -> usize {
    if std::env::args().any(|a| a == "--bench") {
        n
    } else {
        (n / 50).max(2)
    }
}

pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// `n` runs of `f`, each timed, sorted.
pub fn times(n: usize, mut f: impl FnMut()) -> Vec<Duration> {
    let mut out: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    out.sort();
    out
}

/// Prints the median and p95 of sorted `t` under `what`; the median.
pub fn show(what: &str, t: &[Duration]) -> Duration {
    let median = percentile(t, 0.5);
    println!("{what:<62} median {median:>10.1?}  p95 {:>10.1?}  (n={})", percentile(t, 0.95), t.len());
    median
}

/// A protocol answerer: replies to every offer with an answer at once.
pub async fn answer_everything(path: std::path::PathBuf) {
    answer_with(path, "pnpm").await
}

/// A protocol answerer that selects `label` in every offer's first question at once.
pub async fn answer_with(path: std::path::PathBuf, label: &str) {
    let (r, mut w) = UnixStream::connect(&path).await.unwrap().into_split();
    let mut lines = BufReader::new(r).lines();
    w.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"answerers/register\",\"params\":{\"name\":\"bench\",\"scope\":\"any\"}}\n").await.unwrap();
    let mut out = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        let m: Value = serde_json::from_str(&line).unwrap();
        if m["method"] == "questions/offer" {
            let id = &m["params"]["request"]["questions"][0]["id"];
            let reply = json!({"jsonrpc": "2.0", "id": m["id"], "result": {"answer": {"answers": [{"id": id, "selected": [label]}]}}});
            out.clear();
            serde_json::to_writer(&mut out, &reply).unwrap();
            out.push(b'\n');
            w.write_all(&out).await.unwrap();
        }
    }
}

/// Answers every ask in process, at once.
pub struct AtOnce;
#[async_trait]
impl Answerer for AtOnce {
    async fn answer(&self, _ask: &Ask, _next: Next<'_>) -> Result<Answer, UserQuestionError> {
        Ok(Answer::new(vec![AnswerItem::selected("pkg", &["pnpm"])]))
    }
}

pub fn question() -> Question {
    Question::new("pkg", "Which package manager?").option("npm", None).option("pnpm", None)
}

/// Runs `party` on a runtime of its own in a thread of its own (named `name`, for a
/// profiler), like another process.
pub fn apart<F: std::future::Future<Output = ()> + Send + 'static>(
    name: &str,
    threads: usize,
    party: F,
) -> std::thread::JoinHandle<()> {
    let thread = std::thread::Builder::new().name(name.into());
    thread
        .spawn(move || {
            let rt = match threads {
                1 => tokio::runtime::Builder::new_current_thread().enable_all().build(),
                n => tokio::runtime::Builder::new_multi_thread().worker_threads(n).enable_all().build(),
            };
            rt.unwrap().block_on(party)
        })
        .expect("a thread")
}

/// The CPU time a thread has used so far (user and system), read from another thread:
/// what a party costs, steadier than the wall time on a shared machine.
pub fn cpu_time(thread: &std::thread::JoinHandle<()>) -> Duration {
    use std::os::unix::thread::JoinHandleExt;
    let mut clock = 0;
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: the thread is alive (its handle is held) and both out-pointers are valid.
    unsafe {
        assert_eq!(libc::pthread_getcpuclockid(thread.as_pthread_t(), &mut clock), 0);
        assert_eq!(libc::clock_gettime(clock, &mut now), 0);
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// The CPU time the calling thread has used so far (user and system).
pub fn own_cpu_time() -> Duration {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: the out-pointer is valid for the call.
    unsafe { assert_eq!(libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now), 0) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// One asker alone: `warm` asks, then `n` timed one after another, sorted.
pub async fn alone(path: &Path, warm: usize, n: usize) -> Vec<Duration> {
    let params = AskRequest::new(vec![question()]);
    let (client, _) = Client::connect(path, "alone").await.unwrap();
    for _ in 0..warm {
        client.call::<protocol::Ask>(&params).await.unwrap();
    }
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        client.call::<protocol::Ask>(&params).await.unwrap();
        times.push(t.elapsed());
    }
    times.sort();
    times
}

/// `askers` askers at once, `per` asks each: every ask's time, sorted, and the wall time.
pub async fn crowd(path: &Path, askers: usize, per: usize) -> (Vec<Duration>, Duration) {
    let params = AskRequest::new(vec![question()]);
    let started = Instant::now();
    let tasks: Vec<_> = (0..askers)
        .map(|i| {
            let (path, params) = (path.to_owned(), params.clone());
            tokio::spawn(async move {
                let (client, _) = Client::connect(&path, &format!("asker-{i}")).await.unwrap();
                let mut times = Vec::with_capacity(per);
                for _ in 0..per {
                    let t = Instant::now();
                    client.call::<protocol::Ask>(&params).await.unwrap();
                    times.push(t.elapsed());
                }
                times
            })
        })
        .collect();
    let mut times = Vec::with_capacity(askers * per);
    for t in tasks {
        times.extend(t.await.unwrap());
    }
    let wall = started.elapsed();
    times.sort();
    (times, wall)
}

/// `service` served on a socket in a temporary folder, on a runtime of `threads` in a
/// thread of its own; returns once it listens (the folder lives as long as the guard),
/// with the server's thread.
pub fn serve_apart(
    threads: usize,
    service: user_questions::UserQuestions,
) -> (tempfile::TempDir, std::path::PathBuf, std::thread::JoinHandle<()>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run").join("bench.sock");
    let (ready_tx, ready) = std::sync::mpsc::channel();
    let server = apart("server", threads, {
        let path = path.clone();
        async move {
            let listener = user_questions::channel::server::bind(&path).unwrap();
            ready_tx.send(()).unwrap();
            user_questions::channel::server::run(listener, service, std::future::pending()).await
        }
    });
    ready.recv().unwrap();
    (dir, path, server)
}

/// `program args` fed `input`, until it exits and its output is read.
pub fn spawn(program: &Path, args: &[&str], input: &str, env: &[(&str, &Path)]) -> String {
    let mut c = std::process::Command::new(program);
    c.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}
