//! What people look at, shared by every front end that shows games: the view stream (a
//! game replayed into the frames a viewer draws), the viewer page, embedded in the binary
//! so that it works offline with no build step, and the same frames as text for a terminal.
//!
//! `zebra view FILE --html OUT.html` writes the page with a record's games inlined; the
//! server (`server`) feeds the same page the same stream for `zebra view`, and for live
//! games (`live`: `zebra play --watch`, `zebra match --watch`, and `zebra serve` next) as
//! they are played; `seat` lets a person play one side in the page.

mod entries;
pub mod feed;
pub mod live;
pub mod page;
pub mod seat;
pub mod server;

pub use feed::{view_game, view_games, AnyFrame, BallView, Frame, GameView, Step, VIEW_VERSION};
pub use live::Hub;
pub use page::{chosen_games, export_html, page_for, page_live, page_with, PageError};
pub use server::{router, serve, Library};
pub use zebra_engine::view::terminal::TermStyle;
