//! Waiting for a server to listen again: 50 ms, doubling, up to a ceiling. The asker
//! and the answerer client both ride out a restart of the server with it.

use std::time::Duration;

/// The next wait before trying a server again.
#[derive(Debug, Clone)]
pub struct Backoff {
    next: Duration,
    ceiling: Duration,
}

impl Backoff {
    pub fn new(ceiling: Duration) -> Self {
        Self { next: Duration::from_millis(50).min(ceiling), ceiling }
    }

    /// Sleeps for the current wait; the next one is twice as long, up to the ceiling.
    pub async fn wait(&mut self) {
        tokio::time::sleep(self.step()).await;
    }

    fn step(&mut self) -> Duration {
        let now = self.next;
        self.next = (self.next * 2).min(self.ceiling);
        now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_up_to_the_ceiling() {
        let mut b = Backoff::new(Duration::from_millis(300));
        let waits: Vec<u128> = (0..5).map(|_| b.step().as_millis()).collect();
        assert_eq!(waits, [50, 100, 200, 300, 300]);
    }
}
