//! Landlock, the second layer where the kernel has it: after the bot's root is its view,
//! the bot may read and run what the view holds, write only under `/tmp` (and to the
//! devices of `/dev`), send signals only to its own processes, reach no abstract Unix
//! socket outside its own processes, and (without `--network`) neither bind nor connect
//! TCP. Each right is asked for only when the kernel's Landlock version knows it.
//!
//! Raw system calls rather than the landlock crate: the rules are made between fork and
//! exec, where only async-signal-safe calls may run, and the crate allocates as it builds
//! a ruleset; the calls themselves are three.

use std::io;

const CREATE_RULESET_VERSION: u32 = 1;
const RULE_PATH_BENEATH: libc::c_int = 1;

const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const READ_FILE: u64 = 1 << 2;
const READ_DIR: u64 = 1 << 3;
const REMOVE_DIR: u64 = 1 << 4;
const REMOVE_FILE: u64 = 1 << 5;
const MAKE_CHAR: u64 = 1 << 6;
const MAKE_DIR: u64 = 1 << 7;
const MAKE_REG: u64 = 1 << 8;
const MAKE_SOCK: u64 = 1 << 9;
const MAKE_FIFO: u64 = 1 << 10;
const MAKE_BLOCK: u64 = 1 << 11;
const MAKE_SYM: u64 = 1 << 12;
const REFER: u64 = 1 << 13;
const TRUNCATE: u64 = 1 << 14;
const IOCTL_DEV: u64 = 1 << 15;

const NET_BIND_TCP: u64 = 1 << 0;
const NET_CONNECT_TCP: u64 = 1 << 1;

const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock version of this kernel (0: none).
pub(crate) fn abi() -> u32 {
    // SAFETY: with the version flag the call only answers a number.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    if v < 0 {
        0
    } else {
        v as u32
    }
}

/// The rules for one bot, fixed before the fork.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    abi: u32,
    network: bool,
}

impl Rules {
    /// For a kernel of version `abi` (at least 1); `network`: the bot may use TCP.
    pub fn new(abi: u32, network: bool) -> Rules {
        Rules { abi, network }
    }

    fn fs_rights(&self) -> u64 {
        let mut all = EXECUTE
            | WRITE_FILE
            | READ_FILE
            | READ_DIR
            | REMOVE_DIR
            | REMOVE_FILE
            | MAKE_CHAR
            | MAKE_DIR
            | MAKE_REG
            | MAKE_SOCK
            | MAKE_FIFO
            | MAKE_BLOCK
            | MAKE_SYM;
        if self.abi >= 2 {
            all |= REFER;
        }
        if self.abi >= 3 {
            all |= TRUNCATE;
        }
        if self.abi >= 5 {
            all |= IOCTL_DEV;
        }
        all
    }

    /// Restricts the calling process (and what it execs) to the rules. Call after the root
    /// is the view and `no_new_privs` is set. Async-signal-safe.
    ///
    /// # Safety
    /// Only between fork and exec.
    pub unsafe fn restrict_self(&self) -> io::Result<()> {
        let handled = self.fs_rights();
        let attr = RulesetAttr {
            handled_access_fs: handled,
            handled_access_net: if self.abi >= 4 && !self.network {
                NET_BIND_TCP | NET_CONNECT_TCP
            } else {
                0
            },
            scoped: if self.abi >= 6 {
                SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
            } else {
                0
            },
        };
        let size = match self.abi {
            1..=3 => 8,
            4 | 5 => 16,
            _ => std::mem::size_of::<RulesetAttr>(),
        };
        let ruleset = libc::syscall(
            libc::SYS_landlock_create_ruleset,
            &attr as *const RulesetAttr,
            size,
            0u32,
        );
        if ruleset < 0 {
            return Err(io::Error::last_os_error());
        }
        let ruleset = ruleset as libc::c_int;
        let read = EXECUTE | READ_FILE | READ_DIR;
        let rules: [(&std::ffi::CStr, u64); 3] = [
            (c"/", read),
            (c"/tmp", handled),
            (c"/dev", read | WRITE_FILE),
        ];
        let mut result = Ok(());
        for (path, rights) in rules {
            let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if fd < 0 {
                continue;
            }
            let rule = PathBeneath {
                allowed_access: rights & handled,
                parent_fd: fd,
            };
            let r = libc::syscall(
                libc::SYS_landlock_add_rule,
                ruleset,
                RULE_PATH_BENEATH,
                &rule as *const PathBeneath,
                0u32,
            );
            libc::close(fd);
            if r != 0 {
                result = Err(io::Error::last_os_error());
                break;
            }
        }
        if result.is_ok() && libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0u32) != 0 {
            result = Err(io::Error::last_os_error());
        }
        libc::close(ruleset);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_follow_the_kernels_version() {
        assert_eq!(Rules::new(1, false).fs_rights() & (REFER | TRUNCATE), 0);
        assert_ne!(Rules::new(3, false).fs_rights() & TRUNCATE, 0);
        assert_ne!(Rules::new(5, false).fs_rights() & IOCTL_DEV, 0);
    }

    #[test]
    fn a_restricted_child_cannot_write_outside_tmp_nor_signal_its_parent() {
        let abi = abi();
        if abi == 0 {
            eprintln!("note: no Landlock in this kernel; skipping");
            return;
        }
        let rules = Rules::new(abi, false);
        // The rules name "/tmp" itself, whatever TMPDIR says.
        let target =
            std::path::PathBuf::from(format!("/tmp/zebra-landlock-{}", std::process::id()));
        let c_target = std::ffi::CString::new(target.to_str().unwrap()).unwrap();
        // SAFETY: the child only makes system calls and exits.
        let status = unsafe {
            let pid = libc::fork();
            assert!(pid >= 0);
            if pid == 0 {
                libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                if rules.restrict_self().is_err() {
                    libc::_exit(100);
                }
                // The test's /tmp is the host's: allowed (it is "/tmp"). A file in the
                // working directory's parent is not.
                let fd = libc::open(
                    c"/zebra-landlock-denied".as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY,
                    0o600,
                );
                if fd >= 0 {
                    libc::_exit(1);
                }
                let fd = libc::open(c_target.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o600);
                if fd < 0 {
                    libc::_exit(2);
                }
                if abi >= 6 && libc::kill(libc::getppid(), 0) == 0 {
                    libc::_exit(3);
                }
                libc::_exit(0);
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            status
        };
        let _ = std::fs::remove_file(&target);
        assert!(libc::WIFEXITED(status));
        assert_eq!(libc::WEXITSTATUS(status), 0);
    }
}
