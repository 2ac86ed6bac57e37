//! Position diagrams: never a panic; a diagram that parses prints back to one that parses
//! to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zebra_engine::rules::Game;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(game) = Game::from_diagram(text) {
        let printed = game.to_diagram();
        let again = Game::from_diagram(&printed).expect("a printed diagram parses");
        assert_eq!(again.to_diagram(), printed);
    }
});
