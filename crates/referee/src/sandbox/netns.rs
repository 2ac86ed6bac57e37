//! Network namespaces kept for the next start of the same bot.
//!
//! A walled bot gets a network namespace of its own: a loopback interface and nothing
//! else, so it reaches no network and no other bot's sockets (abstract Unix sockets and
//! loopback ports belong to a namespace). Making one (the loopback device, its sysctl
//! tables, its addresses) and tearing it down again (the kernel's `cleanup_net`, with
//! expedited RCU grace periods) was the dearest part of a bot's start: some 8% of all the
//! CPU of a series of instant bots (see the benchmark journal, "Network namespaces kept").
//!
//! So where Zebra runs as root (no user namespace of its own: a namespace made here is
//! owned by the machine's, which only root may join), a bot's network namespace outlives
//! it: once every process of the bot is gone (its groups removed, see
//! [`super::jail::Jail::finish`]), the namespace goes back to a pool under the bot's
//! identity (its name, program, arguments, working directory and environment), and the
//! next start of that same bot joins it (`setns`) instead of making one. A namespace is
//! never handed to another bot, nor to two of its starts at once; a bot cannot
//! change it (it holds no capability), so what one start can leave behind for the next
//! (sockets still closing, ports in `TIME_WAIT`) is only ever its own. The pool holds at
//! most [`PER_BOT`] namespaces per bot and [`TOTAL`] in all; more are let go.
//! `ZEBRA_SANDBOX_DISABLE=netpool` makes every start make its own, as before.

use std::collections::HashMap;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

/// Namespaces kept per bot at most: its games at once, and the next ones staged.
pub const PER_BOT: usize = 8;
/// Namespaces kept in all at most.
pub const TOTAL: usize = 64;

struct Pool {
    free: HashMap<String, Vec<OwnedFd>>,
    kept: usize,
}

static POOL: Mutex<Option<Pool>> = Mutex::new(None);

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
        let kept = {
            let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
            let pool = pool.get_or_insert_with(|| Pool {
                free: HashMap::new(),
                kept: 0,
            });
            let fd = pool.free.get_mut(key).and_then(Vec::pop);
            if fd.is_some() {
                pool.kept -= 1;
            }
            fd
        };
        let fd = match kept {
            Some(fd) => fd,
            None => make()?,
        };
        Ok(Net {
            key: key.to_string(),
            fd,
        })
    }

    /// The namespace's descriptor (close-on-exec), for `setns`.
    pub fn fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// Keeps the namespace for the bot's next start. Only once no process of this start is
    /// left in it: the caller knows (its groups are removed).
    pub fn give_back(self) {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let pool = pool.get_or_insert_with(|| Pool {
            free: HashMap::new(),
            kept: 0,
        });
        if pool.kept >= TOTAL {
            return;
        }
        let free = pool.free.entry(self.key).or_default();
        if free.len() < PER_BOT {
            free.push(self.fd);
            pool.kept += 1;
        }
    }
}

/// Namespaces kept now (for tests and `zebra doctor`).
pub fn kept() -> usize {
    POOL.lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map_or(0, |p| p.kept)
}

/// A new network namespace with its loopback interface up, made on a thread of its own
/// (a thread can leave its process's namespace; it ends right after).
fn make() -> io::Result<OwnedFd> {
    std::thread::Builder::new()
        .name("zebra-netns".into())
        .spawn(|| {
            // SAFETY: unshare, open and close on this thread's own state; the thread ends
            // after, so nothing else ever runs in the namespace it entered.
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
                Ok(OwnedFd::from_raw_fd(fd))
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

    #[test]
    fn a_namespace_goes_back_to_the_same_bot_only_and_never_to_two_at_once() {
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: only root makes network namespaces of the machine's");
            return;
        }
        let a1 = Net::take("netns-test a").unwrap();
        let a2 = Net::take("netns-test a").unwrap();
        let b = Net::take("netns-test b").unwrap();
        let (ia1, ia2, ib) = (inode(a1.fd()), inode(a2.fd()), inode(b.fd()));
        // Two at once, and another bot: three namespaces, none of them Zebra's own.
        assert_ne!(ia1, ia2);
        assert_ne!(ia1, ib);
        assert_ne!(ia2, ib);
        assert!(![ia1, ia2, ib].contains(&own_netns()));
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
    fn a_bot_keeps_at_most_its_share() {
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("skipped: only root makes network namespaces of the machine's");
            return;
        }
        let taken: Vec<Net> = (0..PER_BOT + 2)
            .map(|_| Net::take("netns-test share").unwrap())
            .collect();
        for n in taken {
            n.give_back();
        }
        let pool = POOL.lock().unwrap();
        let kept = pool
            .as_ref()
            .unwrap()
            .free
            .get("netns-test share")
            .unwrap()
            .len();
        assert_eq!(kept, PER_BOT);
    }
}
