//! What keeping the history costs, against the same build with history off, in one
//! process and alternating rounds (the machine is shared and noisy): an in-process ask
//! answered at once; a socket ask with one asker alone (median, p99); asks per second
//! with 64 askers (and the server thread's CPU time per ask, steadier than the wall
//! time on a shared machine); then the file's bytes per recorded ask and a search
//! over 100,000 recorded asks. Medians of the rounds are printed.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;
use user_questions::channel::server;
use user_questions::history::{self, store, Retention};
use user_questions::{AskRequest, Scope, UserQuestions};

mod common;
use common::{alone, answer_everything, apart, cpu_time, crowd, percentile, question, AtOnce};

const ROUNDS: usize = 9;
/// The server's runtime, as `userq serve` runs it.
const SERVER_THREADS: usize = 1;
const ASKERS: usize = 64;
const PER_ASKER: usize = 300;

fn service(history_dir: Option<&Path>) -> UserQuestions {
    let s = UserQuestions::new();
    if let Some(dir) = history_dir {
        let installed = history::install(&s, dir, Retention { days: 3650, max: 10_000_000 });
        assert!(installed.problem.is_none());
    }
    s
}

struct Round {
    in_process: Duration,
    alone_median: Duration,
    alone_p99: Duration,
    per_second: f64,
    /// The server thread's CPU time per ask among the 64 askers.
    server_cpu: Duration,
}

fn round(with_history: bool) -> Round {
    let dir = tempfile::tempdir().unwrap();
    let data = with_history.then(|| dir.path().join("data"));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // In process: one ask after another, answered at once.
    let in_process = rt.block_on(async {
        let s = service(data.as_deref().map(|d| d.join("in-process")).as_deref());
        s.register("at-once", Scope::Any, 0, Arc::new(AtOnce));
        let cancel = CancellationToken::new();
        let mut times = Vec::with_capacity(5_000);
        for _ in 0..5_000 {
            let t = Instant::now();
            s.ask(AskRequest::new(vec![question()]), &cancel).await.unwrap();
            times.push(t.elapsed());
        }
        times.sort();
        percentile(&times, 0.5)
    });
    // Over the socket, the server on a one-thread runtime as `userq serve` runs it.
    let path = dir.path().join("run").join("bench.sock");
    let (ready_tx, ready) = std::sync::mpsc::channel();
    let socket_data = data.as_deref().map(|d| d.join("socket"));
    let server = apart("server", SERVER_THREADS, {
        let path = path.clone();
        async move {
            let s = service(socket_data.as_deref());
            let listener = server::bind(&path).unwrap();
            ready_tx.send(()).unwrap();
            server::run(listener, s, std::future::pending()).await
        }
    });
    ready.recv().unwrap();
    apart("answerer", 1, answer_everything(path.clone()));
    rt.block_on(async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let alone = alone(&path, 500, 5_000).await;
        let before = cpu_time(&server);
        let (_, wall) = crowd(&path, ASKERS, PER_ASKER).await;
        let server_cpu = (cpu_time(&server) - before) / (ASKERS * PER_ASKER) as u32;
        let per_second = (ASKERS * PER_ASKER) as f64 / wall.as_secs_f64();
        Round {
            in_process,
            alone_median: percentile(&alone, 0.5),
            alone_p99: percentile(&alone, 0.99),
            per_second,
            server_cpu,
        }
    })
}

fn median<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    // `cargo bench --bench history -- quick`: three rounds, no file figures; the same
    // when `cargo test` runs it (without `--bench`), to see that it works.
    let quick = std::env::args().any(|a| a == "quick") || !std::env::args().any(|a| a == "--bench");
    let rounds = if quick { 3 } else { ROUNDS };
    let mut off = Vec::new();
    let mut on = Vec::new();
    // `-- profile on|off`: rounds of one kind only, to be profiled.
    if let Some(kind) = std::env::args().skip_while(|a| a != "profile").nth(1) {
        for _ in 0..rounds {
            round(kind == "on");
        }
        return;
    }
    for _ in 0..rounds {
        off.push(round(false));
        on.push(round(true));
        let (a, b) = (&off[off.len() - 1], &on[on.len() - 1]);
        eprintln!(
            "round {}: {ASKERS} askers {:.0} → {:.0} asks/s, server CPU {:.1} → {:.1} µs per ask",
            off.len(),
            a.per_second,
            b.per_second,
            a.server_cpu.as_secs_f64() * 1e6,
            b.server_cpu.as_secs_f64() * 1e6
        );
    }
    let show = |name: &str, f: &dyn Fn(&Round) -> f64, unit: &str| {
        let (a, b) = (median(off.iter().map(f).collect()), median(on.iter().map(f).collect()));
        println!("{name:<44} off {a:>10.1} {unit}   on {b:>10.1} {unit}   on/off {:.2}", b / a);
    };
    println!("history off against on, {rounds} alternating rounds, medians of the rounds:");
    show("in-process ask answered at once (median)", &|r| r.in_process.as_secs_f64() * 1e6, "µs");
    show("socket ask, one asker alone (median)", &|r| r.alone_median.as_secs_f64() * 1e6, "µs");
    show("socket ask, one asker alone (p99)", &|r| r.alone_p99.as_secs_f64() * 1e6, "µs");
    show(&format!("socket, {ASKERS} askers (asks/s)"), &|r| r.per_second, "/s ");
    show(&format!("socket, {ASKERS} askers: server CPU per ask"), &|r| r.server_cpu.as_secs_f64() * 1e6, "µs");
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
    let n = 50_000;
    let request = user_questions::model::Request { questions: vec![question()], agent: None, context: None };
    let outcome = Ok(user_questions::Answer::new(vec![user_questions::AnswerItem::selected("pkg", &["pnpm"])]));
    let journal = Journal::create(&dir.path().join("journal")).unwrap();
    let t = Instant::now();
    for seq in 0..n {
        let now = std::time::SystemTime::now();
        let ask = AskRef { asked_at: store::nanos(now), seq, request: &request };
        journal.record(&EntryRef::Whole { ask, end: EndRef::new(now, &outcome, Some("bench")) });
    }
    let appended = t.elapsed();
    // A database with no journals beside it, so that opening it folds none.
    std::fs::create_dir(dir.path().join("db")).unwrap();
    let conn = store::open_for_writing(&dir.path().join("db").join(history::FILE)).unwrap();
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
    let conn = store::open_for_writing(&path).unwrap();
    assert_eq!(store::count(&conn).unwrap(), n as i64);
    // Everything copied from the write-ahead log into the file, once the server's
    // folder has let go of it.
    while conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get::<_, i64>(0)).unwrap() != 0 {
        std::thread::sleep(Duration::from_millis(50));
    }
    let bytes = std::fs::metadata(&path).unwrap().len();
    println!("file: {bytes} bytes for {n} asks = {} bytes per recorded ask", bytes / n as u64);
    let reader = store::open_for_reading(&path).unwrap();
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
