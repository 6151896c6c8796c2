//! A moment in an ask's life that tasks wait for: set once, seen by every waiter, and
//! kept inside the ask. An ask has three (delivered, withdrawn, ended); as cancellation
//! tokens they were three allocations of their own for every ask.

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

#[derive(Default)]
pub(crate) struct Signal {
    set: AtomicBool,
    notify: Notify,
}

impl Signal {
    /// Sets the signal and wakes every task waiting for it; later calls do nothing.
    pub fn set(&self) {
        if !self.set.swap(true, Ordering::AcqRel) {
            self.notify.notify_waiters();
        }
    }

    pub fn is_set(&self) -> bool {
        self.set.load(Ordering::Acquire)
    }

    /// Resolves once the signal is set (at once when it is).
    pub async fn wait(&self) {
        if self.is_set() {
            return;
        }
        let notified = self.notify.notified();
        tokio::pin!(notified);
        // Registered before the second look, so a `set` between the two is not missed.
        notified.as_mut().enable();
        if self.is_set() {
            return;
        }
        notified.await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::Signal;

    #[tokio::test]
    async fn every_waiter_sees_it_set_before_or_after_it_waits() {
        let signal = Arc::new(Signal::default());
        let waiters: Vec<_> = (0..3)
            .map(|_| {
                let signal = signal.clone();
                tokio::spawn(async move { signal.wait().await })
            })
            .collect();
        tokio::task::yield_now().await;
        assert!(!signal.is_set());
        signal.set();
        signal.set();
        for w in waiters {
            tokio::time::timeout(Duration::from_secs(5), w).await.expect("woken").unwrap();
        }
        tokio::time::timeout(Duration::from_secs(5), signal.wait()).await.expect("set already");
    }
}
