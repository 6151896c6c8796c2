//! The write side of a connection, shared by the server and the client. A line is
//! written at once, by the task that produced it, when nothing is queued before it and
//! the socket takes it whole: the common case costs no hand-off to another task. What
//! the socket does not take waits in a queue that one writer task drains (many lines
//! per system call) as the peer reads, so lines always leave in the order they were
//! sent and a slow reader never blocks the producer. Lines a server sends unasked
//! (offers) are left to the writer even when nothing is queued, so that many produced
//! in one turn of the runtime leave together.

use std::collections::VecDeque;
use std::io::{ErrorKind, IoSlice};
use std::sync::Mutex;
use std::time::Duration;

use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// How many queued lines one system call writes at most.
const BATCH: usize = 64;

pub(crate) struct Outbox {
    write: OwnedWriteHalf,
    queue: Mutex<Queue>,
    /// Wakes the writer task when a line is queued.
    queued: Notify,
    /// Wakes senders waiting for room when the writer drained some.
    drained: Notify,
    /// Cancelled when the socket fails or the connection is closed.
    closed: CancellationToken,
}

#[derive(Default)]
struct Queue {
    lines: VecDeque<Vec<u8>>,
    /// Bytes of the first line already written.
    offset: usize,
}

/// The queue already holds as many lines as the sender allows.
#[derive(Debug)]
pub(crate) struct Full;

impl Outbox {
    pub fn new(write: OwnedWriteHalf) -> Self {
        Self {
            write,
            queue: Mutex::default(),
            queued: Notify::new(),
            drained: Notify::new(),
            closed: CancellationToken::new(),
        }
    }

    pub fn closed(&self) -> &CancellationToken {
        &self.closed
    }

    /// Sends one line (a `\n` is added) unless `limit` lines are queued already.
    pub fn push(&self, line: String, limit: usize) -> Result<(), Full> {
        let mut queue = self.queue.lock().unwrap();
        self.push_locked(&mut queue, line, limit, true)
    }

    /// [`Self::push`], leaving the line to the writer task even when nothing is queued:
    /// it runs after the tasks ready now, so the lines they send too (offers of many
    /// asks that arrived together) leave in one system call and wake the peer once.
    pub fn push_batched(&self, line: String, limit: usize) -> Result<(), Full> {
        let mut queue = self.queue.lock().unwrap();
        self.push_locked(&mut queue, line, limit, false)
    }

    /// Sends one line, waiting while `limit` lines are queued: for replies, which wait
    /// for the peer to read rather than letting it queue without bound.
    pub async fn send(&self, line: String, limit: usize) {
        let mut line = Some(line);
        loop {
            let drained = self.drained.notified();
            tokio::pin!(drained);
            drained.as_mut().enable();
            {
                let mut queue = self.queue.lock().unwrap();
                if self.closed.is_cancelled() {
                    return;
                }
                if queue.lines.len() < limit {
                    let _ = self.push_locked(&mut queue, line.take().expect("sent once"), usize::MAX, true);
                    return;
                }
            }
            tokio::select! {
                () = &mut drained => {}
                () = self.closed.cancelled() => return,
            }
        }
    }

    fn push_locked(&self, queue: &mut Queue, line: String, limit: usize, now: bool) -> Result<(), Full> {
        if self.closed.is_cancelled() {
            return Ok(());
        }
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        if queue.lines.is_empty() && now {
            let written = self.write_now(&bytes);
            if written == bytes.len() {
                return Ok(());
            }
            queue.lines.push_back(bytes);
            queue.offset = written;
        } else if queue.lines.len() >= limit {
            return Err(Full);
        } else {
            queue.lines.push_back(bytes);
        }
        self.queued.notify_one();
        Ok(())
    }

    /// Writes what the socket takes without waiting; a failed socket closes the box.
    fn write_now(&self, mut bytes: &[u8]) -> usize {
        let mut written = 0;
        while !bytes.is_empty() {
            match self.write.try_write(bytes) {
                Ok(n) => {
                    written += n;
                    bytes = &bytes[n..];
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.closed.cancel();
                    break;
                }
            }
        }
        written
    }

