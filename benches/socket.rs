//! Round trips over the real socket: 64 concurrent askers, one protocol answerer that
//! answers in its offer reply. Prints the median and p99 of one ask and the asks per
//! second, next to an in-process ask measured in the same run as the reference.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio_util::sync::CancellationToken;
use user_questions::channel::client::Client;
use user_questions::channel::server;
use user_questions::model::UserQuestionError;
use user_questions::{Answer, AnswerItem, Answerer, Ask, AskRequest, Next, Question, Scope, UserQuestions};

const ASKERS: usize = 64;
const PER_ASKER: usize = 1_000;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// A protocol answerer: replies to every offer with an answer at once.
async fn answer_everything(path: std::path::PathBuf) {
    let (r, mut w) = UnixStream::connect(&path).await.unwrap().into_split();
    let mut lines = BufReader::new(r).lines();
    w.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"answerers/register\",\"params\":{\"name\":\"bench\",\"scope\":\"any\"}}\n").await.unwrap();
    let mut out = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        let m: Value = serde_json::from_str(&line).unwrap();
        if m["method"] == "questions/offer" {
            let id = &m["params"]["request"]["questions"][0]["id"];
            let reply = json!({"jsonrpc": "2.0", "id": m["id"], "result": {"answer": {"answers": [{"id": id, "selected": ["pnpm"]}]}}});
            out.clear();
            serde_json::to_writer(&mut out, &reply).unwrap();
            out.push(b'\n');
            w.write_all(&out).await.unwrap();
        }
    }
}

struct AtOnce;
#[async_trait]
impl Answerer for AtOnce {
    async fn answer(&self, _ask: &Ask, _next: Next<'_>) -> Result<Answer, UserQuestionError> {
        Ok(Answer::new(vec![AnswerItem::selected("pkg", &["pnpm"])]))
    }
}

fn question() -> Question {
    Question::new("pkg", "Which package manager?").option("npm", None).option("pnpm", None)
}

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
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bench.sock");
        let listener = server::bind(&path).unwrap();
        tokio::spawn(server::run(listener, UserQuestions::new(), std::future::pending()));
        tokio::spawn(answer_everything(path.clone()));
        tokio::time::sleep(Duration::from_millis(200)).await;
        let params = json!({"questions": [question()]});
        // Warm up, then one asker alone: the latency of a round trip without queueing.
        let (client, _) = Client::connect(&path, "alone").await.unwrap();
        for _ in 0..1000 {
            client.call("ask", params.clone()).await.unwrap();
        }
        let mut alone = Vec::with_capacity(10_000);
        for _ in 0..10_000 {
            let t = Instant::now();
            client.call("ask", params.clone()).await.unwrap();
            alone.push(t.elapsed());
        }
        alone.sort();
        let started = Instant::now();
        let askers: Vec<_> = (0..ASKERS)
            .map(|i| {
                let (path, params) = (path.clone(), params.clone());
                tokio::spawn(async move {
                    let (client, _) = Client::connect(&path, &format!("asker-{i}")).await.unwrap();
                    let mut times = Vec::with_capacity(PER_ASKER);
                    for _ in 0..PER_ASKER {
                        let t = Instant::now();
                        client.call("ask", params.clone()).await.unwrap();
                        times.push(t.elapsed());
                    }
                    times
                })
            })
            .collect();
        let mut times = Vec::with_capacity(ASKERS * PER_ASKER);
        for a in askers {
            times.extend(a.await.unwrap());
        }
        let wall = started.elapsed();
        times.sort();
        let reference = in_process_median().await;
        let median = percentile(&times, 0.5);
        println!("socket round trip, {ASKERS} concurrent askers x {PER_ASKER} asks, one protocol answerer, 2 worker threads");
        println!("  median {:?}  p99 {:?}  max {:?}", median, percentile(&times, 0.99), times.last().unwrap());
        println!("  throughput {:.0} asks/s ({} asks in {:?})", times.len() as f64 / wall.as_secs_f64(), times.len(), wall);
        println!("one asker alone, 10000 asks: median {:?}  p99 {:?}", percentile(&alone, 0.5), percentile(&alone, 0.99));
        println!("  (with {ASKERS} askers always in flight, Little's law ties latency to throughput: {ASKERS} / {:.0} per s = {:?})",
            times.len() as f64 / wall.as_secs_f64(), wall / PER_ASKER as u32);
        println!("reference: in-process ask answered at once, median {reference:?} (socket/in-process = {:.0}x)", median.as_secs_f64() / reference.as_secs_f64());
    });
}
