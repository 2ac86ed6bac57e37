//! Verdicts: why a bot's game ended early, as a closed set.
//!
//! The referee decides that a bot forfeits; the verdict says what the bot did, so that a
//! record, an event and a summary can tell a crash from a memory limit from a flood. Each
//! has one code (records, events, JSON) and one human phrase (reasons, terminals).

use std::fmt;

/// How a bot's process ended, as the kernel reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exit code {c}"),
            Exit::Signal(s) => write!(f, "signal {s}{}", signal_name(*s)),
        }
    }
}

/// ` (SIGKILL)` and the like for the common signals, or nothing.
fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGPIPE => " (SIGPIPE)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGTERM => " (SIGTERM)",
        libc::SIGXCPU => " (SIGXCPU)",
        libc::SIGXFSZ => " (SIGXFSZ)",
        _ => "",
    }
}

/// What a bot did that ended its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// It could not be started at all.
    NotStarted,
    /// No `ready` within the handshake time.
    Timeout,
    /// Too many invalid or illegal replies.
    Illegal,
    /// More output between two requests than the protocol allows.
    OutputFlood,
    /// It closed its output but went on running.
    ClosedOutput,
    /// Its process ended on its own (or by a signal no limit explains).
    Crashed(Exit),
    /// It went over its memory limit and the kernel killed it.
    MemoryLimit,
    /// It went over its limit of processes and threads.
    ProcessLimit,
    /// It used up its CPU-time backstop.
    CpuLimit,
    /// It wrote a file over its size limit.
    FileSizeLimit,
}

impl Verdict {
    /// Every code, for schemas and docs.
    pub const CODES: [&'static str; 10] = [
        "not-started",
        "timeout",
        "illegal",
        "output-flood",
        "closed-output",
        "crashed",
        "memory-limit",
        "process-limit",
        "cpu-limit",
        "file-size-limit",
    ];

    /// The code used in records (`WhiteVerdict`), events and JSON summaries.
    pub const fn code(self) -> &'static str {
        match self {
            Verdict::NotStarted => "not-started",
            Verdict::Timeout => "timeout",
            Verdict::Illegal => "illegal",
            Verdict::OutputFlood => "output-flood",
            Verdict::ClosedOutput => "closed-output",
            Verdict::Crashed(_) => "crashed",
            Verdict::MemoryLimit => "memory-limit",
            Verdict::ProcessLimit => "process-limit",
            Verdict::CpuLimit => "cpu-limit",
            Verdict::FileSizeLimit => "file-size-limit",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::NotStarted => f.write_str("could not be started"),
            Verdict::Timeout => f.write_str("timed out"),
            Verdict::Illegal => f.write_str("sent too many invalid or illegal replies"),
            Verdict::OutputFlood => f.write_str("flooded its output"),
            Verdict::ClosedOutput => f.write_str("closed its output"),
            Verdict::Crashed(Exit::Code(0)) => f.write_str("exited in mid-game (exit code 0)"),
            Verdict::Crashed(exit) => write!(f, "crashed with {exit}"),
            Verdict::MemoryLimit => f.write_str("went over its memory limit"),
            Verdict::ProcessLimit => f.write_str("went over its process limit"),
            Verdict::CpuLimit => f.write_str("used up its CPU-time limit"),
            Verdict::FileSizeLimit => f.write_str("wrote a file over its size limit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_has_a_listed_code_and_a_phrase() {
        let all = [
            Verdict::NotStarted,
            Verdict::Timeout,
            Verdict::Illegal,
            Verdict::OutputFlood,
            Verdict::ClosedOutput,
            Verdict::Crashed(Exit::Code(3)),
            Verdict::MemoryLimit,
            Verdict::ProcessLimit,
            Verdict::CpuLimit,
            Verdict::FileSizeLimit,
        ];
        for v in all {
            assert!(Verdict::CODES.contains(&v.code()), "{v:?}");
        }
        assert_eq!(
            Verdict::Crashed(Exit::Signal(11)).to_string(),
            "crashed with signal 11 (SIGSEGV)"
        );
        assert_eq!(
            Verdict::Crashed(Exit::Code(3)).to_string(),
            "crashed with exit code 3"
        );
    }
}
