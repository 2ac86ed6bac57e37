//! `out!`: a line on stdout, for every command's output.

/// Prints a line to stdout; a closed stdout (`zebra play | head`) is not an error worth a
/// panic: the output is simply no longer wanted.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}
