//! The async runtime a command runs its work on, and work that Ctrl-C or SIGTERM stops.

use super::failure::Failure;

/// One thread is enough for a game (the bots run in their own processes), and keeps every
/// wake-up on that thread: cross-thread wake-ups were most of the referee's CPU time.
pub(super) fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Run(format!("cannot start the runtime: {e}")))
}

/// Runs `work` until it ends or the user interrupts (Ctrl-C, SIGTERM). Interrupted, the
/// work is dropped, and with it every bot process group it started (bots live in their own
/// process groups, so the terminal's Ctrl-C does not reach them).
pub(super) fn interruptible<T>(
    runtime: &tokio::runtime::Runtime,
    work: impl std::future::Future<Output = T>,
) -> Result<T, Failure> {
    runtime.block_on(async {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(|e| Failure::Run(format!("cannot watch for SIGTERM: {e}")))?;
        tokio::select! {
            done = work => Ok(done),
            _ = tokio::signal::ctrl_c() => Err(Failure::Interrupted),
            _ = term.recv() => Err(Failure::Interrupted),
        }
    })
}
