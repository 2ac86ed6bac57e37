//! The system calls a bot may not make: a seccomp filter (classic BPF) built before the
//! fork and installed just before exec.
//!
//! A deny list, so that every language runtime keeps working: the calls that reach other
//! processes (`ptrace`, `process_vm_readv`/`writev`, `kcmp`, `pidfd_getfd`), change the
//! file system view (`mount` and the new mount API, `pivot_root`, `chroot`, `setns`,
//! `unshare`, and `clone` with any namespace flag: no user namespace of its own), load
//! code or programs into the kernel (`bpf`, modules, `kexec`), watch the machine
//! (`perf_event_open`, `syslog`, `fanotify_init`), leave the CPUs they were given
//! (`sched_setaffinity`), reach kernel key rings (`keyctl`, `add_key`, `request_key`),
//! bypass path checks (`open_by_handle_at`), or are known exploit tools (`userfaultfd`,
//! `io_uring`), plus clock, swap, quota and reboot calls.
//! They fail with EPERM; `clone3` fails with ENOSYS (its flags live in memory a filter
//! cannot read), so that C libraries fall back to `clone`, whose flags it can. Any call of
//! another architecture's ABI (x32 on x86-64, or 32-bit calls) kills the process.
//!
//! Hand-written rather than compiled by the seccompiler crate: seccompiler builds allow
//! and deny rules well, but matches numbers only under the architecture's audit value, so
//! x86-64's x32 calls (the same numbers with bit 30 set) would pass a deny list; the
//! filter here is short enough to check by reading and by the tests below.

use std::io;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct SockFilter {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

#[repr(C)]
struct SockFprog {
    len: u16,
    filter: *const SockFilter,
}

/// Classic BPF opcodes: class | operation | source (see linux/bpf_common.h).
const BPF_LD_W_ABS: u16 = 0x20; // BPF_LD (0) | BPF_W (0) | BPF_ABS (0x20)
const BPF_JMP_JEQ_K: u16 = 0x05 | 0x10; // BPF_JMP | BPF_JEQ | BPF_K (0)
const BPF_JMP_JGE_K: u16 = 0x05 | 0x30;
const BPF_JMP_JSET_K: u16 = 0x05 | 0x40;
const BPF_RET_K: u16 = 0x06;

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
const RET_ERRNO: u32 = 0x0005_0000;

/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0_LOW: u32 = 16;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 62 | 0x8000_0000 | 0x4000_0000;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 183 | 0x8000_0000 | 0x4000_0000;

/// Bit 30 of an x86-64 call number: the x32 ABI.
const X32_BIT: u32 = 0x4000_0000;

/// Namespace flags of `clone` (and `unshare`).
const NAMESPACE_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP
    | 0x80) as u32; // CLONE_NEWTIME

/// The calls refused with EPERM.
fn denied() -> Vec<libc::c_long> {
    let mut list = vec![
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_kcmp,
        libc::SYS_pidfd_getfd,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_setns,
        libc::SYS_unshare,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        libc::SYS_mount_setattr,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_syslog,
        libc::SYS_fanotify_init,
        libc::SYS_acct,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_quotactl,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_vhangup,
        // A bot pinned to its game's CPU (`--affinity`) stays there.
        libc::SYS_sched_setaffinity,
    ];
    #[cfg(target_arch = "x86_64")]
    list.extend([libc::SYS_iopl, libc::SYS_ioperm, libc::SYS_uselib]);
    list
}

/// A compiled filter, ready to install.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Filter {
    program: Vec<SockFilter>,
}

