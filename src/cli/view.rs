//! `zebra view FILE`: recorded games in the viewer, served here until Ctrl-C, written as
//! one page (`--html`), and/or printed as the field was at every play's end (`--board`).

use std::path::Path;

use super::args::ViewArgs;
use super::failure::Failure;
use super::runtime::runtime;
use crate::web::GameView;

/// Reads and replays the file once, then shows its games as asked.
pub(super) fn run(args: ViewArgs) -> Result<(), Failure> {
    let path = args.file.as_path();
    let cannot =
        |e: &dyn std::fmt::Display| Failure::Run(format!("cannot read {}: {e}", path.display()));
    if std::fs::metadata(path).map_err(|e| cannot(&e))?.is_dir() {
        return Err(cannot(&"it is a directory"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| cannot(&e))?;
    let page_error = |e: crate::web::PageError| match e {
        crate::web::PageError::NoSuchGame { .. } => Failure::Usage(e.to_string()),
        e => Failure::Run(format!("{}: {e}", path.display())),
    };
    // The file is replayed once, whatever is asked of it.
    let chosen = crate::web::chosen_games(&text, args.game).map_err(page_error)?;
    if args.html.is_none() && !args.board {
        let games = chosen.into_iter().map(|(_, g)| g).collect();
        let listen = args.listen.as_deref().unwrap_or("127.0.0.1:0");
        return serve_view(path, games, listen).map_err(|e| match e {
            ServeFailure::Listen(msg) => Failure::Usage(msg),
            ServeFailure::Run(msg) => Failure::Run(msg),
        });
    }
    if let Some(out) = &args.html {
        let games: Vec<GameView> = chosen.iter().map(|(_, g)| g.clone()).collect();
        std::fs::write(out, crate::web::page_for(&games))
            .map_err(|e| Failure::Run(format!("cannot write {}: {e}", out.display())))?;
        out!("wrote {} (open it in a browser)", out.display());
    }
    if args.board {
        print_boards(&chosen);
    }
    Ok(())
}

/// `--board`: each game's header, then play by play (turn by turn): the play's header,
/// every entry's caption, the field as the play ended.
fn print_boards(chosen: &[(usize, GameView)]) {
    let style = crate::web::TermStyle::for_stdout();
    for (n, v) in chosen {
        out!(
            "game {n}: {} (White) vs {} (Black) {} ({})",
            v.white,
            v.black,
            v.result,
            v.termination
        );
        for step in &v.steps {
            super::play::print_step(step, style);
        }
        if let Some(e) = &v.error {
            out!("this record stops replaying here: {e}");
        }
    }
}

/// Why the viewer could not be served: its address (bad usage) or the server.
enum ServeFailure {
    Listen(String),
    Run(String),
}

/// The viewer served on `listen` until Ctrl-C.
fn serve_view(path: &Path, games: Vec<GameView>, listen: &str) -> Result<(), ServeFailure> {
    let listener =
        crate::web::server::bind(Some(listen)).map_err(|e| ServeFailure::Listen(e.to_string()))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeFailure::Run(format!("cannot listen on {listen}: {e}")))?;
    let count = games.len();
    let library = std::sync::Arc::new(crate::web::Library::new(games, &path.display().to_string()));
    let rt = runtime().map_err(|_| ServeFailure::Run("cannot start the runtime".to_string()))?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| ServeFailure::Run(format!("cannot listen on {local}: {e}")))?;
        out!(
            "serving {count} game{} of {} at http://{local}/ (Ctrl-C stops)",
            if count == 1 { "" } else { "s" },
            path.display()
        );
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        crate::web::serve(listener, crate::web::router(library), stop)
            .await
            .map_err(|e| ServeFailure::Run(format!("the server stopped: {e}")))
    })
}
