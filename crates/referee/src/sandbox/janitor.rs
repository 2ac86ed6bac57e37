//! What a finished bot leaves behind (its cgroups, its temp directory where it has one of
//! its own, the host user id it held), removed on a thread of its own once the bot's fate
//! is known, so that a game's end does not wait for the kernel to tear the bot's namespaces
//! and groups down.
//!
//! By then the bot has exited and its process group has been killed; what may still run is
//! its keeper and init, ending, and whatever the namespace's end takes with it. Each job
//! kills whatever is still in the groups and removes them, waiting as long as the exits
//! take ([`super::cgroup::kill_and_remove_dir`]'s patience), then the directory, then
//! gives the user id back (only then: no other bot gets it while a process of this one
//! lives). [`settle`] waits until every job left so far is done: `zebra` calls it before it
//! exits, so that no group or directory outlives the command that made it.

use std::sync::mpsc::{channel, Sender};
use std::sync::{Condvar, Mutex, OnceLock};

type Job = Box<dyn FnOnce() + Send>;

/// Jobs waiting at most; more are done by whoever leaves them.
const BACKLOG: usize = 32;

struct Janitor {
    jobs: Mutex<Sender<Job>>,
    /// Jobs left and not yet done.
    pending: Mutex<usize>,
    done: Condvar,
}

fn janitor() -> Option<&'static Janitor> {
    static JANITOR: OnceLock<Option<Janitor>> = OnceLock::new();
    JANITOR
        .get_or_init(|| {
            let (jobs, taken) = channel::<Job>();
            let spawned = std::thread::Builder::new()
                .name("zebra-janitor".into())
                .spawn(move || {
                    while let Ok(job) = taken.recv() {
                        // A job that panics is done too (what it left, a later sweep takes).
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        if let Some(j) = janitor() {
                            let mut pending = j.pending.lock().unwrap_or_else(|e| e.into_inner());
                            *pending -= 1;
                            if *pending == 0 {
                                j.done.notify_all();
                            }
                        }
                    }
                });
            spawned.ok().map(|_| Janitor {
                jobs: Mutex::new(jobs),
                pending: Mutex::new(0),
                done: Condvar::new(),
            })
        })
        .as_ref()
}

/// Runs `job` on the janitor's thread, or here and now if there is none (no thread could be
/// started).
pub(crate) fn leave(job: impl FnOnce() + Send + 'static) {
    let Some(j) = janitor() else {
        job();
        return;
    };
    {
        let mut pending = j.pending.lock().unwrap_or_else(|e| e.into_inner());
        if *pending >= BACKLOG {
            // Behind already (each job holds a host user id of a bounded pool): this one is
            // done here, by the game that leaves it.
            drop(pending);
            job();
            return;
        }
        *pending += 1;
    }
    let sent = j
        .jobs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(Box::new(job));
    if let Err(unsent) = sent {
        *j.pending.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        (unsent.0)();
    }
}

/// Waits until every job left so far is done.
pub fn settle() {
    let Some(j) = janitor() else {
        return;
    };
    let mut pending = j.pending.lock().unwrap_or_else(|e| e.into_inner());
    while *pending > 0 {
        pending = j.done.wait(pending).unwrap_or_else(|e| e.into_inner());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn settle_waits_for_every_job_left() {
        let done = Arc::new(AtomicUsize::new(0));
        for _ in 0..20 {
            let done = done.clone();
            leave(move || {
                std::thread::sleep(std::time::Duration::from_millis(2));
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
        settle();
        assert_eq!(done.load(Ordering::SeqCst), 20);
    }
}