fn stmt(code: u16, k: u32) -> SockFilter {
    SockFilter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> SockFilter {
    SockFilter { code, jt, jf, k }
}

impl Filter {
    /// The bot's filter.
    pub fn new() -> Filter {
        let mut p = vec![
            stmt(BPF_LD_W_ABS, ARCH),
            jump(BPF_JMP_JEQ_K, AUDIT_ARCH, 1, 0),
            stmt(BPF_RET_K, RET_KILL_PROCESS),
            stmt(BPF_LD_W_ABS, NR),
        ];
        if cfg!(target_arch = "x86_64") {
            p.push(jump(BPF_JMP_JGE_K, X32_BIT, 0, 1));
            p.push(stmt(BPF_RET_K, RET_KILL_PROCESS));
        }
        for nr in denied() {
            p.push(jump(BPF_JMP_JEQ_K, nr as u32, 0, 1));
            p.push(stmt(BPF_RET_K, RET_ERRNO | libc::EPERM as u32));
        }
        p.push(jump(BPF_JMP_JEQ_K, libc::SYS_clone3 as u32, 0, 1));
        p.push(stmt(BPF_RET_K, RET_ERRNO | libc::ENOSYS as u32));
        // clone: its first argument holds the flags on x86-64 and arm64 alike.
        p.push(jump(BPF_JMP_JEQ_K, libc::SYS_clone as u32, 0, 3));
        p.push(stmt(BPF_LD_W_ABS, ARG0_LOW));
        p.push(jump(BPF_JMP_JSET_K, NAMESPACE_FLAGS, 0, 1));
        p.push(stmt(BPF_RET_K, RET_ERRNO | libc::EPERM as u32));
        p.push(stmt(BPF_RET_K, RET_ALLOW));
        Filter { program: p }
    }

    /// Installs the filter on the calling thread (and what it execs). `no_new_privs` must
    /// be set. Async-signal-safe.
    ///
    /// # Safety
    /// Only between fork and exec: the filter applies to the rest of the process's life.
    pub unsafe fn install(&self) -> io::Result<()> {
        let prog = SockFprog {
            len: self.program.len() as u16,
            filter: self.program.as_ptr(),
        };
        const SECCOMP_SET_MODE_FILTER: libc::c_ulong = 1;
        if libc::syscall(
            libc::SYS_seccomp,
            SECCOMP_SET_MODE_FILTER,
            0 as libc::c_ulong,
            &prog as *const SockFprog,
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

impl Default for Filter {
    fn default() -> Filter {
        Filter::new()
    }
}

/// Whether this kernel takes seccomp filters.
pub fn available() -> bool {
    // SAFETY: PR_GET_SECCOMP only reads the calling thread's mode.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP) >= 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `probe` in a forked child under the filter; its exit code comes back.
    fn in_child(probe: fn() -> i32) -> i32 {
        let filter = Filter::new();
        // SAFETY: the child only makes system calls and exits.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0);
            if pid == 0 {
                libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                if filter.install().is_err() {
                    libc::_exit(100);
                }
                libc::_exit(probe());
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            assert!(libc::WIFEXITED(status), "status {status}");
            libc::WEXITSTATUS(status)
        }
    }

    fn errno() -> i32 {
        io::Error::last_os_error().raw_os_error().unwrap_or(0)
    }

    #[test]
    fn the_program_is_within_the_kernels_limits() {
        let f = Filter::new();
        assert!(f.program.len() < 4096);
        assert_eq!(f.program.last(), Some(&stmt(BPF_RET_K, RET_ALLOW)));
    }

    #[test]
    fn ptrace_unshare_and_mount_are_refused_and_ordinary_calls_work() {
        if !available() {
            eprintln!("note: no seccomp here; skipping");
            return;
        }
        let code = in_child(|| unsafe {
            if libc::getpid() <= 0 {
                return 1;
            }
            if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) != -1 || errno() != libc::EPERM {
                return 2;
            }
            if libc::unshare(libc::CLONE_NEWUSER) != -1 || errno() != libc::EPERM {
                return 3;
            }
            if libc::mount(
                c"none".as_ptr(),
                c"/".as_ptr(),
                std::ptr::null(),
                0,
                std::ptr::null(),
            ) != -1
                || errno() != libc::EPERM
            {
                return 4;
            }
            // A plain fork is a clone without namespace flags: allowed.
            let pid = libc::fork();
            if pid == 0 {
                libc::_exit(0);
            }
            if pid < 0 {
                return 5;
            }
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            0
        });
        assert_eq!(code, 0);
    }

    #[test]
    fn clone_with_a_new_user_namespace_is_refused_and_clone3_falls_back() {
        if !available() {
            return;
        }
        let code = in_child(|| unsafe {
            let r = libc::syscall(
                libc::SYS_clone,
                (libc::CLONE_NEWUSER | libc::SIGCHLD) as libc::c_ulong,
                0usize,
                0usize,
                0usize,
                0usize,
            );
            if r == 0 {
                libc::_exit(9);
            }
            if r != -1 || errno() != libc::EPERM {
                return 1;
            }
            let r = libc::syscall(libc::SYS_clone3, 0usize, 0usize);
            if r != -1 || errno() != libc::ENOSYS {
                return 2;
            }
            0
        });
        assert_eq!(code, 0);
    }
}
