//! Network namespaces kept for the next start of the same bot.
//!
//! A walled bot gets a network namespace of its own: a loopback interface and nothing
//! else, so it reaches no network and no other bot's sockets (abstract Unix sockets and
//! loopback ports belong to a namespace). Making one (the loopback device, its sysctl
//! tables, its addresses) and tearing it down again (the kernel's `cleanup_net`, with
//! expedited RCU grace periods) was one of the dearest parts of a bot's start: some 8% of all
//! the CPU of a series of instant bots (see the benchmark journal, "Network namespaces kept").
//!
//! So where Zebra runs as root (no user namespace of its own: a namespace made here is
//! owned by the machine's, which only root may join), the bot runs as a user of its own
//! without any capability, and it has groups (a limit or the freezer), its network namespace
//! outlives it: once every process of the bot is gone (its groups removed, see
//! [`super::jail::Jail::finish`]), the namespace goes back to a pool under the bot's
//! identity (its name, program, arguments, working directory and environment), and the
//! next start of that same bot joins it (`setns`) instead of making one. A namespace is
//! never handed to another bot, nor to two of its starts at once; a bot cannot
//! change it (it holds no capability), so what one start can leave behind for the next
//! (sockets still closing, ports in `TIME_WAIT`) is only ever its own. The pool holds at
//! most [`PER_BOT`] namespaces per bot and [`TOTAL`] in all: past either, the one given back
//! longest ago goes.
//! `ZEBRA_SANDBOX_DISABLE=netpool` makes every start make its own, as before.

use std::collections::VecDeque;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

/// Namespaces kept per bot at most: its games at once, and the next ones staged.
pub const PER_BOT: usize = 8;
/// Namespaces kept in all at most; past it the one given back longest ago goes.
pub const TOTAL: usize = 64;

/// The namespaces kept, each under its bot's identity, the one given back last at the end.
struct Pool {
    kept: VecDeque<(String, OwnedFd)>,
}

impl Pool {
    /// The namespace of bot `key` given back last, if any.
    fn take(&mut self, key: &str) -> Option<OwnedFd> {
        let at = self.kept.iter().rposition(|(k, _)| k == key)?;
        self.kept.remove(at).map(|(_, fd)| fd)
    }

    /// Keeps `fd` for bot `key`; past [`PER_BOT`] or [`TOTAL`], the one given back longest
    /// ago goes.
    fn keep(&mut self, key: String, fd: OwnedFd) {
        if self.kept.iter().filter(|(k, _)| *k == key).count() >= PER_BOT {
            if let Some(i) = self.kept.iter().position(|(k, _)| *k == key) {
                self.kept.remove(i);
            }
        }
        self.kept.push_back((key, fd));
        while self.kept.len() > TOTAL {
            self.kept.pop_front();
        }
    }
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    kept: VecDeque::new(),
});

/// A network namespace lent to one start of a bot, for [`give_back`](Net::give_back).
#[derive(Debug)]
pub struct Net {
    key: String,
    fd: OwnedFd,
}

impl Net {
    /// A namespace for a start of the bot `key`: one it had before, or a new one with its
    /// loopback interface up.
    pub fn take(key: &str) -> io::Result<Net> {
        let kept = POOL.lock().unwrap_or_else(|e| e.into_inner()).take(key);
        let fd = match kept {
            Some(fd) => fd,
            None => make()?,
        };
        Ok(Net {
            key: key.to_string(),
            fd,
        })
    }

    /// The namespace's descriptor (close-on-exec, above stdio), for `setns`.
    pub fn fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// Keeps the namespace for the bot's next start. Only once no process of this start is
    /// left in it: the caller knows (its groups are removed).
    pub fn give_back(self) {
        POOL.lock()
            .unwrap_or_else(|e| e.into_inner())
            .keep(self.key, self.fd);
    }
}

/// A new network namespace with its loopback interface up, made on a thread of its own
/// (a thread can leave its process's namespace; it ends right after).
fn make() -> io::Result<OwnedFd> {
    std::thread::Builder::new()
        .name("zebra-netns".into())
        .spawn(|| {
            // SAFETY: unshare, open, fcntl and close on this thread's own state; the thread
            // ends after, so nothing else ever runs in the namespace it entered.
            unsafe {
                if libc::unshare(libc::CLONE_NEWNET) != 0 {
                    return Err(io::Error::last_os_error());
                }
                super::jail::loopback_up();
                let fd = libc::open(
                    c"/proc/thread-self/ns/net".as_ptr(),
                    libc::O_RDONLY | libc::O_CLOEXEC,
                );
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                let fd = OwnedFd::from_raw_fd(fd);
                // Never 0, 1 or 2 (Zebra started without stdio): a bot's stdio is put there
                // before its setup joins the namespace.
                let above = libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3);
                if above < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(OwnedFd::from_raw_fd(above))
            }
        })?
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the thread making it panicked")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inode(fd: RawFd) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(format!("/proc/self/fd/{fd}"))
            .unwrap()
            .ino()
    }

    fn own_netns() -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self/ns/net").unwrap().ino()
    }

    /// Whether this process may make network namespaces (root with the capability).
    fn can_make() -> bool {
        match make() {
            Ok(_) => true,
            Err(e) => {
                eprintln!("skipped: no network namespace can be made here ({e})");
                false
            }
        }
    }

    #[test]
    fn a_namespace_goes_back_to_the_same_bot_only_and_never_to_two_at_once() {
        if !can_make() {
            return;
        }
        let a1 = Net::take("netns-test a").unwrap();
        let a2 = Net::take("netns-test a").unwrap();
        let b = Net::take("netns-test b").unwrap();
        // Held open, so no inode number is reused meanwhile.
        let (ia1, ia2, ib) = (inode(a1.fd()), inode(a2.fd()), inode(b.fd()));
        // Two at once, and another bot: three namespaces, none of them Zebra's own.
        assert_ne!(ia1, ia2);
        assert_ne!(ia1, ib);
        assert_ne!(ia2, ib);
        assert!(![ia1, ia2, ib].contains(&own_netns()));
        assert!(a1.fd() > 2 && a2.fd() > 2 && b.fd() > 2);
        a1.give_back();
        // Another bot never gets a's.
        let c = Net::take("netns-test c").unwrap();
        assert_ne!(inode(c.fd()), ia1);
        // a's next start does.
        let again = Net::take("netns-test a").unwrap();
        assert_eq!(inode(again.fd()), ia1);
        for n in [again, a2, b, c] {
            drop(n);
        }
    }

    #[test]
    fn a_bot_keeps_at_most_its_share_and_the_pool_its_total() {
        // The pool's rule alone, on descriptors of /dev/null.
        let fd = || OwnedFd::from(std::fs::File::open("/dev/null").unwrap());
        let mut pool = Pool {
            kept: VecDeque::new(),
        };
        let count = |pool: &Pool, key: &str| pool.kept.iter().filter(|(k, _)| k == key).count();
        for _ in 0..PER_BOT + 2 {
            pool.keep("share".into(), fd());
        }
        assert_eq!(count(&pool, "share"), PER_BOT);
        for i in 0..TOTAL + 5 {
            pool.keep(format!("many {i}"), fd());
        }
        assert_eq!(pool.kept.len(), TOTAL);
        assert_eq!(count(&pool, "share"), 0, "given back longest ago");
        assert_eq!(count(&pool, "many 4"), 0);
        assert_eq!(count(&pool, "many 5"), 1);
        assert!(pool.take("many 5").is_some());
        assert!(pool.take("many 5").is_none(), "never twice");
        assert!(pool.take("share").is_none());
    }
}
