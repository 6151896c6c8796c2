//! What keeping the history costs, against the same build with history off, in one
//! process (the machine is shared and noisy): two servers run side by side, one with
//! history and one without, and each figure is taken from both in turn, ask by ask or
//! burst by burst, so both meet the same moment of the machine. An in-process ask
//! answered at once; a socket ask with one asker alone (median, p99); asks per second
//! with 64 askers (and the server thread's CPU time per ask, steadier than the wall
//! time); then the file's bytes per recorded ask and a search over 100,000 recorded
//! asks. Each side's median is printed, and the median ratio of the pairs.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;
use user_questions::channel::client::Client;
use user_questions::channel::protocol;
use user_questions::channel::server;
use user_questions::history::{self, store, Retention};
use user_questions::{AskRequest, Scope, UserQuestions};

mod common;
use common::{answer_everything, apart, cpu_time, percentile, question, scaled, AtOnce};

const ROUNDS: usize = 9;
/// The server's runtime, as `userq serve` runs it.
const SERVER_THREADS: usize = 1;
const ASKERS: usize = 64;
/// Each of the 64 askers asks this many times in a burst; bursts alternate between
/// the two servers.
const PER_BURST: usize = 50;
const BURSTS: usize = 6;
/// The pause after every burst, the same for both: time for the history's folder,
/// which waits for a lull, to fold the burst into the file, as it would between
/// bursts of a person's day, and not during the other server's burst.
const SETTLE: Duration = Duration::from_millis(200);

fn service(history_dir: Option<&Path>) -> UserQuestions {
    let s = UserQuestions::new();
    if let Some(dir) = history_dir {
        let installed = history::install(&s, dir, Retention { days: 3650, max: 10_000_000 });
        assert!(installed.unusable.is_none());
    }
    s
}

/// One side's figures in one round.
#[derive(Default)]
struct Round {
    in_process: Duration,
    alone_median: Duration,
    alone_p99: Duration,
    bursts: Vec<Burst>,
}

/// One burst of the 64 askers.
struct Burst {
    per_second: f64,
    /// The server thread's CPU time per ask.
    server_cpu: Duration,
    /// The process's `write` calls per ask (sockets send otherwise): the journal's
    /// appends, and the runtimes waking each other.
    writes: f64,
}

/// The `write` calls this process has made (`syscw` in `/proc/self/io`).
fn write_calls() -> u64 {
    let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
    io.lines().find_map(|l| l.strip_prefix("syscw: ")).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// A server as `userq serve` runs it, with history in `data` or without, and a
/// protocol answerer that answers every offer at once.
struct Served {
    path: PathBuf,
    thread: std::thread::JoinHandle<()>,
}

fn serve(dir: &Path, name: &str, data: Option<PathBuf>) -> Served {
    let path = dir.join(name).join("bench.sock");
    let (ready_tx, ready) = std::sync::mpsc::channel();
    let thread = apart(&format!("server-{name}"), SERVER_THREADS, {
        let path = path.clone();
        async move {
            let s = service(data.as_deref());
            let listener = server::bind(&path).unwrap();
            ready_tx.send(()).unwrap();
            server::run(listener, s, std::future::pending()).await
        }
    });
    ready.recv().unwrap();
    apart(&format!("answerer-{name}"), 1, answer_everything(path.clone()));
    Served { path, thread }
}

/// Both sides, off first, in an order that swaps each time (`i` counts the turns).
fn turns(i: usize) -> [usize; 2] {
    if i.is_multiple_of(2) {
        [0, 1]
    } else {
        [1, 0]
    }
}

/// One round: history off and on, taken in turn.
fn round() -> [Round; 2] {
    let dir = tempfile::tempdir().unwrap();
    let data = |side: &str| Some(dir.path().join("data").join(side));
    let mut rounds = [Round::default(), Round::default()];
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // In process: one ask after another, answered at once, by each service in turn.
    rt.block_on(async {
        let services = [service(None), service(data("in-process").as_deref())];
        for s in &services {
            s.register("at-once", Scope::Any, 0, Arc::new(AtOnce));
        }
        let cancel = CancellationToken::new();
        let mut times = [Vec::with_capacity(5_000), Vec::with_capacity(5_000)];
        for i in 0..scaled(5_000) {
            for side in turns(i) {
                let t = Instant::now();
                services[side].ask(AskRequest::new(vec![question()]), &cancel).await.unwrap();
                times[side].push(t.elapsed());
            }
        }
        for (side, times) in times.iter_mut().enumerate() {
            times.sort();
            rounds[side].in_process = percentile(times, 0.5);
        }
        tokio::time::sleep(SETTLE).await;
    });
    // Over the socket, each server on a one-thread runtime as `userq serve` runs it.
    let servers = [serve(dir.path(), "off", None), serve(dir.path(), "on", data("socket"))];
    let params = AskRequest::new(vec![question()]);
    rt.block_on(async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        // One asker alone on each, an ask to one then an ask to the other.
        let mut alone = Vec::new();
        for s in &servers {
            alone.push(Client::connect(&s.path, "alone").await.unwrap().0);
        }
        let mut times = [Vec::with_capacity(5_000), Vec::with_capacity(5_000)];
        for i in 0..scaled(5_500) {
            for side in turns(i) {
                let t = Instant::now();
                alone[side].call::<protocol::Ask>(&params).await.unwrap();
                if i >= scaled(500) {
                    times[side].push(t.elapsed());
                }
            }
        }
        for (side, times) in times.iter_mut().enumerate() {
            times.sort();
            rounds[side].alone_median = percentile(times, 0.5);
            rounds[side].alone_p99 = percentile(times, 0.99);
        }
        tokio::time::sleep(SETTLE).await;
        // 64 askers on each, in bursts that alternate between the two.
        let mut crowds = Vec::new();
        for s in &servers {
            let mut clients = Vec::new();
            for i in 0..ASKERS {
                clients.push(Client::connect(&s.path, &format!("asker-{i}")).await.unwrap().0);
            }
            crowds.push(clients);
        }
        let asks = (ASKERS * scaled(PER_BURST)) as u32;
        for turn in 0..2 * BURSTS {
            // off, on, on, off, off, on, ...: the two bursts of a pair come one after
            // the other.
            let side = turns(turn / 2)[turn % 2];
            let (cpu, writes) = (cpu_time(&servers[side].thread), write_calls());
            let started = Instant::now();
            burst(&crowds[side], &params).await;
            let wall = started.elapsed();
            rounds[side].bursts.push(Burst {
                per_second: asks as f64 / wall.as_secs_f64(),
                server_cpu: (cpu_time(&servers[side].thread) - cpu) / asks,
                writes: (write_calls() - writes) as f64 / asks as f64,
            });
            tokio::time::sleep(SETTLE).await;
        }
    });
    rounds
}

