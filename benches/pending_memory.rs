//! Memory held per pending ask: 10,000 asks held by an answerer, heap bytes counted by
//! a counting allocator before and after. Prints figures; no assertions.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use user_questions::model::UserQuestionError;
use user_questions::{Answer, AnswerItem, Answerer, Ask, AskRequest, Next, Question, Scope, UserQuestions};

struct Counting;
static HEAP: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        HEAP.fetch_add(l.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        HEAP.fetch_sub(l.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

struct Hold(mpsc::UnboundedSender<Ask>);
#[async_trait]
impl Answerer for Hold {
    async fn answer(&self, ask: &Ask, _next: Next<'_>) -> Result<Answer, UserQuestionError> {
        ask.claim();
        self.0.send(ask.clone()).unwrap();
        std::future::pending().await
    }
}

const N: usize = 10_000;

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let service = UserQuestions::new();
        let (tx, mut rx) = mpsc::unbounded_channel();
        service.register("hold", Scope::Any, 0, Arc::new(Hold(tx)));
        let question = Question::new("pkg", "Which package manager?").option("npm", None).option("pnpm", None);
        let request_bytes = serde_json::to_vec(&question).unwrap().len();
        let before = HEAP.load(Ordering::Relaxed);
        let mut askers = Vec::with_capacity(N);
        for _ in 0..N {
            let (s, r) = (service.clone(), AskRequest::new(vec![question.clone()]));
            askers.push(tokio::spawn(async move { s.ask(r, &CancellationToken::new()).await }));
        }
        let mut held = Vec::with_capacity(N);
        while held.len() < N {
            held.push(rx.recv().await.unwrap());
        }
        let during = HEAP.load(Ordering::Relaxed);
        assert_eq!(service.pending().len(), N);
        for a in &held {
            a.answer(Answer::new(vec![AnswerItem::selected("pkg", &["npm"])])).unwrap();
        }
        for t in askers {
            t.await.unwrap().unwrap();
        }
        drop(held);
        let after = HEAP.load(Ordering::Relaxed);
        let per = (during - before) as f64 / N as f64;
        println!("pending asks: {N}; question JSON: {request_bytes} bytes");
        println!(
            "heap held while pending: {:.1} MiB, {per:.0} bytes per pending ask (task, ask, pending entry, request)",
            (during - before) as f64 / 1048576.0
        );
        println!("heap after all answered: {} bytes above the start", after - before);
    });
}
