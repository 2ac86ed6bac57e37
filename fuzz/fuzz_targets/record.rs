//! Records as `zebra verify` reads them: never a panic, whatever the text; every game that
//! reads is verified (replayed through the engine), which must not panic either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zebra_engine::record::{read_games, verify};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(games) = read_games(text) {
        for g in &games {
            let _ = verify(g);
        }
    }
});