/// Every client asks [`PER_BURST`] times, all at once.
async fn burst(clients: &[Client], params: &AskRequest) {
    let tasks: Vec<_> = clients
        .iter()
        .map(|client| {
            let (client, params) = (client.clone(), params.clone());
            tokio::spawn(async move {
                for _ in 0..scaled(PER_BURST) {
                    client.call::<protocol::Ask>(&params).await.unwrap();
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
}

fn profile(side: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = (side == "on").then(|| dir.path().join("data"));
    let served = serve(dir.path(), side, data);
    let params = AskRequest::new(vec![question()]);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let mut clients = Vec::new();
        for i in 0..ASKERS {
            clients.push(Client::connect(&served.path, &format!("asker-{i}")).await.unwrap().0);
        }
        for _ in 0..BURSTS {
            burst(&clients, &params).await;
        }
    });
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    // `cargo bench --bench history -- quick`: three rounds, no file figures; the same
    // when `cargo test` runs it (without `--bench`), to see that it works.
    let quick = std::env::args().any(|a| a == "quick") || !std::env::args().any(|a| a == "--bench");
    let rounds = if !std::env::args().any(|a| a == "--bench") {
        1
    } else if quick {
        3
    } else {
        ROUNDS
    };
    // `-- profile on|off`: one server alone, 64 askers' burst after burst, to be
    // profiled (its server thread is named `server-on` or `server-off`).
    if let Some(side) = std::env::args().skip_while(|a| a != "profile").nth(1) {
        return profile(&side);
    }
    let mut off = Vec::new();
    let mut on = Vec::new();
    for _ in 0..rounds {
        let [a, b] = round();
        let total = |r: &Round| r.bursts.iter().map(|b| b.per_second).sum::<f64>() / r.bursts.len() as f64;
        eprintln!(
            "round {}: alone p99 {:.0} → {:.0} µs, {ASKERS} askers {:.0} → {:.0} asks/s (mean of the bursts)",
            off.len() + 1,
            a.alone_p99.as_secs_f64() * 1e6,
            b.alone_p99.as_secs_f64() * 1e6,
            total(&a),
            total(&b),
        );
        off.push(a);
        on.push(b);
    }
    // Each figure from both sides at about the same moment: a round's figures, or a
    // pair of bursts taken one after the other. The medians of each side, and the
    // median of the ratios of the pairs, which the host's noise moves least.
    let sides = |pairs: &[(f64, f64)]| {
        (median(pairs.iter().map(|p| p.0).collect()), median(pairs.iter().map(|p| p.1).collect()))
    };
    let show = |name: &str, pairs: Vec<(f64, f64)>, unit: &str| {
        let ratio = median(pairs.iter().map(|(a, b)| b / a).collect());
        let (a, b) = sides(&pairs);
        println!("{name:<44} off {a:>10.1} {unit}   on {b:>10.1} {unit}   on/off {ratio:.2}");
    };
    let per_round = |f: &dyn Fn(&Round) -> Duration| -> Vec<(f64, f64)> {
        off.iter().zip(&on).map(|(a, b)| (f(a).as_secs_f64() * 1e6, f(b).as_secs_f64() * 1e6)).collect()
    };
    let per_burst = |f: &dyn Fn(&Burst) -> f64| -> Vec<(f64, f64)> {
        off.iter().zip(&on).flat_map(|(a, b)| a.bursts.iter().zip(&b.bursts).map(|(x, y)| (f(x), f(y)))).collect()
    };
    let pairs = off.len() * BURSTS;
    println!("history off against on, taken in turn, {rounds} rounds:");
    show("in-process ask answered at once (median)", per_round(&|r| r.in_process), "µs");
    show("socket ask, one asker alone (median)", per_round(&|r| r.alone_median), "µs");
    show("socket ask, one asker alone (p99)", per_round(&|r| r.alone_p99), "µs");
    println!("{ASKERS} askers, {pairs} pairs of bursts of {} asks:", ASKERS * PER_BURST);
    show(&format!("socket, {ASKERS} askers (asks/s)"), per_burst(&|b| b.per_second), "/s ");
    show(
        &format!("socket, {ASKERS} askers: server CPU per ask"),
        per_burst(&|b| b.server_cpu.as_secs_f64() * 1e6),
        "µs",
    );
    // No ratio: with history off the askers make almost no `write` calls.
    let (a, b) = sides(&per_burst(&|b| b.writes));
    println!("{:<44} off {a:>10.2}      on {b:>10.2}", format!("socket, {ASKERS} askers: write calls per ask"));
    fold_figures();
    if !quick {
        file_figures();
    }
}

/// What the journal costs: appending an ending (on the asker's path), and folding
/// it into the database later (off it).
fn fold_figures() {
    use user_questions::history::journal::{AskRef, EndRef, EntryRef, Journal};
    let dir = tempfile::tempdir().unwrap();
    let n = scaled(50_000) as u64;
    let request = user_questions::model::Request { questions: vec![question()], agent: None, context: None };
    let outcome = Ok(user_questions::Answer::new(vec![user_questions::AnswerItem::selected("pkg", &["pnpm"])]));
    let journal = Journal::create(&dir.path().join("journal")).unwrap();
    let t = Instant::now();
    for seq in 0..n {
        let now = std::time::SystemTime::now();
        // The request's JSON written here, as the recorder does when no answerer
        // before it needed it (an ask answered in process).
        let request = request.to_json();
        let ask = AskRef { asked_at: store::nanos(now), seq, request: &request };
        journal.record(&EntryRef::Whole { ask, end: EndRef::new(now, &outcome, Some("bench")) });
    }
    let appended = t.elapsed();
    // A database with no journals beside it, so that opening it folds none.
    std::fs::create_dir(dir.path().join("db")).unwrap();
    let conn = history::open_for_writing(&dir.path().join("db").join(history::FILE)).unwrap();
    let t = Instant::now();
    let folded = history::journal::fold(&conn, &dir.path().join("journal")).unwrap();
    let fold = t.elapsed();
    assert_eq!(folded, n as usize);
    println!(
        "journal: append {:.2} µs per ask (on the asker's path); fold {:.2} µs per ask (off it)",
        appended.as_secs_f64() * 1e6 / n as f64,
        fold.as_secs_f64() * 1e6 / n as f64
    );
}

/// 100,000 recorded asks: the file's size per ask, and `--search` over them.
fn file_figures() {
    let dir = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let n = 100_000;
    rt.block_on(async {
        let s = service(Some(dir.path()));
        s.register("at-once", Scope::Any, 0, Arc::new(AtOnce));
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..n {
            let s = s.clone();
            let mut q = question();
            q.question = format!("Which package manager for service {i}?");
            tasks.spawn(async move { s.ask(AskRequest::new(vec![q]), &CancellationToken::new()).await });
            if tasks.len() >= 512 {
                tasks.join_next().await.unwrap().unwrap().unwrap();
            }
        }
        while let Some(r) = tasks.join_next().await {
            r.unwrap().unwrap();
        }
    });
    let path = dir.path().join(history::FILE);
    let conn = history::open_for_writing(&path).unwrap();
    // What the server's folder has not folded yet, as a reader would.
    history::journal::fold(&conn, &history::journal::dir_of(&path)).unwrap();
    assert_eq!(store::count(&conn).unwrap(), n as i64);
    // Everything copied from the write-ahead log into the file, once the server's
    // folder has let go of it.
    while conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get::<_, i64>(0)).unwrap() != 0 {
        std::thread::sleep(Duration::from_millis(50));
    }
    let bytes = std::fs::metadata(&path).unwrap().len();
    println!("file: {bytes} bytes for {n} asks = {} bytes per recorded ask", bytes / n as u64);
    let reader = history::open_for_reading(&path).unwrap();
    for (what, search, limit) in [
        ("a search matching one ask", "service 4242?", None),
        ("a search matching all, first 50", "pnpm", Some(50)),
        ("a search matching none", "yarn", None),
    ] {
        let mut times = Vec::new();
        for _ in 0..15 {
            let t = Instant::now();
            let q = store::Query { search: Some(search.into()), limit, ..Default::default() };
            let found = store::list(&reader, &q).unwrap();
            times.push(t.elapsed());
            assert!(found.len() <= limit.unwrap_or(n as u64) as usize);
        }
        times.sort();
        println!("--search over {n} asks, {what}: median {:?}", percentile(&times, 0.5));
    }
}
