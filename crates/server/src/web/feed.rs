//! The view stream as the web layer serves it: the game-independent part is the engine's
//! (`zebra_engine::view`), each game's frame lives in its folder (`view.rs`); this module
//! names them where the viewer's server, the live hub and the seat look for them.

pub use zebra_engine::games::football_chess::view::{arrow_of, BallView, Frame};
pub use zebra_engine::view::{
    offer, view_game, view_games, view_head, view_so_far, AnyFrame, Arrow, GameView, Replay, Step,
    Verdict, Viewed, VIEW_VERSION,
};
