//! `--watch`: the live viewer of `zebra play` and `zebra match`, on a thread of its own,
//! with the human seat's desk when a person plays.

use std::sync::Arc;

use super::args::WatchArgs;
use super::failure::Failure;
use super::runtime::runtime;
use crate::rules::Side;
use crate::web::seat::Desk;

/// `--watch` on: the live viewer, on a thread of its own.
pub(super) struct Watching {
    pub(super) hub: Arc<crate::web::Hub>,
    server: crate::web::server::Background,
    /// The human seat's desk, with `--white human` or `--black human`.
    pub(super) desk: Option<Arc<Desk>>,
}

/// The live viewer's address, bound when `--watch` (or `--listen`, or a human seat) asks
/// for it: first of all, so that a port in use is said before anything is written.
pub(super) fn bind_watch(
    args: &WatchArgs,
    human: bool,
) -> Result<Option<std::net::TcpListener>, Failure> {
    if !args.watch && args.listen.is_none() && !human {
        return Ok(None);
    }
    crate::web::server::bind(args.listen.as_deref())
        .map(Some)
        .map_err(|e| Failure::Usage(e.to_string()))
}

/// Starts the live viewer on `listener` and says where it is (stderr: stdout stays the
/// game's or the series' own).
pub(super) fn start_watch(
    listener: Option<std::net::TcpListener>,
    title: &str,
    announce: Option<u32>,
    seat: Option<Side>,
) -> Result<Option<Watching>, Failure> {
    let Some(listener) = listener else {
        return Ok(None);
    };
    let hub = crate::web::Hub::new(title);
    // The game of `zebra play` is held before its address is said.
    if let Some(n) = announce {
        crate::referee::Spectator::announce(&*hub, n);
    }
    let cannot = |e: std::io::Error| Failure::Run(format!("cannot start the viewer: {e}"));
    let desk = match seat {
        Some(side) => Some(Desk::new(side, hub.clone(), 1).map_err(cannot)?),
        None => None,
    };
    let mut router = crate::web::live::router(hub.clone());
    let mut tasks: Vec<crate::web::server::Task> = Vec::new();
    if let Some(desk) = &desk {
        router = router.merge(crate::web::seat::router(desk.clone()));
        tasks.push(Box::pin(desk.clone().run()));
    }
    let server = crate::web::server::Background::start(listener, router, tasks).map_err(cannot)?;
    eprintln!("watch at http://{}/", server.addr);
    Ok(Some(Watching { hub, server, desk }))
}

/// After the end, the viewer stays up (the finished games can be looked at) until Ctrl-C
/// or SIGTERM; the exit code stays the game's or the series'.
pub(super) fn linger(watching: Option<Watching>) {
    let Some(Watching { hub, server, .. }) = watching else {
        return;
    };
    hub.close();
    eprintln!(
        "the viewer stays up at http://{}/ until Ctrl-C",
        server.addr
    );
    if let Ok(rt) = runtime() {
        rt.block_on(async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut term) => {
                    tokio::select! {
                        _ = tokio::signal::ctrl_c() => {}
                        _ = term.recv() => {}
                    }
                }
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        });
    }
    server.stop();
}