    /// Drains the queue as the peer reads, until the box is closed; once `finish` is
    /// cancelled, it writes what is left (for at most two seconds) and closes the box.
    pub async fn run(&self, finish: CancellationToken) {
        let (finished, closed) = (finish.cancelled(), self.closed.cancelled());
        tokio::pin!(finished, closed);
        loop {
            let queued = self.queued.notified();
            tokio::pin!(queued);
            queued.as_mut().enable();
            let empty = self.is_empty();
            tokio::select! {
                () = &mut queued, if empty => {}
                ready = self.write.writable(), if !empty => {
                    if ready.is_err() {
                        self.closed.cancel();
                        return;
                    }
                    self.write_queued();
                }
                () = &mut finished => break,
                () = &mut closed => return,
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            while !self.queue.lock().unwrap().lines.is_empty() && !self.closed.is_cancelled() {
                if self.write.writable().await.is_err() {
                    break;
                }
                self.write_queued();
            }
        })
        .await;
        self.closed.cancel();
    }

    fn is_empty(&self) -> bool {
        self.queue.lock().unwrap().lines.is_empty()
    }

    /// Writes as many queued lines as the socket takes, in one system call.
    fn write_queued(&self) {
        let mut queue = self.queue.lock().unwrap();
        let Queue { lines, offset } = &mut *queue;
        let slices: Vec<IoSlice<'_>> = lines
            .iter()
            .take(BATCH)
            .enumerate()
            .map(|(i, l)| IoSlice::new(if i == 0 { &l[*offset..] } else { l }))
            .collect();
        let mut n = match self.write.try_write_vectored(&slices) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return,
            Err(_) => {
                self.closed.cancel();
                return;
            }
        };
        while let Some(front) = lines.front() {
            let left = front.len() - *offset;
            if n < left {
                *offset += n;
                break;
            }
            n -= left;
            *offset = 0;
            lines.pop_front();
        }
        drop(queue);
        self.drained.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use std::io::{ErrorKind, Read};
    use std::time::{Duration, Instant};

    use tokio_util::sync::CancellationToken;

    use super::Outbox;

    /// What the peer can read now, without waiting (empty when nothing is there).
    fn read_now(peer: &mut std::os::unix::net::UnixStream) -> Vec<u8> {
        let mut got = vec![0u8; 256];
        match peer.read(&mut got) {
            Ok(n) => got[..n].to_vec(),
            Err(e) if e.kind() == ErrorKind::WouldBlock => Vec::new(),
            Err(e) => panic!("reading the peer: {e}"),
        }
    }

    /// What the peer reads once the writer task has run.
    async fn written(peer: &mut std::os::unix::net::UnixStream) -> Vec<u8> {
        let started = Instant::now();
        loop {
            tokio::task::yield_now().await;
            let got = read_now(peer);
            if !got.is_empty() {
                return got;
            }
            assert!(started.elapsed() < Duration::from_secs(5), "the writer never wrote");
        }
    }

    #[tokio::test(flavor = "current_thread")]
    async fn lines_sent_in_one_turn_leave_together_and_replies_keep_their_place() {
        let (ours, mut peer) = std::os::unix::net::UnixStream::pair().unwrap();
        ours.set_nonblocking(true).unwrap();
        peer.set_nonblocking(true).unwrap();
        let (_read, write) = tokio::net::UnixStream::from_std(ours).unwrap().into_split();
        let out = std::sync::Arc::new(Outbox::new(write));
        let finish = CancellationToken::new();
        let writer = tokio::spawn({
            let (out, finish) = (out.clone(), finish.clone());
            async move { out.run(finish).await }
        });
        // The first line goes through the writer, which learns that the socket takes
        // lines; after it, a line with nothing queued before it can be written at once.
        out.send("hello".into(), 8).await;
        assert_eq!(written(&mut peer).await, b"hello\n");
        out.push_batched("offer 1".into(), 8).unwrap();
        out.push_batched("offer 2".into(), 8).unwrap();
        // A reply sent after them is queued behind them, not written first.
        out.send("reply".into(), 8).await;
        assert_eq!(read_now(&mut peer), b"", "nothing leaves before the writer runs");
        assert_eq!(written(&mut peer).await, b"offer 1\noffer 2\nreply\n", "all three in one write, in order");
        // With nothing queued, a reply is written at once by its sender.
        out.send("at once".into(), 8).await;
        assert_eq!(read_now(&mut peer), b"at once\n");
        finish.cancel();
        writer.await.unwrap();
    }
}
