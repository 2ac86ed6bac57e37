//! A bot's line through the message parser: never a panic, and whatever parses holds no
//! control character in any string (the text cleaning at the edge).
#![no_main]

use libfuzzer_sys::fuzz_target;
use zebra_engine::protocol::{parse_from_bot, FromBot};

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = parse_from_bot(line) {
        let texts: Vec<&String> = match &msg {
            FromBot::Ready {
                name,
                author,
                bot_version,
                capabilities,
                options,
                ..
            } => {
                let mut v = vec![name, author, bot_version];
                v.extend(capabilities);
                for o in options {
                    v.push(&o.name);
                    v.extend(&o.choices);
                }
                v
            }
            FromBot::Action { action, .. } => vec![action],
            FromBot::Log { message } => vec![message],
            FromBot::Pong { .. } => vec![],
        };
        for t in texts {
            assert!(!t.chars().any(char::is_control), "{t:?}");
        }
    }
});
