//! Action notation: whatever parses prints back to text that parses to the same action.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zebra_engine::rules::Action;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(action) = text.parse::<Action>() {
        let printed = action.to_string();
        let again: Action = printed.parse().expect("printed notation parses");
        assert_eq!(again, action, "{text:?} -> {printed:?}");
    }
});
