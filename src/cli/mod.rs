//! The command line: its flags as clap parses them (raw values only, in `args`).

mod args;

pub use args::*;
