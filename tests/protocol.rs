//! The protocol's JSON Schemas (protocol/schemas/) and examples (protocol/examples/) held
//! against the Rust message types and against the messages Zebra really sends.
//!
//! - every example parses into `ToBot`/`FromBot` and serializes back to the same JSON;
//! - every example, and every line of the example transcript, validates against its schema;
//! - every message built the way the referee builds it, over seeded random games with
//!   clocks, timeouts and illegal replies, validates (every decision kind, every event
//!   variant that occurs, every variant at least once from a hand-built sample);
//! - the schemas' enums are exactly the Rust types' values;
//! - the schemas reject obviously wrong messages and accept unknown fields;
//! - the series event stream (`zebra match`, schemas/series-event.json): every line of the
//!   example stream and of a fresh run of the binary validates, and a run's books add up;
//! - Boyer's Football (`boyer_*.json`): every game_start, request and event the referee
//!   builds over seeded random games validates against its own schemas and not against
//!   Football Chess's, parses back, and protocol/examples/boyer-request.json is the engine's.
//!
//! The schemas are checked by the small validator below, which implements only the subset
//! of JSON Schema 2020-12 they use and panics on any other keyword, so that a schema cannot
//! silently say more than is tested.
//!
//! `ZEBRA_BLESS=1 cargo test --test protocol` rewrites protocol/examples/request.json and
//! boyer-request.json from the engine.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

use zebra::games::football_chess::wire::{
    penalty, ClockMsg, ClocksMsg, RequestExtra, StateMsg, TimeControlMsg, ToBot,
};
use zebra::protocol::{self, FromBot, OptionDecl, OptionKind, ReplyStatus, ScoreMsg, Want};
use zebra::record::Termination;
use zebra::referee::{Budget, Clocks, QuarterMode, Refereed, TimeControl};
use zebra::rules::playout::RandomPlayer;
use zebra::rules::{
    Action, ActionList, Clock, DecisionKind, Event, Foul, FoulKind, Game, GameResult, PlayEnd,
    Role, Settings, Side, Square,
};
use zebra::seam::envelope;

// ---------------------------------------------------------------------------------------
// The protocol's JSON Schemas, validated with the jsonschema crate.
// ---------------------------------------------------------------------------------------

#[path = "common/schema.rs"]
mod schema;

use schema::Schemas;

// ---------------------------------------------------------------------------------------
// Files and helpers
// ---------------------------------------------------------------------------------------

const TO_BOT: &[&str] = &[
    "hello",
    "game_start",
    "request",
    "result",
    "event",
    "game_end",
    "ping",
    "quit",
];
const FROM_BOT: &[&str] = &["ready", "action", "pong", "log"];

fn protocol_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol")
}

fn schemas() -> Schemas {
    Schemas::load(&protocol_dir().join("schemas"))
}

fn example(name: &str) -> Value {
    let path = protocol_dir().join("examples").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}.json is not JSON: {e}"))
}

fn must_validate(schemas: &Schemas, name: &str, value: &Value) {
    if let Err(e) = schemas.validate(&format!("{name}.json"), value) {
        panic!("{name} does not validate:\n{e}\n{value}");
    }
}

fn must_reject(schemas: &Schemas, name: &str, value: &Value, why: &str) {
    assert!(
        schemas.validate(&format!("{name}.json"), value).is_err(),
        "{name} schema accepts a message with {why}: {value}"
    );
}

/// Validates a line Zebra sends: against the message's own schema and the union of all
/// referee messages, and back through the Rust type unchanged.
/// `request` with its `since`, `state` and `legal` replaced (version 2's shapes).
fn request_with(
    request: &ToBot,
    since: Option<Vec<String>>,
    state: Option<StateMsg>,
    legal: Option<Option<Vec<Action>>>,
) -> ToBot {
    let mut out = request.clone();
    if let ToBot::Request {
        since: s,
        state: st,
        legal: l,
        ..
    } = &mut out
    {
        (*s, *st, *l) = (since, state, legal);
    }
    out
}

fn check_to_bot(schemas: &Schemas, msg: &ToBot) -> Value {
    let line = protocol::to_line(msg);
    assert!(!line.contains('\n'), "one line: {line}");
    let value: Value = serde_json::from_str(&line).unwrap();
    let kind = value["type"].as_str().unwrap().to_string();
    assert!(TO_BOT.contains(&kind.as_str()), "{kind}");
    must_validate(schemas, &kind, &value);
    must_validate(schemas, "to_bot", &value);
    let back: ToBot = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(&back, msg, "{line}");
    value
}

fn check_from_bot(schemas: &Schemas, msg: &FromBot) -> Value {
    let line = serde_json::to_string(msg).unwrap();
    let value: Value = serde_json::from_str(&line).unwrap();
    let kind = value["type"].as_str().unwrap().to_string();
    assert!(FROM_BOT.contains(&kind.as_str()), "{kind}");
    must_validate(schemas, &kind, &value);
    must_validate(schemas, "from_bot", &value);
    // Parsing cleans a bot's text (control characters escaped): a log line holding a
    // newline comes back with `\u000a` in its place.
    let expected = match msg {
        FromBot::Log { message } => FromBot::Log {
            message: zebra::bot::text::clean(message, zebra::bot::text::LONG),
        },
        other => other.clone(),
    };
    assert_eq!(protocol::parse_from_bot(&line).unwrap(), expected, "{line}");
    value
}

