//! What Football Chess sends bots besides the envelope: the state snapshot of a request
//! and the options of a penalty decision (`protocol/PROTOCOL.md`).

pub mod penalty;
pub mod state;
