//! The command line: its flags as clap parses them ([`Cli`], raw values only), and one
//! module per command that checks its flags once, into a plan, then runs it. The `zebra`
//! binary parses, calls [`run`], and maps a [`Failure`] to its exit code.

#[macro_use]
mod out;

mod args;
mod bench;
mod check_bot;
mod common;
mod completions;
mod demo;
mod doctor;
mod failure;
mod man;
mod r#match;
mod merge;
mod perft;
mod play;
mod runtime;
mod seat_relay;
mod serve;
mod verify;
mod view;
mod watch;
mod worker;

pub use args::*;
pub use failure::Failure;

/// Runs one command.
pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Play(args) => play::run(args),
        Command::Match(args) => r#match::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Worker(args) => worker::run(args),
        Command::Doctor(args) => doctor::run(args),
        Command::CheckBot(args) => check_bot::run(args),
        Command::View(args) => view::run(args),
        Command::SeatRelay(args) => seat_relay::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    }
}
