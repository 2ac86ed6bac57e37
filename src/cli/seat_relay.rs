//! `zebra seat-relay` (hidden): the human seat's relay, started by the referee as that
//! side's bot; it relays the protocol to the viewer's desk (see `web::seat`).

use super::args::SeatRelayArgs;
use super::failure::Failure;

/// Relays until the game ends.
pub(super) fn run(args: SeatRelayArgs) -> Result<(), Failure> {
    crate::web::seat::relay(&args.addr, &args.token)
        .map_err(|e| Failure::Run(format!("the human seat's relay: {e}")))
}