/// The enum of a definition in defs.json, as a set.
fn defs_enum(schemas: &Schemas, def: &str) -> BTreeSet<String> {
    let (_, s) = schemas.resolve("defs.json", &format!("#/$defs/{def}"));
    s["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{def} has an enum"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn set<I: IntoIterator<Item = S>, S: ToString>(items: I) -> BTreeSet<String> {
    items.into_iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------
// The schemas themselves
// ---------------------------------------------------------------------------------------

#[test]
fn every_message_has_a_schema_and_nothing_else_is_there() {
    let schemas = schemas();
    let mut expected: BTreeSet<String> = TO_BOT
        .iter()
        .chain(FROM_BOT)
        .map(|m| format!("{m}.json"))
        .collect();
    expected.extend(set([
        "defs.json",
        "to_bot.json",
        "from_bot.json",
        SERIES_EVENT_SCHEMA,
        // The viewer's view stream and live feed, validated by tests/web.rs.
        "view.json",
        "live.json",
    ]));
    // Boyer's Football's own messages and their union (see the boyer_ tests below).
    expected.extend(BOYER_SCHEMAS.iter().map(|s| s.to_string()));
    // Chess Eleven's (see the chess_eleven_ tests below).
    expected.extend(ELEVEN_SCHEMAS.iter().map(|s| s.to_string()));
    assert_eq!(set(schemas.names()), expected);
    for m in TO_BOT.iter().chain(FROM_BOT) {
        let s = schemas.get(&format!("{m}.json"));
        assert_eq!(s["properties"]["type"]["const"], json!(m), "{m}.json: type");
        assert_eq!(s["type"], json!("object"), "{m}.json");
        let required = s["required"].as_array().unwrap();
        assert!(required.contains(&json!("type")), "{m}.json requires type");
        // Durations are integer milliseconds named *_ms.
        for (name, _) in s["properties"].as_object().unwrap() {
            if name.ends_with("_ms") {
                let (_, ms) = schemas.resolve("defs.json", "#/$defs/ms");
                let p = &s["properties"][name];
                // A duration that may be unknown is a non-negative integer or null.
                let nullable = json!({"type": ["integer", "null"], "minimum": 0});
                assert!(
                    (p == &json!({"$ref": "defs.json#/$defs/ms"}) && ms["minimum"] == json!(0))
                        || p == &nullable,
                    "{m}.json: {name} is a duration"
                );
            }
        }
    }
    let union = |name: &str| -> BTreeSet<String> {
        schemas.get(name)["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                b["$ref"]
                    .as_str()
                    .unwrap()
                    .trim_end_matches(".json")
                    .to_string()
            })
            .collect()
    };
    assert_eq!(union("to_bot.json"), set(TO_BOT.iter()));
    assert_eq!(union("from_bot.json"), set(FROM_BOT.iter()));
}

#[test]
fn the_validator_checks_what_it_claims() {
    let schemas = schemas();
    let (_, sq) = schemas.resolve("defs.json", "#/$defs/square");
    assert_eq!(sq["pattern"], json!("^[a-h][1-8]$"));
    // A square through a reference into defs.json: the whole pattern must match.
    let spot = |sq: &str| {
        schemas.validate(
            "request.json",
            &with(&example("request"), "/state/spot", json!(sq)),
        )
    };
    for good in ["e4", "h8", "a1"] {
        assert!(spot(good).is_ok(), "{good}");
    }
    for bad in ["z9", "e9", "i1", "e", "e44", "E4", " e4", ""] {
        assert!(spot(bad).is_err(), "{bad}");
    }
    // Integers: 3.0 is an integer in JSON Schema, 3.5 is not; minimum applies.
    let ping = |id: Value| json!({"type": "ping", "id": id});
    assert!(schemas.validate("ping.json", &ping(json!(3))).is_ok());
    assert!(schemas.validate("ping.json", &ping(json!(3.0))).is_ok());
    assert!(schemas.validate("ping.json", &ping(json!(3.5))).is_err());
    assert!(schemas.validate("ping.json", &ping(json!(-1))).is_err());
    assert!(schemas.validate("ping.json", &ping(json!("3"))).is_err());
    // oneOf: exactly one branch. A ball carried is the first branch, one in flight the
    // second; in flight without its pass fields is neither.
    let ball =
        |b: Value| schemas.validate("request.json", &with(&example("request"), "/state/ball", b));
    assert!(ball(json!({"state": "carried", "square": "e4"})).is_ok());
    assert!(ball(
        json!({"state": "in_flight", "square": "h8", "thrown_from": "e4",
        "thrown_by": "white", "forward": true, "direct": false})
    )
    .is_ok());
    assert!(ball(json!({"state": "in_flight", "square": "h8"})).is_err());
    assert!(ball(json!({"state": "rolling", "square": "h8"})).is_err());
}

#[test]
fn schema_enums_are_exactly_the_rust_values() {
    let schemas = schemas();
    assert_eq!(
        defs_enum(&schemas, "side"),
        set(Side::ALL.map(|s| s.name()))
    );
    assert_eq!(
        defs_enum(&schemas, "role"),
        set(Role::ALL.map(|r| r.name()))
    );
    assert_eq!(
        defs_enum(&schemas, "decision"),
        set(DecisionKind::ALL.map(|d| d.code()))
    );
    assert_eq!(
        defs_enum(&schemas, "foul_kind"),
        set(FoulKind::ALL.map(|k| k.code()))
    );
    assert_eq!(
        defs_enum(&schemas, "play_end"),
        set(ALL_PLAY_ENDS.map(|e| e.code()))
    );
    // Serde names agree with the codes.
    for k in FoulKind::ALL {
        assert_eq!(serde_json::to_value(k).unwrap(), json!(k.code()));
    }
    for e in ALL_PLAY_ENDS {
        assert_eq!(serde_json::to_value(e).unwrap(), json!(e.code()));
    }
    for r in Role::ALL {
        assert_eq!(serde_json::to_value(r).unwrap(), json!(r.name()));
    }
    for d in DecisionKind::ALL {
        assert_eq!(serde_json::to_value(d).unwrap(), json!(d.code()));
    }
    // Phases: every phase a request can be sent in.
    assert_eq!(
        defs_enum(&schemas, "phase"),
        set([
            "formation",
            "motion",
            "reaction",
            "action",
            "contention",
            "penalty"
        ])
    );
    let statuses = [
        ReplyStatus::Ok,
        ReplyStatus::Illegal,
        ReplyStatus::Timeout,
        ReplyStatus::Late,
        ReplyStatus::Duplicate,
    ];
    let result = schemas.get("result.json");
    assert_eq!(
        set(result["properties"]["status"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())),
        set(statuses.map(|s| serde_json::to_value(s)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()))
    );
    let game_end = schemas.get("game_end.json");
    assert_eq!(
        set(game_end["properties"]["termination"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())),
        set(Termination::ALL.map(|t| t.code()))
    );
    assert_eq!(
        set(game_end["properties"]["result"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())),
        set([
            GameResult::Win(Side::White).pgn(),
            GameResult::Win(Side::Black).pgn(),
            GameResult::Draw.pgn(),
            "*",
        ])
    );
    let option_kinds = [
        OptionKind::Int,
        OptionKind::Bool,
        OptionKind::String,
        OptionKind::Choice,
    ];
    let (_, decl) = schemas.resolve("defs.json", "#/$defs/option_decl");
    assert_eq!(
        set(decl["properties"]["type"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())),
        set(option_kinds.map(|k| serde_json::to_value(k)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()))
    );
    // Events: one branch per variant, named as serde names them.
    let (_, event) = schemas.resolve("defs.json", "#/$defs/event");
    let branches: BTreeSet<String> = event["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let (_, s) = schemas.resolve("defs.json", b["$ref"].as_str().unwrap());
            s["properties"]["event"]["const"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let samples = every_event();
    assert_eq!(branches, set(samples.iter().map(event_name)));
    for e in &samples {
        assert_eq!(
            serde_json::to_value(e).unwrap()["event"],
            json!(event_name(e))
        );
    }
}

// ---------------------------------------------------------------------------------------
// Examples
// ---------------------------------------------------------------------------------------

#[test]
fn examples_round_trip_through_the_rust_types() {
    for name in TO_BOT {
        let value = example(name);
        assert_eq!(value["type"], json!(name), "{name}.json");
        let msg: ToBot = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{name}.json does not parse as ToBot: {e}"));
        let back = serde_json::to_value(&msg).unwrap();
        assert_eq!(back, value, "{name}.json changes through ToBot");
        let line = protocol::to_line(&msg);
        assert_eq!(
            serde_json::from_str::<Value>(&line).unwrap(),
            value,
            "{name}.json"
        );
    }
    for name in FROM_BOT {
        let value = example(name);
        assert_eq!(value["type"], json!(name), "{name}.json");
        let line = serde_json::to_string(&value).unwrap();
        let msg = protocol::parse_from_bot(&line)
            .unwrap_or_else(|e| panic!("{name}.json does not parse as FromBot: {e}"));
        let back = serde_json::to_value(&msg).unwrap();
        assert_eq!(back, value, "{name}.json changes through FromBot");
    }
}

#[test]
fn examples_validate_against_their_schemas() {
    let schemas = schemas();
    for name in TO_BOT {
        must_validate(&schemas, name, &example(name));
        must_validate(&schemas, "to_bot", &example(name));
        assert!(
            schemas.validate("from_bot.json", &example(name)).is_err(),
            "{name}"
        );
    }
    for name in FROM_BOT {
        must_validate(&schemas, name, &example(name));
        must_validate(&schemas, "from_bot", &example(name));
        assert!(
            schemas.validate("to_bot.json", &example(name)).is_err(),
            "{name}"
        );
    }
}

/// The `game_start` the referee really sends (a game of the bundled bots, read from its
/// transcript) names the engine's rulings edition and validates.
#[test]
fn the_referee_tells_each_bot_the_rulings_edition_in_game_start() {
    let schemas = schemas();
    assert_eq!(
        example("game_start")["rulings"],
        json!(zebra::rules::RULINGS_EDITION)
    );
    let dir = std::env::temp_dir().join(format!("zebra-protocol-rulings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zebra"))
        .args([
            "play",
            "--seed",
            "3",
            "--tc",
            "plays=1,play=5s,reaction=5s",
            "--quiet",
        ])
        .arg("--log-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut starts = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "log") {
            let log = std::fs::read_to_string(&path).unwrap();
            for line in log.lines() {
                if let Some((_, sent)) = line.split_once(" < ") {
                    let msg: Value = serde_json::from_str(sent).unwrap();
                    if msg["type"] == "game_start" {
                        starts.push(msg);
                    }
                }
            }
        }
    }
    assert_eq!(starts.len(), 2, "one game_start per bot");
    for msg in &starts {
        must_validate(&schemas, "game_start", msg);
        must_validate(&schemas, "to_bot", msg);
        assert_eq!(msg["rulings"], json!("3"), "{msg}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The transcript: `{"at_ms", "side", "from": "zebra"|"bot", "message"}` per line.
#[test]
fn the_example_transcript_is_a_valid_conversation() {
    let schemas = schemas();
    let path = protocol_dir().join("examples/transcript.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut kinds = Vec::new();
    let mut last_at = 0;
    let mut pending: BTreeMap<Side, u64> = BTreeMap::new();
    let mut decisions = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        let entry: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let at = entry["at_ms"].as_u64().expect("at_ms");
        assert!(at >= last_at, "line {}: time goes forward", n + 1);
        last_at = at;
        let side: Side = serde_json::from_value(entry["side"].clone()).expect("side");
        let msg = &entry["message"];
        let kind = msg["type"].as_str().unwrap();
        let text = serde_json::to_string(msg).unwrap();
        match entry["from"].as_str() {
            Some("zebra") => {
                let parsed: ToBot = serde_json::from_str(&text).unwrap();
                assert_eq!(
                    &serde_json::to_value(&parsed).unwrap(),
                    msg,
                    "line {}",
                    n + 1
                );
                must_validate(&schemas, kind, msg);
                if let ToBot::Request {
                    id,
                    decision,
                    side: s,
                    ..
                } = parsed
                {
                    assert_eq!(
                        s,
                        side,
                        "line {}: a request goes to the deciding bot",
                        n + 1
                    );
                    assert!(pending.insert(side, id).is_none(), "one request at a time");
                    decisions.insert(decision.code());
                }
                if let ToBot::Result { id, .. } = parsed {
                    assert_eq!(pending.remove(&side), Some(id), "line {}", n + 1);
                }
            }
            Some("bot") => {
                let parsed = protocol::parse_from_bot(&text).unwrap();
                assert_eq!(
                    &serde_json::to_value(&parsed).unwrap(),
                    msg,
                    "line {}",
                    n + 1
                );
                must_validate(&schemas, kind, msg);
                if let FromBot::Action { id, .. } = parsed {
                    assert_eq!(
                        pending.get(&side),
                        Some(&id),
                        "line {}: echoes the id",
                        n + 1
                    );
                }
            }
            other => panic!("line {}: from {other:?}", n + 1),
        }
        kinds.push(kind.to_string());
    }
    assert_eq!(
        kinds[..6],
        [
            "hello",
            "hello",
            "ready",
            "ready",
            "game_start",
            "game_start"
        ]
    );
    assert_eq!(kinds[kinds.len() - 2..], ["quit", "quit"]);
    assert!(kinds.iter().any(|k| k == "game_end"));
    assert!(decisions.len() >= 3, "{decisions:?}");
}

/// The request example is exactly what Zebra sends for a real position: the formations of
/// the rules engine's doc example, a motion, no reaction, the snap, White's first turn.
fn request_example() -> ToBot {
    let mut game = Game::new(Settings::plays(10));
    for text in [
        "[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]",
        "[Pd6,Pe6,Qe7,Nc7,Bf7,Rd8,Rg6]",
        "g5>h5",
        "pass",
        "snap",
    ] {
        let action: Action = text.parse().unwrap();
        game.apply(&action)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let tc = TimeControl::parse("plays=10,play=5s,reaction=1s").unwrap();
    let mut clocks = Clocks::new(tc);
    clocks.play_left = Duration::from_millis(3_120);
    let budget = clocks.budget(&game);
    let decision = game.decision().unwrap();
    ToBot::Request {
        id: 12,
        decision: decision.kind,
        side: decision.side,
        since: None,
        state: Some(StateMsg::of(&game)),
        clocks: clocks_msg(&clocks, &game, &budget),
        deadline_ms: budget.limit.as_millis() as u64,
        legal: Some(Some(game.legal_action_list())),
        extra: RequestExtra {
            penalty_options: penalty::preview(&game),
        },
    }
}

#[test]
fn the_request_example_is_what_zebra_sends() {
    let msg = request_example();
    let value = serde_json::to_value(&msg).unwrap();
    let path = protocol_dir().join("examples/request.json");
    if std::env::var_os("ZEBRA_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&msg).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
    }
    assert_eq!(
        example("request"),
        value,
        "protocol/examples/request.json is stale: run ZEBRA_BLESS=1 cargo test --test protocol"
    );
    let ToBot::Request {
        decision, legal, ..
    } = &msg
    else {
        unreachable!()
    };
    assert_eq!(*decision, DecisionKind::Move);
    let legal = legal.as_ref().unwrap().as_ref().unwrap();
    // The action and result examples answer this request.
    let action = example("action");
    assert_eq!(action["id"], value["id"]);
    assert!(
        legal.iter().any(|a| json!(a) == action["action"]),
        "{action}"
    );
    let result = example("result");
    assert_eq!(
        (&result["id"], &result["applied"]),
        (&action["id"], &action["action"])
    );
}

/// The fields of a penalty option, each as `state` shows it after the choice.
const PREVIEW_FIELDS: [&str; 7] = [
    "offense",
    "spot",
    "down",
    "line_to_gain",
    "yards_to_go",
    "goal_to_go",
    "score",
];

/// The penalty request example is what Zebra sends at the first penalty decision of a
/// seeded random game: it carries `penalty_options`, one per legal choice, each equal to
/// the game after that choice.
#[test]
fn the_penalty_request_example_is_what_zebra_sends() {
    let mut player = RandomPlayer::new(3);
    let mut list = ActionList::new();
    let mut game = Game::new(Settings::plays(10));
    while game
        .decision()
        .is_some_and(|d| d.kind != DecisionKind::PenaltyChoice)
    {
        let action = player.choose(&game, &mut list).unwrap();
        game.apply(&action).unwrap();
    }
    assert!(!game.is_over(), "seed 3 reaches a penalty decision");
    let tc = TimeControl::parse("plays=10,play=5s,reaction=1s").unwrap();
    let clocks = Clocks::new(tc);
    let msg = zebra::games::football_chess::request(&game, 40, &clocks, &clocks.budget(&game));
    let value = serde_json::to_value(&msg).unwrap();
    let path = protocol_dir().join("examples/request-penalty.json");
    if std::env::var_os("ZEBRA_BLESS").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&msg).unwrap() + "\n").unwrap();
    }
    assert_eq!(
        example("request-penalty"),
        value,
        "protocol/examples/request-penalty.json is stale: run ZEBRA_BLESS=1 cargo test --test protocol"
    );
    must_validate(&schemas(), "request", &value);
    let options = value["penalty_options"].as_array().unwrap();
    assert_eq!(options.len(), value["legal"].as_array().unwrap().len());
    for option in options {
        let mut after = game.clone();
        after
            .apply(&option["action"].as_str().unwrap().parse().unwrap())
            .unwrap();
        let state = serde_json::to_value(StateMsg::of(&after)).unwrap();
        for f in PREVIEW_FIELDS {
            assert_eq!(option[f], state[f], "{f}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Every message Zebra emits
// ---------------------------------------------------------------------------------------

const ALL_PLAY_ENDS: [PlayEnd; 7] = [
    PlayEnd::Tackle,
    PlayEnd::Truck,
    PlayEnd::OutOfBounds,
    PlayEnd::Incomplete,
    PlayEnd::Touchdown,
    PlayEnd::Pile,
    PlayEnd::Whistle,
];

/// The protocol name of an event; exhaustive, so a new variant must be added here (and to
/// the schema, which `schema_enums_are_exactly_the_rust_values` then checks).
fn event_name(e: &Event) -> &'static str {
    match e {
        Event::FormationSet { .. } => "formation_set",
        Event::Shifted { .. } => "shifted",
        Event::Substituted { .. } => "substituted",
        Event::Snap { .. } => "snap",
        Event::SnapFumbled { .. } => "snap_fumbled",
        Event::Moved { .. } => "moved",
        Event::Pushed { .. } => "pushed",
        Event::Handoff { .. } => "handoff",
        Event::Tackle { .. } => "tackle",
        Event::Truck { .. } => "truck",
        Event::Thrown { .. } => "thrown",
        Event::Caught { .. } => "caught",
        Event::Intercepted { .. } => "intercepted",
        Event::Batted { .. } => "batted",
        Event::Incomplete => "incomplete",
        Event::Fumble { .. } => "fumble",
        Event::Contested { .. } => "contested",
        Event::Recovered { .. } => "recovered",
        Event::OutOfBounds { .. } => "out_of_bounds",
        Event::PossessionChanged { .. } => "possession_changed",
        Event::Touchdown { .. } => "touchdown",
        Event::Safety { .. } => "safety",
        Event::Flag(_) => "flag",
        Event::PenaltyEnforced(_) => "penalty_enforced",
        Event::PenaltyDeclined { .. } => "penalty_declined",
        Event::OffsettingPenalties => "offsetting_penalties",
        Event::ScoreAwarded { .. } => "score_awarded",
        Event::UntimedDown => "untimed_down",
        Event::TimeoutCharged { .. } => "timeout_charged",
        Event::PlayOver { .. } => "play_over",
        Event::FirstDown { .. } => "first_down",
        Event::TurnoverOnDowns { .. } => "turnover_on_downs",
        Event::NextPlay { .. } => "next_play",
        Event::ClockStopped => "clock_stopped",
        Event::Timeout { .. } => "timeout",
        Event::MissedTurn { .. } => "missed_turn",
        Event::Passed { .. } => "passed",
        Event::FormationLocked { .. } => "formation_locked",
        Event::PeriodEnd { .. } => "period_end",
        Event::GameOver { .. } => "game_over",
    }
}

/// One sample of every event variant (and of every foul, play end and result).
fn every_event() -> Vec<Event> {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let (w, b) = (Side::White, Side::Black);
    let foul = |kind| Foul {
        side: b,
        kind,
        spot: sq("d4"),
    };
    let mut events = vec![
        Event::FormationSet { side: w, pieces: 7 },
        Event::Shifted {
            side: w,
            from: sq("g5"),
            to: sq("h5"),
        },
        Event::Substituted { side: b },
        Event::Snap {
            from: sq("e5"),
            to: sq("e4"),
        },
        Event::SnapFumbled { at: sq("e4") },
        Event::Moved {
            side: w,
            role: Role::King,
            from: sq("e4"),
            to: sq("e5"),
        },
        Event::Pushed {
            from: sq("e5"),
            to: sq("e6"),
        },
        Event::Handoff {
            from: sq("e4"),
            to: sq("d3"),
        },
        Event::Tackle { at: sq("e5") },
        Event::Truck { at: sq("a1") },
        Event::Thrown {
            from: sq("e4"),
            to: sq("h8"),
            forward: true,
        },
        Event::Caught { at: sq("h8") },
        Event::Intercepted {
            side: b,
            at: sq("f6"),
        },
        Event::Batted { at: sq("g7") },
        Event::Incomplete,
        Event::Fumble { at: sq("c3") },
        Event::Contested {
            side: b,
            at: sq("c3"),
            pieces: 2,
        },
        Event::Recovered {
            side: w,
            at: sq("c3"),
        },
        Event::OutOfBounds { at: sq("h4") },
        Event::PossessionChanged { side: b },
        Event::Touchdown { side: w },
        Event::Safety { side: b },
        Event::PenaltyDeclined {
            kind: FoulKind::Holding,
        },
        Event::OffsettingPenalties,
        Event::ScoreAwarded { side: w },
        Event::UntimedDown,
        Event::TimeoutCharged { side: b, left: 2 },
        Event::FirstDown { side: w },
        Event::TurnoverOnDowns { side: w },
        Event::NextPlay {
            offense: b,
            down: 1,
            spot: sq("d4"),
            to_gain: 2,
        },
        Event::ClockStopped,
        Event::Timeout { side: w, left: 2 },
        Event::MissedTurn { side: b },
        Event::Passed { side: b },
        Event::FormationLocked { side: b },
        Event::PeriodEnd { quarter: 4 },
    ];
    for kind in FoulKind::ALL {
        events.push(Event::Flag(foul(kind)));
        events.push(Event::PenaltyEnforced(foul(kind)));
    }
    events.extend(ALL_PLAY_ENDS.map(|end| Event::PlayOver { end }));
    events.extend(
        [GameResult::Win(w), GameResult::Win(b), GameResult::Draw]
            .map(|result| Event::GameOver { result }),
    );
    events
}

/// The clocks of a request, as the referee builds them.
fn clocks_msg(clocks: &Clocks, game: &Game, budget: &Budget) -> ClocksMsg {
    let ms = |d: Duration| Some(d.as_millis() as u64);
    ClocksMsg {
        game: clocks.game_left.map(|g| ClockMsg {
            owner: "both".to_string(),
            remaining_ms: ms(g),
            running: budget.game_clock,
        }),
        play: ClockMsg {
            owner: game.offense().to_string(),
            remaining_ms: ms(clocks.play_left),
            running: budget.play_clock,
        },
        reaction: ClockMsg {
            owner: game.to_move().map(|s| s.to_string()).unwrap_or_default(),
            remaining_ms: ms(clocks.tc.reaction),
            running: budget.expires == Clock::Reaction,
        },
    }
}

/// What one simulated game produced.
#[derive(Default)]
struct Coverage {
    messages: BTreeMap<String, usize>,
    decisions: BTreeSet<&'static str>,
    events: BTreeSet<&'static str>,
    statuses: BTreeSet<String>,
}

impl Coverage {
    fn note(&mut self, value: &Value) {
        *self
            .messages
            .entry(value["type"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
}

/// Plays one seeded game the way the referee runs it, with random thinking times, a few
/// timeouts, illegal and late replies and pings, checking every message either side sends.
fn simulate(schemas: &Schemas, seed: u64, tc: &str, cov: &mut Coverage) {
    let tc = TimeControl::parse(tc).unwrap();
    let settings = match tc.quarter {
        QuarterMode::Timed(_) => Settings::timed(),
        QuarterMode::Plays(n) => Settings::plays(n),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut player = RandomPlayer::new(seed);
    player.faulty_formation_rate = 0.05;
    let mut list = ActionList::new();
    let mut game = Game::new(settings);
    let mut clocks = Clocks::new(tc);
    let ms = |d: Duration| d.as_millis() as u64;

    let hello = ToBot::Hello {
        protocol: protocol::PROTOCOL_NAME.to_string(),
        versions: protocol::VERSIONS.to_vec(),
        max_line_bytes: 65_536,
        handshake_ms: 10_000,
    };
    cov.note(&check_to_bot(schemas, &hello));
    for side in Side::ALL {
        let ready = FromBot::Ready {
            version: 1,
            name: format!("bot-{seed}"),
            author: "tests".to_string(),
            bot_version: String::new(),
            capabilities: vec![],
            wants: vec![Want::Legal, Want::Events],
            options: vec![
                OptionDecl {
                    name: "depth".to_string(),
                    kind: OptionKind::Int,
                    default: json!(3),
                    min: Some(1),
                    max: Some(9),
                    choices: vec![],
                },
                OptionDecl {
                    name: "style".to_string(),
                    kind: OptionKind::Choice,
                    default: json!("bold"),
                    min: None,
                    max: None,
                    choices: vec!["safe".to_string(), "bold".to_string()],
                },
                OptionDecl {
                    name: "book".to_string(),
                    kind: OptionKind::Bool,
                    default: json!(false),
                    min: None,
                    max: None,
                    choices: vec![],
                },
                OptionDecl {
                    name: "name".to_string(),
                    kind: OptionKind::String,
                    default: json!(""),
                    min: None,
                    max: None,
                    choices: vec![],
                },
            ],
        };
        cov.note(&check_from_bot(schemas, &ready));
        let mut options = Map::new();
        options.insert("depth".to_string(), json!(5));
        options.insert("style".to_string(), json!("safe"));
        let start = ToBot::GameStart {
            version: 1,
            rules: "football-chess".to_string(),
            rules_version: "0.1".to_string(),
            rulings: zebra::rules::RULINGS_EDITION.to_string(),
            side,
            opponent: "other".to_string(),
            seed,
            tc: tc.to_string(),
            time_control: TimeControlMsg {
                quarter_ms: match tc.quarter {
                    QuarterMode::Timed(q) => Some(ms(q)),
                    QuarterMode::Plays(_) => None,
                },
                plays_per_quarter: match tc.quarter {
                    QuarterMode::Plays(n) => Some(n),
                    QuarterMode::Timed(_) => None,
                },
                play_ms: ms(tc.play),
                reaction_ms: ms(tc.reaction),
                grace_ms: ms(tc.grace),
            },
            options,
            // Half the games say they start from a situation (the schema's both forms).
            situation: (seed % 2 == 0).then(|| {
                "quarter=4 left=10% score=14-17 offense=white spot=e3 down=3 distance=10 timeouts=1-2"
                    .to_string()
            }),
        };
        cov.note(&check_to_bot(schemas, &start));
    }

    let mut id = 0u64;
    while let Some(decision) = game.decision() {
        id += 1;
        assert!(id < 20_000, "seed {seed}: the game does not end");
        let budget = clocks.budget(&game);
        let legal = (decision.kind != DecisionKind::Formation).then(|| game.legal_action_list());
        let request = ToBot::Request {
            id,
            decision: decision.kind,
            side: decision.side,
            since: None,
            state: Some(StateMsg::of(&game)),
            clocks: clocks_msg(&clocks, &game, &budget),
            deadline_ms: ms(budget.limit),
            legal: Some(legal),
            extra: RequestExtra {
                penalty_options: penalty::preview(&game),
            },
        };
        cov.note(&check_to_bot(schemas, &request));
        // Version 2's shapes of the same request: the changes alone, or with the state.
        let since = Some(vec!["e4e5".to_string(), "!play-clock".to_string()]);
        check_to_bot(schemas, &request_with(&request, since.clone(), None, None));
        let whole = Some(StateMsg::of(&game));
        check_to_bot(schemas, &request_with(&request, since, whole, None));
        cov.decisions.insert(decision.kind.code());
        if rng.gen_bool(0.02) {
            let ping_id = rng.gen_range(0..1000);
            cov.note(&check_to_bot(schemas, &ToBot::Ping { id: ping_id }));
            cov.note(&check_from_bot(schemas, &FromBot::Pong { id: ping_id }));
        }
        if rng.gen_bool(0.01) {
            let log = FromBot::Log {
                message: format!("thinking about request {id} \u{2014} \"deep\"\n"),
            };
            cov.note(&check_from_bot(schemas, &log));
        }

        let roll: f64 = rng.gen();
        let (status, applied, reason, elapsed, mut events) = if roll < 0.03 {
            // No reply in time: the decision's own clock expires.
            let elapsed = budget.limit + tc.grace;
            let events = game
                .expire(budget.expires)
                .unwrap_or_else(|e| panic!("seed {seed}: {} expiry refused: {e}", budget.expires));
            (
                ReplyStatus::Timeout,
                format!("!{}", budget.expires.code()),
                None,
                elapsed,
                events.to_vec(),
            )
        } else if roll < 0.05 {
            // An illegal reply: what a timeout costs, the game clock counting as the play clock.
            let elapsed = Duration::from_millis(rng.gen_range(0..=ms(budget.limit)));
            let clock = match budget.expires {
                Clock::Game => Clock::Play,
                c => c,
            };
            cov.note(&check_from_bot(
                schemas,
                &FromBot::Action {
                    id,
                    action: "e9e10".to_string(),
                    want: vec![],
                },
            ));
            let events = game
                .expire(clock)
                .unwrap_or_else(|e| panic!("seed {seed}: {clock} expiry refused: {e}"));
            (
                ReplyStatus::Illegal,
                format!("!{}", clock.code()),
                Some(format!(
                    "{} sent 'e9e10', which is not an action: bad square",
                    decision.side
                )),
                elapsed,
                events.to_vec(),
            )
        } else {
            // Bots call timeouts more often than the random player does.
            let action = if game.can_call_timeout() && rng.gen_bool(0.05) {
                Action::Timeout
            } else {
                player
                    .choose(&game, &mut list)
                    .expect("a decision is pending")
            };
            let elapsed = Duration::from_millis(rng.gen_range(0..=ms(budget.limit).min(700)));
            cov.note(&check_from_bot(
                schemas,
                &FromBot::Action {
                    id,
                    action: action.to_string(),
                    want: vec![],
                },
            ));
            let events = game
                .apply(&action)
                .unwrap_or_else(|e| panic!("seed {seed}: {action} rejected: {e}"));
            (
                ReplyStatus::Ok,
                action.to_string(),
                None,
                elapsed,
                events.to_vec(),
            )
        };
        let result = ToBot::Result {
            id,
            status,
            elapsed_ms: ms(elapsed),
            cpu_ms: Some(ms(elapsed) / 2),
            applied: Some(applied),
            reason,
        };
        cov.note(&check_to_bot(schemas, &result));
        cov.statuses.insert(
            serde_json::to_value(status)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string(),
        );
        if status == ReplyStatus::Timeout && rng.gen_bool(0.5) {
            // The answer arrives after the next request went out: late, discarded.
            let late = ToBot::Result {
                id,
                status: ReplyStatus::Late,
                elapsed_ms: 0,
                cpu_ms: None,
                applied: None,
                reason: Some(format!("request {id} is no longer pending")),
            };
            cov.note(&check_to_bot(schemas, &late));
            cov.statuses.insert("late".to_string());
        }
        // The referee's own charging (R70's ticks, the game clock's end).
        let (more, _) = game
            .charge(&mut clocks, &budget, elapsed, &events)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        events.extend(more);
        for e in &events {
            match e {
                Event::PeriodEnd { .. } => clocks.new_quarter(game.offense()),
                Event::NextPlay { .. } => clocks.new_play(game.offense()),
                _ => {}
            }
            cov.events.insert(event_name(e));
        }
        cov.note(&check_to_bot(schemas, &ToBot::Event { events }));
    }

    let result = game.result().expect("over");
    let end = ToBot::GameEnd {
        result: result.pgn().to_string(),
        score: ScoreMsg {
            white: game.score(Side::White),
            black: game.score(Side::Black),
        },
        termination: Termination::Normal.code().to_string(),
        reason: "four quarters played".to_string(),
    };
    cov.note(&check_to_bot(schemas, &end));
    cov.note(&check_to_bot(schemas, &ToBot::Quit));
}

#[test]
fn every_message_zebra_emits_validates() {
    let schemas = schemas();
    let mut cov = Coverage::default();
    for seed in 0..24 {
        let tc = match seed % 3 {
            0 => "plays=6,play=5s,reaction=1s",
            1 => "quarter=4s,play=2s,reaction=500ms,grace=50ms",
            _ => "unlimited",
        };
        simulate(&schemas, seed, tc, &mut cov);
    }
    assert_eq!(
        cov.decisions,
        DecisionKind::ALL.map(|d| d.code()).into_iter().collect(),
        "every decision kind is requested"
    );
    assert_eq!(cov.statuses, set(["ok", "illegal", "timeout", "late"]));
    for m in TO_BOT.iter().chain(FROM_BOT) {
        assert!(cov.messages.contains_key(*m), "no {m} message was checked");
    }
    // Events random play does not reach are still checked below from samples; the rest
    // must occur, so that what the engine really emits is what is validated.
    let rare = set(NOT_IN_RANDOM_PLAY);
    let all = set(every_event().iter().map(event_name));
    let missing: BTreeSet<String> = all.difference(&set(cov.events.iter())).cloned().collect();
    assert!(
        missing.is_subset(&rare),
        "events that no longer occur in the seeded games: {:?}",
        missing.difference(&rare).collect::<Vec<_>>()
    );
    eprintln!(
        "checked {} messages; events not seen in play: {missing:?}",
        cov.messages.values().sum::<usize>()
    );
}

/// Event variants the seeded random games above do not produce.
// A bat needs a direct pass and a defender one move from its receiver; under rulings
// edition 2 the 24 seeded games happen not to reach one (30 do not either). A charged
// timeout (R71) needs a defensive dead-ball foul at first and goal on the 1-yard line; with
// edition 3's shorter timed games the 24 do not reach one. Their samples in `every_event`
// are still validated against the schema.
const NOT_IN_RANDOM_PLAY: &[&str] = &["batted", "timeout_charged"];

#[test]
fn every_event_variant_validates() {
    let schemas = schemas();
    let events = every_event();
    // One event at a time, and all in one message.
    for e in &events {
        let v = check_to_bot(&schemas, &ToBot::Event { events: vec![*e] });
        assert_eq!(v["events"][0]["event"], json!(event_name(e)));
    }
    check_to_bot(&schemas, &ToBot::Event { events });
    check_to_bot(&schemas, &ToBot::Event { events: vec![] });
}

#[test]
fn every_other_message_variant_validates() {
    let schemas = schemas();
    for termination in Termination::ALL {
        for result in ["1-0", "0-1", "1/2-1/2", "*"] {
            check_to_bot(
                &schemas,
                &ToBot::GameEnd {
                    result: result.to_string(),
                    score: ScoreMsg {
                        white: 0,
                        black: 21,
                    },
                    termination: termination.code().to_string(),
                    reason: "white exited or closed its output".to_string(),
                },
            );
        }
    }
    for status in [
        ReplyStatus::Ok,
        ReplyStatus::Illegal,
        ReplyStatus::Timeout,
        ReplyStatus::Late,
    ] {
        check_to_bot(
            &schemas,
            &ToBot::Result {
                id: u64::MAX,
                status,
                elapsed_ms: 0,
                cpu_ms: None,
                applied: None,
                reason: None,
            },
        );
    }
    check_from_bot(
        &schemas,
        &FromBot::Ready {
            version: 1,
            name: String::new(),
            author: String::new(),
            bot_version: String::new(),
            capabilities: vec!["future".to_string()],
            wants: vec![],
            options: vec![],
        },
    );
}

// ---------------------------------------------------------------------------------------
// What the schemas refuse, and what they let through
// ---------------------------------------------------------------------------------------

/// `value` with the JSON pointer `at` set to `new` (the parent must exist).
fn with(value: &Value, at: &str, new: Value) -> Value {
    let mut v = value.clone();
    let (parent, key) = at.rsplit_once('/').unwrap();
    match v.pointer_mut(parent).unwrap() {
        Value::Object(m) => {
            m.insert(key.to_string(), new);
        }
        Value::Array(a) => a[key.parse::<usize>().unwrap()] = new,
        other => panic!("{at}: {other}"),
    }
    v
}

/// `value` without the field at `at`.
fn without(value: &Value, at: &str) -> Value {
    let mut v = value.clone();
    let (parent, key) = at.rsplit_once('/').unwrap();
    v.pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap()
        .remove(key)
        .unwrap_or_else(|| panic!("no {at}"));
    v
}

#[test]
fn schemas_reject_wrong_messages() {
    let schemas = schemas();
    let request = example("request");
    let event = example("event");
    // (message, wrong value, what is wrong, whether the Rust types refuse it too)
    let cases: Vec<(&str, Value, &str, bool)> = vec![
        ("request", without(&request, "/id"), "no id", true),
        ("result", without(&example("result"), "/id"), "no id", true),
        ("action", without(&example("action"), "/id"), "no id", true),
        ("ping", without(&example("ping"), "/id"), "no id", true),
        ("pong", without(&example("pong"), "/id"), "no id", true),
        (
            "request",
            with(&request, "/id", json!("12")),
            "a string id",
            true,
        ),
        (
            "request",
            with(&request, "/id", json!(-12)),
            "a negative id",
            true,
        ),
        (
            "request",
            with(&request, "/state/spot", json!("z9")),
            "square z9",
            true,
        ),
        (
            "request",
            with(&request, "/state/pieces/0/square", json!("e0")),
            "square e0",
            true,
        ),
        (
            "request",
            with(&request, "/state/moved_in_motion/0", json!("E5")),
            "square E5",
            true,
        ),
        (
            "request",
            with(&request, "/decision", json!("dance")),
            "an unknown decision",
            true,
        ),
        (
            "request",
            with(&request, "/decision", json!("formation")),
            "a list for a formation",
            false,
        ),
        (
            "request",
            with(&request, "/legal", Value::Null),
            "no list for a move",
            false,
        ),
        (
            "request",
            with(&request, "/legal", json!([])),
            "an empty list for a move",
            false,
        ),
        (
            "request",
            with(&request, "/side", json!("red")),
            "side red",
            true,
        ),
        (
            "request",
            with(&request, "/deadline_ms", json!(-1)),
            "a negative deadline",
            true,
        ),
        (
            "request",
            with(&request, "/deadline_ms", json!(1000.5)),
            "a fractional deadline",
            true,
        ),
        (
            "request",
            without(&request, "/state"),
            "no state and no since",
            false,
        ),
        (
            "request",
            without(&request, "/state/diagram"),
            "no diagram",
            true,
        ),
        (
            "request",
            with(&request, "/state/phase", json!("halftime")),
            "an unknown phase",
            false,
        ),
        (
            "request",
            with(&request, "/state/down", json!(5)),
            "fifth down",
            false,
        ),
        (
            "request",
            with(&request, "/state/pieces/0/role", json!("bishop-pair")),
            "an unknown role",
            true,
        ),
        (
            "request",
            with(
                &request,
                "/state/ball",
                json!({"state": "in_flight", "square": "h8"}),
            ),
            "a pass without its thrower",
            false,
        ),
        (
            "request",
            with(
                &request,
                "/state/flags",
                json!([{"side": "black", "kind": "roughing", "spot": "e5"}]),
            ),
            "an unknown foul",
            true,
        ),
        (
            "request",
            with(&request, "/clocks/play/owner", json!("nobody")),
            "an unknown clock owner",
            false,
        ),
        (
            "request",
            with(&request, "/clocks/reaction/remaining_ms", json!(-5)),
            "negative time",
            true,
        ),
        (
            "request",
            without(&request, "/clocks/game"),
            "no game clock field",
            false,
        ),
        (
            "event",
            with(&event, "/events/0/event", json!("teleport")),
            "an unknown event",
            true,
        ),
        (
            "event",
            without(&event, "/events/0/role"),
            "a move without its role",
            true,
        ),
        (
            "event",
            with(&event, "/events/1/at", json!("z9")),
            "square z9 in an event",
            true,
        ),
        (
            "event",
            with(&event, "/events/3/end", json!("out_of_bounds")),
            "a snake-case play end",
            true,
        ),
        ("event", without(&event, "/events"), "no events", true),
        (
            "result",
            with(&example("result"), "/status", json!("maybe")),
            "an unknown status",
            true,
        ),
        (
            "result",
            without(&example("result"), "/reason"),
            "no reason field",
            false,
        ),
        (
            "game_end",
            with(&example("game_end"), "/result", json!("2-0")),
            "result 2-0",
            false,
        ),
        (
            "game_end",
            with(
                &example("game_end"),
                "/termination",
                json!("rules-infraction"),
            ),
            "an unknown termination",
            false,
        ),
        (
            "hello",
            with(&example("hello"), "/versions", json!([])),
            "no versions",
            false,
        ),
        (
            "hello",
            with(&example("hello"), "/protocol", json!("uci")),
            "another protocol",
            false,
        ),
        (
            "ready",
            without(&example("ready"), "/name"),
            "no name",
            true,
        ),
        (
            "ready",
            with(&example("ready"), "/options/0/type", json!("float")),
            "an unknown option type",
            true,
        ),
        (
            "game_start",
            with(&example("game_start"), "/time_control/play_ms", json!("5s")),
            "a duration as text",
            true,
        ),
        // Zebra always sends the rulings edition; the bot kit reads a game_start without
        // it (from a Zebra before the field), as bots may ignore it.
        (
            "game_start",
            without(&example("game_start"), "/rulings"),
            "no rulings edition",
            false,
        ),
        (
            "game_start",
            with(&example("game_start"), "/rulings", json!(2)),
            "a rulings edition that is no string",
            true,
        ),
        (
            "action",
            with(&example("action"), "/action", json!(["e4e5"])),
            "an action that is no string",
            true,
        ),
        (
            "log",
            with(&example("log"), "/message", Value::Null),
            "no message text",
            true,
        ),
        (
            "quit",
            with(&example("quit"), "/type", json!("exit")),
            "type exit",
            true,
        ),
    ];
    for (name, value, why, rust_refuses) in &cases {
        must_reject(&schemas, name, value, why);
        let union = if TO_BOT.contains(name) {
            "to_bot"
        } else {
            "from_bot"
        };
        must_reject(&schemas, union, value, why);
        let text = serde_json::to_string(value).unwrap();
        let rust_ok = if TO_BOT.contains(name) {
            serde_json::from_str::<ToBot>(&text).is_ok()
        } else {
            protocol::parse_from_bot(&text).is_ok()
        };
        assert_eq!(
            !rust_ok,
            *rust_refuses,
            "{name} with {why}: the Rust types {} it",
            if rust_ok { "accept" } else { "refuse" }
        );
    }
    // Not objects, or no type at all.
    for bad in [
        json!([]),
        json!("hello"),
        json!(null),
        json!({"protocol": "zebra"}),
    ] {
        assert!(schemas.validate("to_bot.json", &bad).is_err(), "{bad}");
        assert!(schemas.validate("from_bot.json", &bad).is_err(), "{bad}");
    }
}

/// Adds `"x_future"` to every object inside `value`, except the values of open maps and
/// enums: `game_start`'s option values (any name is an option) and option defaults.
fn with_unknown_fields(value: &Value, key: &str) -> Value {
    match value {
        Value::Object(m) => {
            let mut out: Map<String, Value> = m
                .iter()
                .map(|(k, v)| (k.clone(), with_unknown_fields(v, k)))
                .collect();
            if !["options", "default", "result"].contains(&key) {
                out.insert("x_future".to_string(), json!({"nested": [1, 2]}));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|v| with_unknown_fields(v, "")).collect()),
        other => other.clone(),
    }
}

/// Version 2's `wants` and `want`: the words known are taken, others ignored; a field of
/// another shape (a version-1 bot's own `want`) asks for nothing and spoils nothing.
#[test]
fn wants_are_read_leniently() {
    let action = |want: &str| {
        protocol::parse_from_bot(&format!(
            r#"{{"type":"action","id":4,"action":"snap","want":{want}}}"#
        ))
        .unwrap()
    };
    let FromBot::Action { want, .. } = action(r#"["state","someday","legal"]"#) else {
        panic!()
    };
    assert_eq!(want, [Want::State, Want::Unknown, Want::Legal]);
    assert_eq!(
        protocol::Wants::of(&want),
        protocol::Wants {
            state: true,
            legal: true,
            ..protocol::Wants::default()
        }
    );
    for odd in [r#""state""#, "3", "null", r#"{"state":true}"#, "[1,2]"] {
        let FromBot::Action { want, action, .. } = action(odd) else {
            panic!("{odd}")
        };
        assert_eq!(action, "snap", "{odd}");
        assert!(
            protocol::Wants::of(&want) == protocol::Wants::default(),
            "{odd}: {want:?}"
        );
    }
    let ready = protocol::parse_from_bot(
        r#"{"type":"ready","version":2,"name":"k","wants":["events","results","legal"]}"#,
    )
    .unwrap();
    let FromBot::Ready { wants, .. } = ready else {
        panic!()
    };
    let got = protocol::Wants::of(&wants);
    assert!(
        got.events && got.results && got.legal && !got.state,
        "{got:?}"
    );
}

#[test]
fn unknown_fields_are_accepted_everywhere() {
    let schemas = schemas();
    for name in TO_BOT {
        let value = with_unknown_fields(&example(name), "");
        must_validate(&schemas, name, &value);
        let msg: ToBot = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{name} with unknown fields: {e}"));
        assert_eq!(
            serde_json::to_value(&msg).unwrap(),
            example(name),
            "{name}: unknown fields are dropped, nothing else changes"
        );
    }
    for name in FROM_BOT {
        let value = with_unknown_fields(&example(name), "");
        must_validate(&schemas, name, &value);
        let msg = protocol::parse_from_bot(&value.to_string())
            .unwrap_or_else(|e| panic!("{name} with unknown fields: {e}"));
        assert_eq!(serde_json::to_value(&msg).unwrap(), example(name), "{name}");
    }
}

// ---------------------------------------------------------------------------------------
// The series event stream (`zebra match --events FILE`)
// ---------------------------------------------------------------------------------------

const SERIES_EVENT_SCHEMA: &str = "series-event.json";

/// The event type of each variant, as the stream names it. The match is exhaustive, so a
/// new variant does not compile until it is named here (and, by the test below, in the
/// schema).
fn series_event_type(e: &zebra::series::events::SeriesEvent) -> &'static str {
    use zebra::series::events::SeriesEvent as E;
    match e {
        E::SeriesStarted { .. } => "series_started",
        E::GameStarted { .. } => "game_started",
        E::GameFinished { .. } => "game_finished",
        E::GameVoided { .. } => "game_voided",
        E::StatsUpdated { .. } => "stats_updated",
        E::SprtDecision { .. } => "sprt_decision",
        E::SeriesFinished { .. } => "series_finished",
    }
}

/// Every event type; keep in step with [`series_event_type`].
const SERIES_EVENT_TYPES: [&str; 7] = [
    "series_started",
    "game_started",
    "game_finished",
    "game_voided",
    "stats_updated",
    "sprt_decision",
    "series_finished",
];

/// Every way a series ends; the match is exhaustive for the same reason.
fn every_series_end() -> Vec<zebra::series::SeriesEnd> {
    use zebra::series::SeriesEnd as S;
    let all = vec![
        S::Completed,
        S::H1Accepted,
        S::H0Accepted,
        S::Inconclusive,
        S::Interrupted,
    ];
    for e in &all {
        match e {
            S::Completed | S::H1Accepted | S::H0Accepted | S::Inconclusive | S::Interrupted => {}
        }
    }
    all
}

/// Parses an event stream and validates every line; `what` names it in messages.
fn series_events(schemas: &Schemas, text: &str, what: &str) -> Vec<Value> {
    assert!(
        text.ends_with('\n'),
        "{what}: every line ends with a newline"
    );
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{what}, line {}: not JSON: {e}\n{line}", i + 1));
            if let Err(e) = schemas.validate(SERIES_EVENT_SCHEMA, &value) {
                panic!("{what}, line {} does not validate:\n{e}\n{line}", i + 1);
            }
            value
        })
        .collect()
}

/// The stream of one run of a fresh series (no games on disk before it) adds up: it
/// starts with series_started and ends with series_finished; every game that starts
/// finishes, once, followed by the standings counting it, or is voided and starts again
/// with the next attempt; the number of game_finished events is the number series_finished
/// reports, and its replay books count the game_voided events; an SPRT decision comes at
/// most once and agrees with the outcome. Returns how many events of each type there are.
fn check_series_books(events: &[Value], what: &str) -> BTreeMap<String, usize> {
    let kind = |e: &Value| e["type"].as_str().unwrap().to_string();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in events {
        *counts.entry(kind(e)).or_default() += 1;
    }
    let (first, last) = (events.first().unwrap(), events.last().unwrap());
    assert_eq!(kind(first), "series_started", "{what}: the first event");
    assert_eq!(kind(last), "series_finished", "{what}: the last event");
    assert_eq!(counts["series_started"], 1, "{what}");
    assert_eq!(counts["series_finished"], 1, "{what}");
    assert_eq!(first["games_done"], json!(0), "{what}: a fresh series");
    let planned = first["games_planned"].as_u64().unwrap();

    let mut started = BTreeSet::new();
    let mut finished = BTreeSet::new();
    // The attempt each game is at.
    let mut attempts: BTreeMap<u64, u64> = BTreeMap::new();
    let mut elapsed = 0;
    let mut decision: Option<&Value> = None;
    for (i, e) in events.iter().enumerate() {
        let at = e["elapsed_ms"].as_u64().unwrap();
        assert!(at >= elapsed, "{what}: elapsed_ms goes back at event {i}");
        elapsed = at;
        match kind(e).as_str() {
            "game_started" => {
                let game = e["game"].as_u64().unwrap();
                assert!(game <= planned, "{what}: game {game} of {planned}");
                assert!(started.insert(game), "{what}: game {game} starts twice");
                let attempt = attempts.entry(game).or_insert(0);
                *attempt += 1;
                assert_eq!(e["attempt"], json!(*attempt), "{what}: game {game}");
            }
            "game_voided" => {
                let game = e["game"].as_u64().unwrap();
                assert!(
                    started.remove(&game),
                    "{what}: game {game} is voided before it starts"
                );
                assert!(!finished.contains(&game), "{what}: game {game} counted");
                assert_eq!(e["attempt"], json!(attempts[&game]), "{what}");
                assert!(
                    e["attempt"].as_u64() < e["max_attempts"].as_u64(),
                    "{what}: the last attempt counts"
                );
            }
            "game_finished" => {
                let game = e["game"].as_u64().unwrap();
                assert!(
                    started.contains(&game),
                    "{what}: game {game} finishes before it starts"
                );
                assert!(finished.insert(game), "{what}: game {game} finishes twice");
                for side in ["white", "black"] {
                    assert!(
                        first["bots"].as_array().unwrap().contains(&e[side]),
                        "{what}: game {game}: {side} is no bot of the series"
                    );
                }
                let stats = &events[i + 1];
                assert_eq!(
                    kind(stats),
                    "stats_updated",
                    "{what}: game {game}'s standings follow it"
                );
                assert_eq!(
                    stats["games_finished"],
                    json!(finished.len()),
                    "{what}: the standings after game {game}"
                );
            }
            "sprt_decision" => {
                assert!(decision.is_none(), "{what}: a second SPRT decision");
                assert_ne!(e["sprt"]["decision"], json!("continue"), "{what}");
                decision = Some(e);
            }
            _ => {}
        }
    }
    assert_eq!(started, finished, "{what}: every game started finishes");
    assert_eq!(
        last["replays"]["voided"],
        json!(counts.get("game_voided").copied().unwrap_or(0)),
        "{what}: series_finished counts the voided attempts"
    );
    assert_eq!(
        last["conduct"].as_array().map(Vec::len),
        first["bots"].as_array().map(Vec::len),
        "{what}: one conduct line per bot"
    );
    assert_eq!(
        last["games_finished"],
        json!(counts.get("game_finished").copied().unwrap_or(0)),
        "{what}: series_finished reports the games finished"
    );
    let outcome = last["outcome"].as_str().unwrap();
    match decision {
        Some(d) => {
            let expected = match d["sprt"]["decision"].as_str().unwrap() {
                "accept_h1" => "h1-accepted",
                _ => "h0-accepted",
            };
            assert_eq!(outcome, expected, "{what}: the outcome follows the SPRT");
            assert!(
                d["games_finished"].as_u64() <= last["games_finished"].as_u64(),
                "{what}"
            );
        }
        None => assert!(
            !outcome.ends_with("-accepted"),
            "{what}: {outcome} without an SPRT decision"
        ),
    }
    counts
}

#[test]
fn series_event_enums_are_exactly_the_rust_values() {
    use zebra::series::schedule::Format;
    use zebra::series::stats::SprtDecision;
    let schemas = schemas();
    let doc = schemas.get(SERIES_EVENT_SCHEMA);
    let def = |name: &str| &doc["$defs"][name];
    let strings = |v: &Value| -> BTreeSet<String> {
        v.as_array()
            .unwrap_or_else(|| panic!("an enum: {v}"))
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    // One branch per type, in $defs under the type's name.
    let branches: BTreeSet<String> = doc["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let (_, s) = schemas.resolve(SERIES_EVENT_SCHEMA, b["$ref"].as_str().unwrap());
            let name = s["properties"]["type"]["const"].as_str().unwrap();
            assert_eq!(b["$ref"], json!(format!("#/$defs/{name}")));
            name.to_string()
        })
        .collect();
    assert_eq!(branches, set(SERIES_EVENT_TYPES));
    let sample = zebra::series::events::SeriesEvent::SeriesFinished {
        outcome: "completed".to_string(),
        games_finished: 0,
        conduct: Vec::new(),
        replays: zebra::series::overload::Replays::new(None),
    };
    assert!(SERIES_EVENT_TYPES.contains(&series_event_type(&sample)));
    assert_eq!(
        serde_json::to_value(&sample).unwrap()["type"],
        json!(series_event_type(&sample))
    );
    assert_eq!(
        doc["properties"]["version"]["const"],
        json!(zebra::series::events::EVENTS_VERSION)
    );
    // zebra match's ends, and the daemon's (which adds cancelled and incomplete).
    assert_eq!(
        strings(&def("series_finished")["properties"]["outcome"]["enum"]),
        set(every_series_end()
            .into_iter()
            .map(|e| e.code())
            .chain(zebra::server::series::Ending::all().map(|e| e.code())))
    );
    for e in every_series_end() {
        assert_eq!(serde_json::to_value(e).unwrap(), json!(e.code()));
    }
    let decisions = [
        SprtDecision::AcceptH0,
        SprtDecision::AcceptH1,
        SprtDecision::Continue,
    ];
    for d in decisions {
        match d {
            SprtDecision::AcceptH0 | SprtDecision::AcceptH1 | SprtDecision::Continue => {}
        }
    }
    assert_eq!(
        strings(&def("sprt_report")["properties"]["decision"]["enum"]),
        set(decisions.map(|d| serde_json::to_value(d)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()))
    );
    let finished = &def("game_finished")["properties"];
    assert_eq!(
        strings(&finished["termination"]["enum"]),
        set(Termination::ALL.map(|t| t.code()))
    );
    assert_eq!(
        strings(&finished["result"]["enum"]),
        set([
            GameResult::Win(Side::White).pgn(),
            GameResult::Win(Side::Black).pgn(),
            GameResult::Draw.pgn(),
            "*",
        ])
    );
    use zebra::series::events::WarningCode;
    for w in WarningCode::ALL {
        match w {
            WarningCode::Overload => {}
        }
    }
    assert_eq!(
        strings(&def("warning")["properties"]["code"]["enum"]),
        set(WarningCode::ALL.map(|w| serde_json::to_value(w)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()))
    );
    let formats = [Format::RoundRobin, Format::Gauntlet];
    for f in formats {
        match f {
            Format::RoundRobin | Format::Gauntlet => {}
        }
    }
    assert_eq!(
        strings(&def("series_started")["properties"]["format"]["enum"]),
        set(formats.map(|f| f.code()))
    );
}

/// The example streams: a series stopped by its SPRT, and one with `--replay-suspect`.
const SERIES_EXAMPLES: [&str; 2] = ["series-events.jsonl", "series-events-replay.jsonl"];

#[test]
fn the_example_series_events_validate() {
    let schemas = schemas();
    let mut shown = BTreeSet::new();
    for name in SERIES_EXAMPLES {
        let path = protocol_dir().join("examples").join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let events = series_events(&schemas, &text, name);
        shown.extend(check_series_books(&events, name).into_keys());
    }
    for t in SERIES_EVENT_TYPES {
        assert!(shown.contains(t), "an example shows {t}");
    }
}

#[test]
fn series_event_schema_rejects_wrong_events() {
    let schemas = schemas();
    let text =
        std::fs::read_to_string(protocol_dir().join("examples/series-events.jsonl")).unwrap();
    let events = series_events(&schemas, &text, "series-events.jsonl");
    let of = |t: &str| {
        events
            .iter()
            .find(|e| e["type"] == json!(t))
            .unwrap_or_else(|| panic!("the example has no {t}"))
            .clone()
    };
    let (started, game, finished, stats, sprt, end) = (
        of("series_started"),
        of("game_started"),
        of("game_finished"),
        of("stats_updated"),
        of("sprt_decision"),
        of("series_finished"),
    );
    let replay_text =
        std::fs::read_to_string(protocol_dir().join("examples/series-events-replay.jsonl"))
            .unwrap();
    let voided = series_events(&schemas, &replay_text, "series-events-replay.jsonl")
        .into_iter()
        .find(|e| e["type"] == json!("game_voided"))
        .expect("the replay example has a game_voided");
    let cases: Vec<(Value, &str)> = vec![
        (with(&end, "/version", json!(2)), "version 2"),
        (without(&end, "/version"), "no version"),
        (without(&end, "/unix_ms"), "no unix_ms"),
        (with(&end, "/elapsed_ms", json!(-1)), "negative elapsed_ms"),
        (
            with(&end, "/type", json!("series_paused")),
            "an unknown type",
        ),
        (without(&end, "/type"), "no type"),
        (without(&end, "/conduct"), "no conduct"),
        (
            without(&end, "/conduct/0/suspect_timeouts"),
            "a conduct line without suspect timeouts",
        ),
        (
            with(&end, "/conduct/1/illegal", json!(-1)),
            "negative illegal",
        ),
        (without(&end, "/replays"), "no replays"),
        (
            with(&end, "/replays/max_attempts", json!(0)),
            "zero attempts",
        ),
        (
            with(
                &started,
                "/warnings",
                json!([{"code": "busy", "message": "x"}]),
            ),
            "an unknown warning",
        ),
        (without(&started, "/warnings"), "no warnings field"),
        (with(&started, "/cpus", json!(0)), "zero CPUs"),
        (
            without(&game, "/attempt"),
            "a game_started without its attempt",
        ),
        (with(&finished, "/attempt", json!(0)), "attempt 0"),
        (
            without(&voided, "/max_attempts"),
            "a voided game without its cap",
        ),
        (
            without(&voided, "/suspect_timeouts/white"),
            "a voided game without its suspect timeouts",
        ),
        (with(&end, "/outcome", json!("won")), "an unknown outcome"),
        (with(&end, "/games_finished", json!(-3)), "negative games"),
        (with(&end, "/games_finished", json!(2.5)), "half a game"),
        (with(&started, "/sprt", json!(1)), "sprt as a number"),
        (without(&started, "/sprt"), "no sprt field"),
        (
            with(&started, "/format", json!("swiss")),
            "an unknown format",
        ),
        (with(&started, "/concurrency", json!(0)), "concurrency 0"),
        (with(&started, "/bots", json!(["alone"])), "one bot"),
        (with(&game, "/leg", json!(3)), "leg 3"),
        (with(&game, "/game", json!(0)), "game 0"),
        (without(&game, "/seed"), "no seed"),
        (with(&game, "/white", json!("")), "an empty bot name"),
        (with(&finished, "/result", json!("2-0")), "result 2-0"),
        (
            with(&finished, "/termination", json!("time-forfeit")),
            "an unknown termination",
        ),
        (
            with(&finished, "/score/white", json!(-7)),
            "a negative score",
        ),
        (
            without(&finished, "/timeouts/black"),
            "half a per-side count",
        ),
        (without(&finished, "/duration_ms"), "no duration"),
        (
            with(
                &stats,
                "/head_to_head/pentanomial",
                json!([0, 0, 0, 0, 0, 0]),
            ),
            "six pentanomial buckets",
        ),
        (
            with(&stats, "/head_to_head/pentanomial", json!([0, 0, 0, 0])),
            "four pentanomial buckets",
        ),
        (
            with(&stats, "/head_to_head/score", json!(1.5)),
            "a score above 1",
        ),
        (
            with(&stats, "/head_to_head/elo", json!({"elo": 3.0})),
            "an Elo without its interval",
        ),
        (
            with(&stats, "/standings/0/points", json!(0.25)),
            "a quarter point",
        ),
        (without(&stats, "/head_to_head"), "no head_to_head field"),
        (
            with(&sprt, "/sprt/decision", json!("accept")),
            "an unknown SPRT decision",
        ),
        (
            with(&sprt, "/sprt/params/alpha", json!(0.7)),
            "alpha above 0.5",
        ),
        (with(&sprt, "/sprt/llr", Value::Null), "no LLR"),
        (
            // A game_started line cannot pass as a game_finished one, nor the reverse.
            with(&game, "/type", json!("game_finished")),
            "a game_finished without its result",
        ),
    ];
    for (value, why) in &cases {
        assert!(
            schemas.validate(SERIES_EVENT_SCHEMA, value).is_err(),
            "series-event.json accepts an event with {why}: {value}"
        );
    }
    // Nullable fields take null; unknown fields are ignored everywhere.
    let nulls = [
        with(&started, "/sprt", Value::Null),
        with(&started, "/cpus", Value::Null),
        with(&started, "/replay_suspect", Value::Null),
        with(
            &started,
            "/warnings",
            json!([{"code": "overload", "message": "8 games at once run 16 bots on 2 CPUs"}]),
        ),
        voided.clone(),
        with(&stats, "/head_to_head", Value::Null),
        with(&stats, "/head_to_head/sprt", Value::Null),
        with(&stats, "/head_to_head/los", Value::Null),
        with(&finished, "/result", json!("*")),
    ];
    for value in nulls.iter().chain(&events) {
        let value = with_unknown_fields(value, "");
        if let Err(e) = schemas.validate(SERIES_EVENT_SCHEMA, &value) {
            panic!("{e}\n{value}");
        }
    }
}

/// Waits for `child` at most `limit`; kills it past that.
fn wait_at_most(child: &mut std::process::Child, limit: Duration) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("zebra match did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A real series, greedy against random, two games at once. The bundled greedy bot wins
/// every game of these seeds, and with play-count quarters the games are the same on every
/// run, so the SPRT (H1: greedy is 200 Elo stronger) decides once four pairs are complete:
/// by the 9th or 10th game at the latest, whatever order the games finish in.
#[test]
fn a_real_series_streams_valid_events() {
    let schemas = schemas();
    let dir = std::env::temp_dir().join(format!(
        "zebra-protocol-series-events-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zebra"))
        .args([
            "match",
            "--games",
            "12",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0,elo1=200",
            // From the opening drive, where greedy wins every game of these seeds (a
            // start situation may hand a game to the random bot).
            "--situations",
            "none",
            "--quiet",
            "--out",
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("zebra runs");
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    let status = wait_at_most(&mut child, Duration::from_secs(300));
    let stderr = reader.join().unwrap();
    let path = dir.join("events.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; zebra exited with {status}:\n{stderr}",
            path.display()
        )
    });
    let what = format!("the events of {}", dir.display());
    let events = series_events(&schemas, &text, &what);
    let counts = check_series_books(&events, &what);
    // Without --replay-suspect no game is voided.
    for t in SERIES_EVENT_TYPES.iter().filter(|t| **t != "game_voided") {
        assert!(counts.contains_key(*t), "{what}: no {t}\n{text}\n{stderr}");
    }
    assert!(!counts.contains_key("game_voided"), "{what}");
    let last = events.last().unwrap();
    assert_eq!(last["outcome"], json!("h1-accepted"), "{what}");
    let played = counts["game_finished"] as u64;
    assert!(
        (8..12).contains(&played),
        "{what}: the SPRT stops the series early, not {played} games"
    );
    assert_eq!(events[0]["games_planned"], json!(12), "{what}");
    assert_eq!(events[0]["concurrency"], json!(2), "{what}");
    assert!(status.success(), "zebra exited with {status}:\n{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `game_finished` line a crash lost, written back by the resume from the game's record
/// (issue 29), is a valid line of the stream too, and says it was restored.
#[test]
fn a_restored_game_finished_line_validates() {
    let schemas = schemas();
    let dir = std::env::temp_dir().join(format!(
        "zebra-protocol-restored-event-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let zebra = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_zebra"))
            .args(args)
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    zebra(&["match", "--games", "2", "--quiet", "--out"]);
    let path = dir.join("events.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let last = text.rfind("\"type\":\"game_finished\"").unwrap();
    std::fs::write(&path, &text[..text[..last].rfind('\n').unwrap() + 1]).unwrap();
    zebra(&["match", "--quiet", "--resume"]);
    let text = std::fs::read_to_string(&path).unwrap();
    let events = series_events(&schemas, &text, "a resumed stream");
    let restored: Vec<&Value> = events
        .iter()
        .filter(|e| e.get("restored").is_some())
        .collect();
    assert_eq!(restored.len(), 1, "{text}");
    assert_eq!(restored[0]["type"], json!("game_finished"));
    assert_eq!(restored[0]["restored"], json!(true));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The penalty preview of real games: for each `penalty` request, the option of the
/// choice the referee then applied (its `result`'s `applied`) is where the next request
/// finds the game (offense, spot, down and distance, score), and every option validates.
/// Random bots foul during plays often (about ten penalty decisions a game at these
/// settings) and pick accept and decline alike.
#[test]
fn the_penalty_preview_is_what_the_referee_then_does() {
    let schemas = schemas();
    let dir = std::env::temp_dir().join(format!("zebra-penalty-preview-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut checked = 0;
    let mut choices = BTreeSet::new();
    for seed in 1..=3 {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_zebra"))
            .args([
                "play",
                "--white",
                "zebra-random-bot --protocol 1",
                "--black",
                "zebra-random-bot --protocol 1",
            ])
            .args([
                "--tc",
                "plays=12,play=20s,reaction=20s",
                "--seed",
                &seed.to_string(),
            ])
            .arg("--log-dir")
            .arg(&dir)
            .arg("--quiet")
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "seed {seed}");
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("log") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // (direction, side, message) of every line.
        let lines: Vec<(char, String, Value)> = text
            .lines()
            .filter_map(|l| {
                let mut words = l.split_whitespace();
                let (_, side, dir) = (words.next()?, words.next()?, words.next()?);
                let json = l.splitn(4, ' ').last()?;
                let json = &l[l.find(json)?..];
                let start = json.find('{')?;
                Some((
                    dir.chars().next()?,
                    side.to_string(),
                    serde_json::from_str(&json[start..]).ok()?,
                ))
            })
            .collect();
        for (k, (dir, side, msg)) in lines.iter().enumerate() {
            if *dir != '<' || msg["type"] != "request" {
                continue;
            }
            let has = msg.get("penalty_options").is_some();
            assert_eq!(has, msg["decision"] == "penalty", "{msg}");
            if !has {
                continue;
            }
            must_validate(&schemas, "request", msg);
            let options = msg["penalty_options"].as_array().unwrap();
            let legal: Vec<&Value> = msg["legal"].as_array().unwrap().iter().collect();
            let named: Vec<&Value> = options.iter().map(|o| &o["action"]).collect();
            assert_eq!(named, legal, "one option per legal choice, in order");
            let applied = lines[k..]
                .iter()
                .find(|(d, s, m)| {
                    *d == '<' && s == side && m["type"] == "result" && m["id"] == msg["id"]
                })
                .map(|(_, _, m)| m["applied"].clone())
                .expect("a result for the penalty request");
            let Some(next) = lines[k + 1..]
                .iter()
                .find(|(d, _, m)| *d == '<' && m["type"] == "request")
            else {
                continue; // The game ended with this choice.
            };
            let option = options
                .iter()
                .find(|o| o["action"] == applied)
                .unwrap_or_else(|| panic!("{applied} is one of the options: {msg}"));
            for f in PREVIEW_FIELDS {
                assert_eq!(
                    option[f],
                    next.2["state"][f],
                    "{f} after {applied} ({}):\n{msg}",
                    path.display()
                );
            }
            choices.insert(
                applied
                    .as_str()
                    .unwrap_or("?")
                    .split(':')
                    .next()
                    .unwrap()
                    .to_string(),
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} penalty decisions seen");
    assert_eq!(set(["accept", "decline"]), choices, "both choices checked");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// Boyer's Football
// ---------------------------------------------------------------------------------------

const BOYER_SCHEMAS: [&str; 4] = [
    "boyer_game_start.json",
    "boyer_request.json",
    "boyer_event.json",
    "boyer_to_bot.json",
];

const ELEVEN_SCHEMAS: [&str; 4] = [
    "eleven_game_start.json",
    "eleven_request.json",
    "eleven_event.json",
    "eleven_to_bot.json",
];

/// The setup of a Boyer game on the chess clock `clock`.
fn boyer_config(clock: &str) -> zebra::referee::GameSetup {
    let mut cfg = zebra::referee::GameSetup::of(zebra::rules::Rules::BoyerFootball);
    cfg.read_clock(clock).unwrap();
    cfg
}

/// A Boyer line Zebra sends: it validates against `schema` and the Boyer union, not
/// against Football Chess's message of the same type, and parses back.
fn check_boyer_line(schemas: &Schemas, schema: &str, line: &str) -> Value {
    use zebra::games::boyer::wire::BoyerToBot;
    assert!(!line.contains('\n'), "one line: {line}");
    let value: Value = serde_json::from_str(line).unwrap();
    must_validate(schemas, schema, &value);
    must_validate(schemas, "boyer_to_bot", &value);
    let fc = value["type"].as_str().unwrap();
    assert!(
        schemas.validate(&format!("{fc}.json"), &value).is_err(),
        "Football Chess's {fc}.json accepts a Boyer message: {line}"
    );
    let back: BoyerToBot = serde_json::from_str(line).unwrap();
    assert_eq!(protocol::to_line(&back), line);
    value
}

#[test]
fn boyer_messages_validate_against_their_own_schemas() {
    use zebra::games::boyer::rules::{Event, Game, Outcome, Position, RandomPlayer};
    use zebra::referee::Refereed;
    use zebra::rules::ruleset::RuleSet;
    let schemas = schemas();
    let mut kinds = BTreeSet::new();
    for (k, clock) in ["bank=60s,inc=1s", "turn=2s"].into_iter().enumerate() {
        let cfg = boyer_config(clock);
        let (start, _, clocks) = <Game as Refereed>::set_up(&cfg);
        for side in [Side::White, Side::Black] {
            let line = protocol::to_line(&envelope::game_start(
                &start,
                &cfg,
                &clocks,
                side,
                "other".into(),
                Map::new(),
                1,
            ));
            let v = check_boyer_line(&schemas, "boyer_game_start", &line);
            assert_eq!(v["rules"], "boyer-football");
        }
        for seed in 0..12u64 {
            let mut game = Game::new(Position::start());
            let mut player = RandomPlayer::new(seed * 2 + k as u64);
            let mut id = 0;
            while let Some(sub) = player.choose(&game) {
                id += 1;
                let budget = game.budget(&clocks);
                let side = game.to_decide().unwrap().0;
                let line = protocol::to_line(&envelope::request(
                    &game,
                    id,
                    side,
                    &clocks,
                    &budget,
                    envelope::Carry::whole(),
                ));
                let v = check_boyer_line(&schemas, "boyer_request", &line);
                // The state rebuilds the position; legal is the engine's list.
                let state: zebra::games::boyer::wire::BoyerState =
                    serde_json::from_value(v["state"].clone()).unwrap();
                assert_eq!(&state.position().unwrap(), game.position());
                let legal: Vec<String> = game.legal().iter().map(|s| s.to_string()).collect();
                assert_eq!(v["legal"], json!(legal));
                let events = game.play(sub).unwrap();
                let line = protocol::to_line(&envelope::events::<Game>(&events));
                let v = check_boyer_line(&schemas, "boyer_event", &line);
                for e in v["events"].as_array().unwrap() {
                    kinds.insert(e["kind"].as_str().unwrap().to_string());
                }
            }
        }
    }
    assert_eq!(kinds, set(["played", "turn_over", "game_over"]));
    // Every outcome, hand-built: the schema's enum is exactly the engine's outcomes.
    let outcomes = [
        Outcome::Goal(Side::White),
        Outcome::Goal(Side::Black),
        Outcome::Repetition,
        Outcome::TurnLimit,
        Outcome::NoMoves,
    ];
    let mut names = BTreeSet::new();
    for outcome in outcomes {
        let line = protocol::to_line(&envelope::events::<Game>(&[Event::GameOver { outcome }]));
        let v = check_boyer_line(&schemas, "boyer_event", &line);
        let e = &v["events"][0];
        assert_eq!(e["winner"], json!(outcome.winner()));
        names.insert(e["outcome"].as_str().unwrap().to_string());
    }
    let (_, event) = schemas.resolve("boyer_event.json", "#/$defs/event");
    let declared = set(event["oneOf"][2]["properties"]["outcome"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap()));
    assert_eq!(names, declared);
}

#[test]
fn boyer_schemas_reject_wrong_messages() {
    let schemas = schemas();
    let request = example("boyer-request");
    must_validate(&schemas, "boyer_request", &request);
    for (at, bad, why) in [
        ("/decision", json!("move"), "a Football Chess decision"),
        ("/state/fen", json!("9/9/9/9/4a4/9/9/9 w 0"), "eight ranks"),
        (
            "/state/fen",
            json!("rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR x 0"),
            "no side to move",
        ),
        ("/state/kicked", json!(["j1"]), "a square off the board"),
        ("/legal", json!([]), "no legal sub-move"),
        ("/legal/0", json!("e2e4x"), "bad notation"),
        ("/legal/0", json!("Kd5-c5"), "a kick without >"),
        ("/clocks", json!({"white_ms": 1}), "one clock"),
        ("/deadline_ms", json!(-1), "a negative deadline"),
    ] {
        must_reject(&schemas, "boyer_request", &with(&request, at, bad), why);
    }
    let start = json!({"type": "game_start", "version": 1, "rules": "boyer-football",
        "rules_version": "v", "rulings": "1", "side": "white", "opponent": "o", "seed": 1,
        "time_control": {"bank_ms": 1000, "increment_ms": 0, "grace_ms": 100}, "options": {}});
    must_validate(&schemas, "boyer_game_start", &start);
    for (tc, why) in [
        (
            json!({"bank_ms": 1000, "turn_ms": 5, "grace_ms": 1}),
            "a bank and a time per turn",
        ),
        (
            json!({"bank_ms": 1000, "grace_ms": 1}),
            "a bank without its increment",
        ),
        (json!({"turn_ms": 1000}), "no grace"),
    ] {
        must_reject(
            &schemas,
            "boyer_game_start",
            &with(&start, "/time_control", tc),
            why,
        );
    }
    must_reject(
        &schemas,
        "boyer_game_start",
        &with(&start, "/rules", json!("football-chess")),
        "another game",
    );
    let event = |e: Value| json!({"type": "event", "events": [e]});
    for (e, why) in [
        (
            json!({"kind": "kicked", "side": "white"}),
            "an unknown kind",
        ),
        (
            json!({"kind": "game_over", "outcome": "resigned", "winner": null}),
            "an unknown outcome",
        ),
        (
            json!({"kind": "played", "side": "white", "sub_move": "z9z9"}),
            "bad notation",
        ),
    ] {
        must_reject(&schemas, "boyer_event", &event(e), why);
    }
}

#[test]
fn the_boyer_request_example_is_what_zebra_sends() {
    use zebra::games::boyer::rules::{Game, Position};
    use zebra::referee::Refereed;
    // White's queen has moved next to the ball: the turn goes on with kicks or a pass.
    let cfg = boyer_config("bank=60s,inc=1s");
    let (_, _, clocks) = <Game as Refereed>::set_up(&cfg);
    let mut game = Game::new(Position::start());
    game.play("d1d4".parse().unwrap()).unwrap();
    let budget = game.budget(&clocks);
    let line = protocol::to_line(&envelope::request(
        &game,
        7,
        Side::White,
        &clocks,
        &budget,
        envelope::Carry::whole(),
    ));
    let value: Value = serde_json::from_str(&line).unwrap();
    let path = protocol_dir().join("examples/boyer-request.json");
    if std::env::var_os("ZEBRA_BLESS").is_some() {
        // Written from the message type, so the fields keep the order Zebra sends them in.
        let msg: zebra::games::boyer::wire::BoyerToBot = serde_json::from_str(&line).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(&msg).unwrap() + "\n").unwrap();
    }
    assert_eq!(
        example("boyer-request"),
        value,
        "protocol/examples/boyer-request.json is stale: run ZEBRA_BLESS=1 cargo test --test protocol"
    );
    assert_eq!(value["state"]["made"], 1);
    assert!(value["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s.as_str().unwrap().starts_with('K')));
}

fn eleven_config(clock: &str) -> zebra::referee::GameSetup {
    let mut cfg = zebra::referee::GameSetup::of(zebra::rules::Rules::ChessEleven);
    cfg.read_clock(clock).unwrap();
    cfg
}

/// A Chess Eleven line Zebra sends: it validates against `schema` and the Chess Eleven
/// union, not against Football Chess's or Boyer's message of the same type, and parses back.
fn check_eleven_line(schemas: &Schemas, schema: &str, line: &str) -> Value {
    use zebra::games::chess_eleven::wire::ElevenToBot;
    assert!(!line.contains('\n'), "one line: {line}");
    let value: Value = serde_json::from_str(line).unwrap();
    must_validate(schemas, schema, &value);
    must_validate(schemas, "eleven_to_bot", &value);
    let kind = value["type"].as_str().unwrap();
    // An empty event list reads the same in every game.
    let empty = value["events"].as_array().is_some_and(|e| e.is_empty());
    for other in [format!("{kind}.json"), format!("boyer_{kind}.json")] {
        if empty {
            break;
        }
        assert!(
            schemas.validate(&other, &value).is_err(),
            "{other} accepts a Chess Eleven message: {line}"
        );
    }
    let back: ElevenToBot = serde_json::from_str(line).unwrap();
    assert_eq!(protocol::to_line(&back), line);
    value
}

/// Every message of seeded random games of Chess Eleven validates against its schema:
/// every decision, every event kind, both clock forms.
#[test]
fn chess_eleven_messages_validate_against_their_own_schemas() {
    use zebra::games::chess_eleven::{Game, RandomPlayer};
    use zebra::referee::Refereed;
    use zebra::rules::ruleset::RuleSet;
    let schemas = schemas();
    let mut decisions = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for (k, clock) in ["turns=30,move=1s", "half=5m,goals=3", "goals=2,cap=150"]
        .into_iter()
        .enumerate()
    {
        for seed in 0..8u64 {
            let mut cfg = eleven_config(clock);
            cfg.seed = seed + 10 * k as u64;
            // Half the games start from a position (C53), which game_start names.
            let start = "2rkqr2/1bpppp2/2n2n2/8/3P4/2N2N2/1BP1PP2/2RKQR2 b spot - d3 0-0 1.1 0";
            if seed % 2 == 1 {
                cfg.start = Some(
                    zebra::referee::GameStart::read(zebra::rules::Rules::ChessEleven, start)
                        .unwrap(),
                );
            }
            let (mut game, _, clocks) = <Game as Refereed>::set_up(&cfg);
            for side in [Side::White, Side::Black] {
                let line = protocol::to_line(&envelope::game_start(
                    &game,
                    &cfg,
                    &clocks,
                    side,
                    "other".into(),
                    Map::new(),
                    1,
                ));
                let v = check_eleven_line(&schemas, "eleven_game_start", &line);
                assert_eq!(v["rules"], "chess-eleven");
                assert_eq!(v.get("situation").is_some(), seed % 2 == 1, "{line}");
            }
            let mut player = RandomPlayer::new(cfg.seed);
            let mut id = 0;
            while let Some(action) = player.choose(&game) {
                id += 1;
                let side = game.to_decide().unwrap().0;
                let budget = game.budget(&clocks);
                let line = protocol::to_line(&envelope::request(
                    &game,
                    id,
                    side,
                    &clocks,
                    &budget,
                    envelope::Carry::whole(),
                ));
                let v = check_eleven_line(&schemas, "eleven_request", &line);
                decisions.insert(v["decision"].as_str().unwrap().to_string());
                let events = game.play(&action).unwrap();
                let line = protocol::to_line(&envelope::events::<Game>(&events));
                let v = check_eleven_line(&schemas, "eleven_event", &line);
                for e in v["events"].as_array().unwrap() {
                    kinds.insert(e["kind"].as_str().unwrap().to_string());
                }
            }
        }
    }
    assert_eq!(decisions, set(["formation", "go", "continue"]));
    for kind in [
        "kick_off",
        "moved",
        "took_ball",
        "passed",
        "shot",
        "go_ended",
        "round_over",
        "half_time",
        "game_over",
    ] {
        assert!(
            kinds.contains(kind),
            "no {kind} event in the sample: {kinds:?}"
        );
    }
}

#[test]
fn the_chess_eleven_request_example_is_what_zebra_sends() {
    use zebra::games::chess_eleven::{formation, Action, Game};
    use zebra::referee::Refereed;
    // After the default formations, White's pawn has taken the ball on d4: it may pass.
    let cfg = eleven_config("turns=40,move=5s");
    let (mut game, _, clocks) = <Game as Refereed>::set_up(&cfg);
    for side in [Side::White, Side::Black] {
        game.play(&Action::Formation(formation::default_for(side)))
            .unwrap();
    }
    game.play(&"d2d4".parse().unwrap()).unwrap();
    let budget = game.budget(&clocks);
    let line = protocol::to_line(&envelope::request(
        &game,
        7,
        Side::White,
        &clocks,
        &budget,
        envelope::Carry::whole(),
    ));
    let value: Value = serde_json::from_str(&line).unwrap();
    let path = protocol_dir().join("examples/eleven-request.json");
    if std::env::var_os("ZEBRA_BLESS").is_some() {
        let msg: zebra::games::chess_eleven::wire::ElevenToBot =
            serde_json::from_str(&line).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(&msg).unwrap() + "\n").unwrap();
    }
    assert_eq!(
        example("eleven-request"),
        value,
        "protocol/examples/eleven-request.json is stale: run ZEBRA_BLESS=1 cargo test --test protocol"
    );
    assert_eq!(value["decision"], "continue");
    assert_eq!(value["legal"], json!(["d4^f3", "end"]));
}
