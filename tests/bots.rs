//! The bundled bots: their decisions in-process against the engine (greedy beats random),
//! and the binaries and the Python example driven as subprocesses over the protocol.
//!
//! Every subprocess runs in its own process group, killed with the group when its handle
//! drops, so that no test leaves a process behind (also the test bot's `--fork` child).

mod common;
#[allow(dead_code)]
#[path = "../bots/greedy_bot.rs"]
mod greedy;
#[allow(dead_code)]
#[path = "../bots/random_bot.rs"]
mod random;
#[allow(dead_code)]
#[path = "../bots/search_bot.rs"]
mod search;

use common::run::scratch;

// The search bot carries the sparring bot's code (its football outside the action phase).
use search::sparring;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Map;

use zebra::botkit::{Bot, GameStart, Request};
use zebra::games::football_chess::wire::{TimeControlMsg, ToBot};
use zebra::protocol::{parse_from_bot, to_line, FromBot, ReplyStatus, ScoreMsg};
use zebra::rules::playout::RandomPlayer;
use zebra::rules::{Action, ActionList, DecisionKind, Formation, Game, GameResult, Settings, Side};

/// How long a well-behaved bot may take for any one line (CI is a noisy 2-core machine).
const PATIENCE: Duration = Duration::from_secs(20);

fn game_start(side: Side, seed: u64) -> GameStart {
    GameStart {
        side,
        opponent: "other".to_string(),
        seed,
        time_control: TimeControlMsg {
            quarter_ms: None,
            plays_per_quarter: Some(4),
            play_ms: 5000,
            reaction_ms: 1000,
            grace_ms: 100,
        },
        options: Map::new(),
    }
}

/// Plays one game between two in-process bots, checking every answer against the engine.
fn play(white: &mut dyn Bot, black: &mut dyn Bot, seed: u64, plays: u16) -> Game {
    white.game_start(&game_start(Side::White, seed));
    black.game_start(&game_start(Side::Black, seed));
    let mut game = Game::new(Settings::plays(plays));
    let mut id = 0;
    while let Some(req) = Request::from_game(id, &game) {
        id += 1;
        assert!(id < 50_000, "the game does not end");
        let bot: &mut dyn Bot = if req.side == Side::White {
            &mut *white
        } else {
            &mut *black
        };
        let text = bot.decide(&req);
        let action: Action = text
            .parse()
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", req.state.diagram));
        match req.decision {
            DecisionKind::Formation => {
                let Action::Formation(f) = action else {
                    panic!("{text} is no formation")
                };
                assert_eq!(
                    game.validate_formation(&f),
                    Ok(()),
                    "{text}\n{}",
                    req.state.diagram
                );
            }
            _ => assert!(
                req.legal_list().contains(&text),
                "{text} is not legal\n{}",
                req.state.diagram
            ),
        }
        game.apply(&action)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    game
}

/// A bot that times its decisions.
struct Timed<B>(B, Duration);

impl<B: Bot> Bot for Timed<B> {
    fn info(&self) -> zebra::botkit::BotInfo {
        self.0.info()
    }
    fn game_start(&mut self, start: &GameStart) {
        self.0.game_start(start)
    }
    fn decide(&mut self, req: &Request) -> String {
        let t = Instant::now();
        let a = self.0.decide(req);
        self.1 = self.1.max(t.elapsed());
        a
    }
}

#[test]
fn greedy_beats_random_in_process() {
    let depth: u8 = std::env::var("GREEDY_DEPTH").map_or(2, |d| d.parse().unwrap());
    let (mut wins, mut losses, mut margin) = (0, 0, 0i64);
    let games = 20;
    let mut slowest = Duration::ZERO;
    for seed in 0..games {
        let mut g = Timed(greedy::GreedyBot::new("greedy", depth), Duration::ZERO);
        let mut r = random::RandomBot::new("random", seed, Side::White);
        let me = if seed % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let game = if me == Side::White {
            play(&mut g, &mut r, seed, 4)
        } else {
            play(&mut r, &mut g, seed, 4)
        };
        slowest = slowest.max(g.1);
        margin += i64::from(game.score(me)) - i64::from(game.score(me.other()));
        match game.result() {
            Some(GameResult::Win(s)) if s == me => wins += 1,
            Some(GameResult::Win(_)) => losses += 1,
            _ => {}
        }
    }
    println!(
        "greedy (depth {depth}) vs random, quarters of 4 plays: {wins} wins, {losses} losses, {} draws \
         in {games} games; points margin {margin}; slowest decision {slowest:?}",
        games - wins - losses
    );
    assert!(
        wins >= 14 && losses <= 3,
        "greedy won {wins}, lost {losses} of {games}"
    );
}

/// The sparring bot is the second baseline: it must beat the greedy bot in every game, as
/// White and as Black (quarters of 4 plays). Both bots are deterministic and the in-process
/// deadline is 10 s, far beyond what either uses, so the games do not depend on the
/// machine's load.
#[test]
fn sparring_beats_greedy_in_process() {
    let games = 6;
    let mut slowest = Duration::ZERO;
    for seed in 0..games {
        let mut s = Timed(sparring::SparringBot::new("sparring"), Duration::ZERO);
        let mut g = greedy::GreedyBot::new("greedy", 2);
        let me = if seed % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let game = if me == Side::White {
            play(&mut s, &mut g, seed, 4)
        } else {
            play(&mut g, &mut s, seed, 4)
        };
        slowest = slowest.max(s.1);
        let (mine, theirs) = (game.score(me), game.score(me.other()));
        println!(
            "sparring as {me}: {mine}-{theirs}; slowest decision {:?}",
            s.1
        );
        assert_eq!(
            game.result(),
            Some(GameResult::Win(me)),
            "sparring as {me} (seed {seed}) did not beat greedy: {mine}-{theirs}"
        );
    }
    println!("sparring beat greedy in {games} of {games} games; slowest decision {slowest:?}");
}

/// The search bot against both baselines, as White and as Black (quarters of 4 plays). The
/// in-process deadline is 10 s, so the node budget ends every search: the games are the
/// same on any machine, however busy.
#[test]
fn search_beats_greedy_and_sparring_in_process() {
    for opponent in ["greedy", "sparring"] {
        for me in [Side::White, Side::Black] {
            let mut s = Timed(
                search::SearchBot::new("search", search::DEFAULTS, false),
                Duration::ZERO,
            );
            let mut o: Box<dyn Bot> = if opponent == "greedy" {
                Box::new(greedy::GreedyBot::new("greedy", 2))
            } else {
                Box::new(sparring::SparringBot::new("sparring"))
            };
            let game = if me == Side::White {
                play(&mut s, o.as_mut(), 0, 4)
            } else {
                play(o.as_mut(), &mut s, 0, 4)
            };
            let (mine, theirs) = (game.score(me), game.score(me.other()));
            println!(
                "search as {me} vs {opponent}: {mine}-{theirs}; slowest decision {:?}",
                s.1
            );
            assert_eq!(
                game.result(),
                Some(GameResult::Win(me)),
                "search as {me} did not beat {opponent}: {mine}-{theirs}"
            );
        }
    }
}

/// Cut short by its clock before its first iteration ends, the search bot still answers a
/// legal action; with time enough it answers the same as itself (deterministic), and with
/// two threads a legal action too.
#[test]
fn search_answers_legally_when_cut_short() {
    let mut requests = Vec::new();
    let mut game = Game::new(Settings::plays(4));
    let mut player = RandomPlayer::new(7);
    let mut list = ActionList::new();
    while let Some(action) = player.choose(&game, &mut list) {
        if let Some(req) = Request::from_game(requests.len() as u64, &game) {
            if matches!(req.decision, DecisionKind::Move | DecisionKind::Contention) {
                requests.push(req);
            }
        }
        game.apply(&action).expect("a listed action");
    }
    assert!(
        requests.len() > 100,
        "only {} action-phase requests",
        requests.len()
    );
    let quick = search::Settings {
        nodes: 1000,
        think: 5,
        ..search::DEFAULTS
    };
    let two = search::Settings {
        nodes: 4000,
        threads: 2,
        ..search::DEFAULTS
    };
    let deep = search::Settings {
        nodes: 4000,
        ..search::DEFAULTS
    };
    for mut req in requests {
        let legal = req.legal_list().to_vec();
        req.deadline_ms = 0; // the clock has already run out
        let cut = search::SearchBot::new("s", quick, false).decide(&req);
        assert!(
            legal.contains(&cut),
            "{cut} not legal\n{}",
            req.state.diagram
        );
        req.deadline_ms = 10_000;
        let a = search::SearchBot::new("s", deep, false).decide(&req);
        let b = search::SearchBot::new("s", deep, false).decide(&req);
        assert_eq!(a, b, "two searches differ\n{}", req.state.diagram);
        let t = search::SearchBot::new("s", two, false).decide(&req);
        assert!(legal.contains(&t), "{t} not legal\n{}", req.state.diagram);
    }
}

/// The sparring bot's formations are legal on every spot of the field, for both teams.
#[test]
fn sparring_formations_are_legal_on_every_spot() {
    let mut bot = sparring::SparringBot::new("sparring");
    for mut game in every_spot() {
        for _ in 0..2 {
            let req = Request::from_game(0, &game).unwrap();
            let text = bot.decide(&req);
            let Ok(Action::Formation(f)) = text.parse::<Action>() else {
                panic!("{text} is no formation\n{}", game.to_diagram())
            };
            assert_eq!(
                game.validate_formation(&f),
                Ok(()),
                "{f}\n{}",
                game.to_diagram()
            );
            game.apply(&Action::Formation(f)).unwrap();
        }
    }
}

/// A game in the offense's formation decision on every ball spot of the field, both ways.
fn every_spot() -> Vec<Game> {
    let mut out = Vec::new();
    for offense in Side::ALL {
        for rank in 2..=7 {
            for file in "bcdefg".chars() {
                let board: String = (1..=8)
                    .rev()
                    .map(|r| format!("{r} . . . . . . . .\n"))
                    .collect();
                let diagram = format!(
                    "offense: {offense}\nphase: formation\nspot: {file}{rank}\nquarter-length: 9\n{board}"
                );
                out.push(Game::from_diagram(&diagram).unwrap());
            }
        }
    }
    out
}

#[test]
fn greedy_layout_is_legal_on_every_spot() {
    for mut game in every_spot() {
        for _ in 0..2 {
            let side = game.decision().unwrap().side;
            let f = greedy::layout(&game, side);
            assert_eq!(
                game.validate_formation(&f),
                Ok(()),
                "{f}\n{}",
                game.to_diagram()
            );
            game.apply(&Action::Formation(f)).unwrap();
        }
        assert_eq!(
            game.decision().map(|d| d.kind),
            Some(DecisionKind::MotionOrSnap)
        );
    }
}

#[test]
fn formations_are_legal_for_both_sides_everywhere() {
    // Every drive spot a game can have: walk the offense's spot over ranks 2..7, files b..g.
    for seed in 0..30u64 {
        let mut game = Game::new(Settings::plays(50));
        let mut player = RandomPlayer::new(seed);
        let mut list = ActionList::new();
        let mut formations = 0;
        while formations < 20 {
            let Some(d) = game.decision() else { break };
            if d.kind == DecisionKind::Formation {
                formations += 1;
                let f: Formation = greedy::greedy_formation(&game, d.side);
                assert_eq!(
                    game.validate_formation(&f),
                    Ok(()),
                    "{f}\n{}",
                    game.to_diagram()
                );
                let f = zebra::botkit::formation(&game, d.side, seed);
                assert_eq!(
                    game.validate_formation(&f),
                    Ok(()),
                    "{f}\n{}",
                    game.to_diagram()
                );
            }
            let Some(a) = player.choose(&game, &mut list) else {
                break;
            };
            game.apply(&a).unwrap();
        }
    }
}

// ---- subprocesses ----

/// A bot process: stdin to write, stdout lines from a reader thread, stderr collected.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<Vec<u8>>>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

/// What became of a wait for the next stdout line.
#[derive(Debug, PartialEq)]
enum Next {
    Line(Vec<u8>),
    Eof,
    Timeout,
}

impl Proc {
    fn spawn(program: &str, args: &[&str]) -> Proc {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        if tx.send(Some(buf)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let sink = stderr.clone();
        thread::spawn(move || {
            let mut chunk = [0u8; 65536];
            while let Ok(n) = err_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        Proc {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
        }
    }

    fn bin(name: &str, args: &[&str]) -> Proc {
        let path = match name {
            "random" => env!("CARGO_BIN_EXE_zebra-random-bot"),
            "greedy" => env!("CARGO_BIN_EXE_zebra-greedy-bot"),
            "sparring" => env!("CARGO_BIN_EXE_zebra-sparring-bot"),
            "search" => env!("CARGO_BIN_EXE_zebra-search-bot"),
            "test" => env!("CARGO_BIN_EXE_zebra-test-bot"),
            _ => panic!("no bot {name}"),
        };
        Proc::spawn(path, args)
    }

    fn send_raw(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    fn send(&mut self, msg: &ToBot) {
        self.send_raw(&to_line(msg))
            .expect("the bot reads its stdin");
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn next(&self, timeout: Duration) -> Next {
        match self.lines.recv_timeout(timeout) {
            Ok(Some(line)) => Next::Line(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Next::Eof,
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
        }
    }

    /// The next line, which must come within [`PATIENCE`].
    fn line(&self) -> Vec<u8> {
        match self.next(PATIENCE) {
            Next::Line(l) => l,
            other => panic!(
                "expected a line, got {other:?}; stderr: {}",
                self.stderr_text()
            ),
        }
    }

    /// The next message, skipping blank lines; it must parse.
    fn msg(&self) -> FromBot {
        loop {
            let line = self.line();
            let text = String::from_utf8(line).expect("UTF-8");
            if text.trim().is_empty() {
                continue;
            }
            return parse_from_bot(text.trim_end())
                .unwrap_or_else(|e| panic!("{e}: {text}; stderr: {}", self.stderr_text()));
        }
    }

    fn handshake(&mut self) -> FromBot {
        self.send(&hello());
        let ready = self.msg();
        assert!(
            matches!(ready, FromBot::Ready { version: 1, .. }),
            "{ready:?}"
        );
        ready
    }

    fn action(&self, id: u64) -> String {
        match self.msg() {
            FromBot::Action {
                id: got, action, ..
            } if got == id => action,
            other => panic!("expected the action for request {id}, got {other:?}"),
        }
    }

    fn wait(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if start.elapsed() > timeout {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    fn stderr_text(&self) -> String {
        let bytes = self.stderr.lock().unwrap();
        let tail = &bytes[bytes.len().saturating_sub(2000)..];
        String::from_utf8_lossy(tail).into_owned()
    }

    fn stderr_len(&self) -> usize {
        self.stderr.lock().unwrap().len()
    }

    fn quit(&mut self) {
        self.send(&ToBot::Quit);
        let status = self.wait(PATIENCE).expect("the bot exits after quit");
        assert!(status.success(), "{status:?}");
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        // The whole process group: the bot and anything it started.
        let pgid = self.child.id() as libc::pid_t;
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn hello() -> ToBot {
    ToBot::Hello {
        protocol: "zebra".to_string(),
        versions: vec![1],
        max_line_bytes: 65536,
        handshake_ms: 10_000,
    }
}

fn start_msg(side: Side, seed: u64) -> ToBot {
    let s = game_start(side, seed);
    ToBot::GameStart {
        version: 1,
        rules: "football-chess".to_string(),
        rules_version: "0.1".to_string(),
        rulings: zebra::rules::RULINGS_EDITION.to_string(),
        side,
        opponent: s.opponent,
        seed,
        tc: String::new(),
        time_control: s.time_control,
        options: s.options,
        situation: None,
    }
}

/// Positions from seeded random games: `per_kind` for every decision kind (formations
/// separately for offense and defense), with the side to decide.
fn samples(per_kind: usize) -> Vec<Game> {
    let mut found: HashMap<(DecisionKind, bool), usize> = HashMap::new();
    let mut out = Vec::new();
    let mut list = ActionList::new();
    // Every kind; formations, moves, contention and penalties by either team.
    let keys = 10;
    for seed in 0..2000u64 {
        let mut game = Game::new(Settings::plays(6));
        let mut player = RandomPlayer::new(seed);
        while let Some(d) = game.decision() {
            let key = (d.kind, d.side == game.offense());
            let n = found.entry(key).or_default();
            if *n < per_kind {
                *n += 1;
                out.push(game.clone());
            }
            let Some(a) = player.choose(&game, &mut list) else {
                break;
            };
            game.apply(&a).unwrap();
        }
        if found.len() == keys && found.values().all(|&n| n >= per_kind) {
            return out;
        }
    }
    panic!("random games did not reach every decision: {found:?}");
}

/// Checks a bot's answer to a request against the engine.
fn check_answer(game: &Game, req: &Request, text: &str, who: &str) {
    match req.decision {
        DecisionKind::Formation => {
            let f: Formation = text
                .parse()
                .unwrap_or_else(|e| panic!("{who}: {text} is no formation: {e}"));
            assert_eq!(
                game.validate_formation(&f),
                Ok(()),
                "{who}: {text} for {}\n{}",
                req.side,
                req.state.diagram
            );
        }
        _ => assert!(
            req.legal_list().iter().any(|a| a == text),
            "{who}: {text} is not legal in a {} decision\n{}",
            req.decision,
            req.state.diagram
        ),
    }
}

/// Drives a bot through requests from real engine states of every phase.
fn answers_every_phase(mut bot: Proc, who: &str) {
    bot.handshake();
    bot.send(&start_msg(Side::White, 1));
    let mut kinds = std::collections::HashSet::new();
    for (i, game) in samples(3).iter().enumerate() {
        let id = 100 + i as u64;
        let req = Request::from_game(id, game).unwrap();
        bot.send(&req.to_message());
        let text = bot.action(id);
        check_answer(game, &req, &text, who);
        kinds.insert(req.decision);
    }
    assert_eq!(kinds.len(), DecisionKind::ALL.len());
    bot.send(&ToBot::Ping { id: 77 });
    assert_eq!(bot.msg(), FromBot::Pong { id: 77 });
    bot.quit();
}

#[test]
fn random_bot_answers_every_phase_legally() {
    answers_every_phase(Proc::bin("random", &[]), "random");
}

#[test]
fn greedy_bot_answers_every_phase_legally() {
    answers_every_phase(Proc::bin("greedy", &[]), "greedy");
}

#[test]
fn sparring_bot_answers_every_phase_legally() {
    answers_every_phase(Proc::bin("sparring", &[]), "sparring");
}

#[test]
fn search_bot_answers_every_phase_legally() {
    answers_every_phase(Proc::bin("search", &[]), "search");
}

#[test]
fn test_bot_behaves_by_default() {
    answers_every_phase(Proc::bin("test", &[]), "test");
}

#[test]
fn bots_say_their_names_and_exit_at_the_end_of_stdin() {
    for (bot, args, name) in [
        ("random", &["--name", "r2"][..], "r2"),
        ("greedy", &["--name", "g2", "--depth", "1"][..], "g2"),
        ("sparring", &["--name", "s2"][..], "s2"),
        ("search", &["--name", "x2", "--depth", "2"][..], "x2"),
        ("test", &["--name", "t2"][..], "t2"),
    ] {
        let mut p = Proc::bin(bot, args);
        match p.handshake() {
            FromBot::Ready { name: got, .. } => assert_eq!(got, name),
            other => panic!("{other:?}"),
        }
        p.close_stdin();
        let status = p.wait(PATIENCE).expect("exits at the end of stdin");
        assert!(status.success(), "{bot}: {status:?}");
    }
}

/// A whole game over the protocol between two bot processes, refereed in-process without
/// clocks: every answer checked, `result` and `event` messages sent as the referee would.
fn referee_game(white: &mut Proc, black: &mut Proc, seed: u64, plays: u16) -> Game {
    for (p, side) in [(&mut *white, Side::White), (&mut *black, Side::Black)] {
        p.handshake();
        p.send(&start_msg(side, seed));
    }
    let mut game = Game::new(Settings::plays(plays));
    let mut id = 0;
    while let Some(req) = Request::from_game(id, &game) {
        id += 1;
        assert!(id < 20_000, "the game does not end");
        let bot = if req.side == Side::White {
            &mut *white
        } else {
            &mut *black
        };
        bot.send(&req.to_message());
        let text = bot.action(req.id);
        check_answer(&game, &req, &text, &format!("{} bot", req.side));
        let events = game.apply(&text.parse().unwrap()).unwrap();
        bot.send(&ToBot::Result {
            id: req.id,
            status: ReplyStatus::Ok,
            elapsed_ms: 1,
            cpu_ms: Some(1),
            applied: Some(text),
            reason: None,
        });
        let event = ToBot::Event {
            events: events.to_vec(),
        };
        white.send(&event);
        black.send(&event);
    }
    let end = ToBot::GameEnd {
        result: game.result().map_or("*", |r| r.pgn()).to_string(),
        score: ScoreMsg {
            white: game.score(Side::White),
            black: game.score(Side::Black),
        },
        termination: "normal".to_string(),
        reason: "four quarters played".to_string(),
    };
    for p in [white, black] {
        p.send(&end);
        p.quit();
    }
    game
}

#[test]
fn greedy_and_random_binaries_play_a_whole_game() {
    let mut white = Proc::bin("greedy", &[]);
    let mut black = Proc::bin("random", &[]);
    let game = referee_game(&mut white, &mut black, 3, 3);
    assert!(game.is_over());
}

/// Asks `bot` (requests numbered from `id`) for both teams' formations on every spot of
/// the field, and checks each is legal.
fn forms_on_every_spot(bot: &mut Proc, mut id: u64, who: &str) {
    for mut game in every_spot() {
        for _ in 0..2 {
            let req = Request::from_game(id, &game).unwrap();
            bot.send(&req.to_message());
            let text = bot.action(id);
            check_answer(&game, &req, &text, who);
            game.apply(&text.parse().unwrap()).unwrap();
            id += 1;
        }
    }
}

// ---- the Python example ----

/// `program` if it runs on this machine; otherwise a note that the test of `what` is
/// skipped.
fn interpreter(program: &'static str, what: &str) -> Option<&'static str> {
    let ok = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        println!("note: {program} not found; skipping the {what} bot test");
    }
    ok.then_some(program)
}

fn python() -> Option<&'static str> {
    interpreter("python3", "Python")
}

fn python_bot() -> Option<Proc> {
    let py = python()?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bots/python/random_bot.py");
    Some(Proc::spawn(py, &[script]))
}

#[test]
fn python_random_bot_speaks_the_protocol() {
    let Some(mut bot) = python_bot() else {
        return;
    };
    match bot.handshake() {
        FromBot::Ready { name, .. } => assert_eq!(name, "python-random"),
        other => panic!("{other:?}"),
    }
    bot.send(&start_msg(Side::Black, 9));
    bot.send(&ToBot::Ping { id: 4 });
    assert_eq!(bot.msg(), FromBot::Pong { id: 4 });
    // A hand-written request with a legal list.
    let req = Request::from_game(0, &Game::new(Settings::plays(3))).unwrap();
    let mut state = serde_json::to_value(&req.state).unwrap();
    state["phase"] = "action".into();
    let line = serde_json::json!({
        "type": "request", "id": 5, "decision": "move", "side": "white", "state": state,
        "clocks": req.clocks, "deadline_ms": 1000, "legal": ["e4e5", "e4^e7", "d5d6"],
        "a_future_field": true,
    });
    bot.send_raw(&line.to_string()).unwrap();
    let a = bot.action(5);
    assert!(["e4e5", "e4^e7", "d5d6"].contains(&a.as_str()), "{a}");
    // Formations for real states, offense and defense, over many spots.
    let mut id = 10;
    let mut spots = std::collections::HashSet::new();
    for game in samples(25) {
        let Some(req) = Request::from_game(id, &game) else {
            continue;
        };
        if req.decision != DecisionKind::Formation {
            continue;
        }
        spots.insert((game.spot(), req.side == game.offense()));
        bot.send(&req.to_message());
        let text = bot.action(id);
        check_answer(&game, &req, &text, "python");
        id += 1;
    }
    assert!(spots.len() >= 10, "{spots:?}");
    // And on every spot of the field, for both teams.
    forms_on_every_spot(&mut bot, id, "python");
    bot.quit();
}

#[test]
fn python_random_bot_plays_a_whole_game_against_greedy() {
    let Some(mut white) = python_bot() else {
        return;
    };
    let mut black = Proc::bin("greedy", &["--depth", "1"]);
    let game = referee_game(&mut white, &mut black, 5, 3);
    assert!(game.is_over());
}

/// A Python bot outside `bots/python/` (it finds `zebra_bot` by its path) whose `decide`
/// builds White's formations from a shape and raises for everything else: the helper's
/// fallback answers every decision legally (formations included) for a whole game.
#[test]
fn python_helper_builds_shaped_formations_and_its_fallback_is_always_legal() {
    let Some(py) = python() else {
        return;
    };
    let dir = scratch("python");
    let script = dir.join("my_bot.py");
    std::fs::write(
        &script,
        format!(
            r#"import sys
sys.dont_write_bytecode = True
sys.path.insert(0, {helper:?})
import zebra_bot
zebra_bot.log = lambda *parts: None  # the tracebacks below are expected
SHAPE = [("Q", 0, -1), ("R", -2, 0), ("R", 2, 0), ("P", -1, 0), ("K", 0, -3)]

def decide(request):
    if request["decision"] == "formation" and request["side"] == "white":
        return zebra_bot.formation(request["state"], request["side"], None, SHAPE)
    raise RuntimeError("a bug in decide")

zebra_bot.run(decide, name="py-shaped")
"#,
            helper = concat!(env!("CARGO_MANIFEST_DIR"), "/bots/python"),
        ),
    )
    .unwrap();
    for seed in [3, 4] {
        let mut white = Proc::spawn(py, &[script.to_str().unwrap()]);
        let mut black = Proc::spawn(py, &[script.to_str().unwrap()]);
        let game = referee_game(&mut white, &mut black, seed, 2);
        assert!(game.is_over());
    }
    // The shape is honoured where the rules allow it: the quarterback behind the snapper.
    let out = Command::new(py)
        .args(["-B", "-c"])
        .arg(format!(
            "import sys; sys.path.insert(0, {:?}); import zebra_bot, random; \
             print(zebra_bot.formation({{'offense': 'black', 'spot': 'd4', 'pieces': []}}, 'black', random.Random(1), [('Q', 0, -1), ('K', 0, -2)]))",
            concat!(env!("CARGO_MANIFEST_DIR"), "/bots/python")
        ))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Pd4") && text.contains("Qd5") && text.contains("Kd6"),
        "{text}"
    );
    // A shape longer than a formation holds: seven pieces, two pawns among them.
    let out = Command::new(py)
        .args(["-B", "-c"])
        .arg(format!(
            "import sys; sys.path.insert(0, {:?}); import zebra_bot, random; \
             print(zebra_bot.formation({{'offense': 'white', 'spot': 'e4', 'pieces': []}}, 'white', random.Random(1), \
             [('Q', 0, -1), ('R', -1, 0), ('R', 1, 0), ('B', -2, 0), ('B', 2, 0), ('N', -3, 0), ('N', 3, 0)]))",
            concat!(env!("CARGO_MANIFEST_DIR"), "/bots/python")
        ))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches(',').count(), 6, "seven pieces: {text}");
    assert!(text.matches('P').count() >= 2, "two pawns: {text}");
}

// ---- the JavaScript example ----

fn node() -> Option<&'static str> {
    interpreter("node", "JavaScript")
}

fn js_bot() -> Option<Proc> {
    let node = node()?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bots/js/random_bot.js");
    Some(Proc::spawn(node, &[script]))
}

#[test]
fn js_random_bot_speaks_the_protocol() {
    let Some(mut bot) = js_bot() else {
        return;
    };
    match bot.handshake() {
        FromBot::Ready { name, .. } => assert_eq!(name, "js-random"),
        other => panic!("{other:?}"),
    }
    bot.send(&start_msg(Side::White, 11));
    bot.send(&ToBot::Ping { id: 7 });
    assert_eq!(bot.msg(), FromBot::Pong { id: 7 });
    // Every decision kind of real positions, answered legally.
    let mut id = 10;
    for game in samples(25) {
        let Some(req) = Request::from_game(id, &game) else {
            continue;
        };
        bot.send(&req.to_message());
        let text = bot.action(id);
        check_answer(&game, &req, &text, "js");
        id += 1;
    }
    // Formations on every spot of the field, for both teams.
    forms_on_every_spot(&mut bot, id, "js");
    bot.quit();
}

#[test]
fn js_random_bot_plays_a_whole_game_against_greedy() {
    let Some(mut white) = js_bot() else {
        return;
    };
    let mut black = Proc::bin("greedy", &["--depth", "1"]);
    let game = referee_game(&mut white, &mut black, 6, 3);
    assert!(game.is_over());
}

/// A JavaScript bot outside `bots/js/` (it requires the helper by its path) whose `decide`
/// throws for everything but White's formations, built from a shape longer than a
/// formation holds: the helper's fallback answers every decision legally for whole games.
#[test]
fn js_helper_fallback_is_always_legal() {
    let Some(node) = node() else {
        return;
    };
    let dir = scratch("js");
    let script = dir.join("my_bot.js");
    std::fs::write(
        &script,
        format!(
            r#"const zebra = require({helper:?});
const SHAPE = [['Q', 0, -1], ['R', -1, 0], ['R', 1, 0], ['B', -2, 0], ['B', 2, 0], ['N', -3, 0], ['N', 3, 0]];
zebra.run((request, ctx) => {{
  if (request.decision === 'formation' && request.side === 'white') {{
    return zebra.formation(request.state, request.side, ctx.rng, SHAPE);
  }}
  throw new Error('a bug in decide');
}}, {{ name: 'js-throws' }});
"#,
            helper = concat!(env!("CARGO_MANIFEST_DIR"), "/bots/js/zebra_bot.js"),
        ),
    )
    .unwrap();
    for seed in [3, 4] {
        let mut white = Proc::spawn(node, &[script.to_str().unwrap()]);
        let mut black = Proc::spawn(node, &[script.to_str().unwrap()]);
        let game = referee_game(&mut white, &mut black, seed, 2);
        assert!(game.is_over());
    }
}

// ---- the test bot misbehaves on command ----

fn first_request(id: u64) -> ToBot {
    Request::from_game(id, &Game::new(Settings::plays(3)))
        .unwrap()
        .to_message()
}

/// A request for a state with a legal list (White's motion decision).
fn motion_request(id: u64) -> (Game, ToBot) {
    let mut game = Game::new(Settings::plays(3));
    game.apply(&"[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]".parse().unwrap())
        .unwrap();
    game.apply(&"[Pd6,Pe6,Qe7,Nc7,Bf7,Rd8,Rg6]".parse().unwrap())
        .unwrap();
    let msg = Request::from_game(id, &game).unwrap().to_message();
    (game, msg)
}

fn ready_test_bot(args: &[&str]) -> Proc {
    let mut p = Proc::bin("test", args);
    p.handshake();
    p
}

#[test]
fn test_bot_garbage_non_utf8_and_long_lines() {
    let mut p = ready_test_bot(&["--garbage"]);
    p.send(&first_request(1));
    let line = p.line();
    assert!(
        serde_json::from_slice::<serde_json::Value>(&line).is_err(),
        "{line:?}"
    );

    let mut p = ready_test_bot(&["--non-utf8"]);
    p.send(&first_request(1));
    let line = p.line();
    assert!(std::str::from_utf8(&line).is_err(), "{line:?}");

    let mut p = ready_test_bot(&["--long-line", "100000"]);
    let (_, req) = motion_request(2);
    p.send(&req);
    let line = p.line();
    assert_eq!(line.len(), 100_001);
    assert_eq!(line.last(), Some(&b'\n'));
    let msg = parse_from_bot(std::str::from_utf8(&line).unwrap().trim_end()).unwrap();
    assert!(matches!(msg, FromBot::Action { id: 2, .. }), "{msg:?}");
}

#[test]
fn test_bot_crashes_after_n_requests() {
    let mut p = ready_test_bot(&["--crash-after", "1"]);
    p.send(&first_request(1));
    p.action(1);
    let status = p.wait(PATIENCE).expect("crashes after one request");
    assert_eq!(status.code(), Some(3));

    let mut p = ready_test_bot(&["--crash-after", "0"]);
    let status = p.wait(PATIENCE).expect("crashes right after ready");
    assert_eq!(status.code(), Some(3));
}

#[test]
fn test_bot_no_ready_no_flush_and_banner() {
    for flag in ["--no-ready", "--no-flush"] {
        let mut p = Proc::bin("test", &[flag]);
        p.send(&hello());
        assert_eq!(p.next(Duration::from_millis(500)), Next::Timeout, "{flag}");
        assert!(p.alive(), "{flag}");
    }
    // Unflushed, nothing ever arrives: not the pong either.
    let mut p = Proc::bin("test", &["--no-flush"]);
    p.send(&hello());
    p.send(&ToBot::Ping { id: 1 });
    p.send(&first_request(2));
    assert_eq!(p.next(Duration::from_millis(500)), Next::Timeout);
    let mut p = Proc::bin("test", &["--banner"]);
    p.send(&hello());
    let banner = p.line();
    assert!(serde_json::from_slice::<serde_json::Value>(&banner).is_err());
    assert_eq!(p.line(), b"\n");
    assert!(matches!(p.msg(), FromBot::Ready { .. }));
}

#[test]
fn test_bot_sleeps_before_replies_after_n_requests() {
    let mut p = ready_test_bot(&["--sleep-ms", "400", "--sleep-after", "1"]);
    p.send(&first_request(1));
    p.action(1);
    let t = Instant::now();
    p.send(&first_request(2));
    p.action(2);
    assert!(
        t.elapsed() >= Duration::from_millis(400),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn test_bot_wrong_stale_and_double_replies() {
    let (game, req) = motion_request(5);
    let illegal = |a: &str| game.clone().apply(&a.parse().unwrap()).is_err();

    let mut p = ready_test_bot(&["--wrong-id"]);
    p.send(&req);
    assert!(matches!(p.msg(), FromBot::Action { id: 1005, action, .. } if illegal(&action)));
    p.action(5);

    let mut p = ready_test_bot(&["--stale-id"]);
    let (_, req3) = motion_request(3);
    p.send(&req3);
    assert!(matches!(p.msg(), FromBot::Action { id: 2, .. }));
    p.action(3);
    p.send(&req);
    assert!(matches!(p.msg(), FromBot::Action { id: 3, action, .. } if illegal(&action)));
    p.action(5);

    let mut p = ready_test_bot(&["--double-reply"]);
    p.send(&req);
    let a = p.action(5);
    assert_eq!(p.action(5), a);

    let mut p = ready_test_bot(&["--illegal"]);
    p.send(&req);
    let a = p.action(5);
    a.parse::<Action>().expect("well-formed");
    assert!(illegal(&a), "{a}");
}

#[test]
fn test_bot_ignores_quit_and_sigterm() {
    let mut p = ready_test_bot(&["--ignore-quit", "--ignore-sigterm"]);
    p.send(&ToBot::Quit);
    p.close_stdin();
    thread::sleep(Duration::from_millis(500));
    assert!(p.alive());
    unsafe {
        libc::kill(p.child.id() as libc::pid_t, libc::SIGTERM);
    }
    thread::sleep(Duration::from_millis(300));
    assert!(p.alive());
    // Dropping `p` kills it (SIGKILL).
}

#[test]
fn test_bot_forks_a_child_that_outlives_it() {
    let mut p = ready_test_bot(&["--fork"]);
    let start = Instant::now();
    let pid = loop {
        let text = p.stderr_text();
        if let Some(rest) = text.split("child-pid ").nth(1) {
            break rest
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<libc::pid_t>()
                .unwrap();
        }
        assert!(start.elapsed() < PATIENCE, "no child-pid on stderr");
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(unsafe { libc::kill(pid, 0) }, 0, "child {pid} exists");
    p.quit();
    assert_eq!(
        unsafe { libc::kill(pid, 0) },
        0,
        "child {pid} outlives the bot"
    );
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

#[test]
fn test_bot_floods_stderr_before_ready() {
    let mut p = Proc::bin("test", &["--stderr-flood", "3"]);
    p.send(&hello());
    assert!(matches!(p.msg(), FromBot::Ready { .. }));
    // The stderr reader thread may still be draining: wait for it, with a deadline.
    let start = Instant::now();
    while p.stderr_len() < 3 << 20 && start.elapsed() < PATIENCE {
        thread::sleep(Duration::from_millis(10));
    }
    assert!(p.stderr_len() >= 3 << 20, "{}", p.stderr_len());
}

#[test]
fn test_bot_closes_stdout_and_keeps_running() {
    let mut p = ready_test_bot(&["--close-stdout-after", "1"]);
    p.send(&first_request(1));
    p.action(1);
    assert_eq!(p.next(PATIENCE), Next::Eof);
    assert!(p.alive());
    p.quit();
}

/// R57, R58 end to end: a bot that fields its king in every defensive formation (a dead-ball
/// foul each time) loses to the greedy bot by at least four touchdowns, as White and as
/// Black. Under rulings edition 1 it held greedy to 7-0 by fouling at its goal line. The
/// clocks are generous so that a busy machine cannot turn the game into timeouts.
#[test]
fn fouling_on_every_defensive_formation_does_not_pay() {
    let fouler = env!("CARGO_BIN_EXE_zebra-fouling-bot");
    let greedy = env!("CARGO_BIN_EXE_zebra-greedy-bot");
    for fouler_side in Side::ALL {
        let (white, black) = match fouler_side {
            Side::White => (fouler, greedy),
            Side::Black => (greedy, fouler),
        };
        let out = Command::new(env!("CARGO_BIN_EXE_zebra"))
            .args(["play", "--white", white, "--black", black, "--quiet"])
            .args(["--seed", "7", "--tc", "plays=10,play=30s,reaction=10s"])
            .output()
            .expect("zebra runs");
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(
            out.status.success(),
            "{line}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // result 0-1 (normal) white NAME 0 black NAME 56
        let words: Vec<&str> = line.split_whitespace().collect();
        let score = |side: &str| -> u32 {
            let i = words.iter().position(|w| *w == side).expect(&line);
            words[i + 2].parse().expect(&line)
        };
        let (fouler_points, greedy_points) = match fouler_side {
            Side::White => (score("white"), score("black")),
            Side::Black => (score("black"), score("white")),
        };
        assert!(
            greedy_points >= fouler_points + 28,
            "the fouling bot as {fouler_side} lost by less than four touchdowns: {line}"
        );
    }
}

/// Game 64 of the 100-game match against the sparring bot, its last play (4th quarter,
/// 14-14, 3rd & 5 at e4): the search bot's king has the ball and the defense covers every
/// square ahead of it. The bot used to move its rook g2-d2 and back, the same two positions
/// a dozen times each, until the 64-turn whistle (R13) ended the play and the game in a
/// draw. Played out against the sparring bot with clocks that never bind (only the node
/// budgets decide, so the play is the same on any machine), no position of the bot's own
/// making comes back more than twice (a repetition costs it a little, more each time), and
/// the play ends in its touchdown.
#[test]
fn search_does_not_shuffle_when_the_play_is_stuck() {
    let diagram = "offense: black\nphase: action\nturn: black\ndown: 3\nspot: e4\nto-gain: 3\n\
                   quarter: 4\nscore: 14-14\ntimeouts: 1-2\nplays: 9\nquarter-length: 10\n\
                   8 . . . . . . . .\n\
                   7 . . . . . . . .\n\
                   6 . . . . k* . . .\n\
                   5 . . . b . . . .\n\
                   4 q . r . p p r .\n\
                   3 . Q P N P N . .\n\
                   2 . . . . . . . .\n\
                   1 . R . . . . R .\n";
    let mut game = Game::from_diagram(diagram).expect("game 64's last play");
    let mut me = search::SearchBot::new("search", search::DEFAULTS, false);
    let mut them = sparring::SparringBot::new("sparring");
    me.game_start(&game_start(Side::Black, 64));
    them.game_start(&game_start(Side::White, 64));
    let mut made: Vec<(zebra::rules::Board, zebra::rules::Ball)> = Vec::new();
    let mut moves = Vec::new();
    while let Some(mut req) = Request::from_game(moves.len() as u64, &game) {
        if !matches!(req.decision, DecisionKind::Move | DecisionKind::Contention) {
            break;
        }
        req.deadline_ms = 600_000;
        let text = if req.side == Side::Black {
            me.decide(&req)
        } else {
            them.decide(&req)
        };
        assert!(req.legal_list().contains(&text), "{text} is not legal");
        let action: Action = text.parse().expect("an action");
        moves.push(text);
        game.apply(&action).expect("a legal action");
        if req.side == Side::Black {
            let now = (game.board().clone(), game.ball());
            let before = made.iter().filter(|&p| *p == now).count();
            assert!(
                before < 3,
                "the bot's move made a position for the fourth time: {}",
                moves.join(" ")
            );
            made.push(now);
        }
    }
    assert_eq!(
        game.score(Side::Black),
        21,
        "no touchdown: {}",
        moves.join(" ")
    );
}

/// `zebra check-bot --rules chess-eleven` passes for the bundled random and greedy bots and
/// for the Python and JavaScript kits' example bots (each a real process: questions at
/// every moment of a go, then whole games).
#[test]
fn the_bundled_bots_and_the_kits_examples_pass_check_bot_for_chess_eleven() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut bots = vec![
        common::run::RANDOM_BOT.to_string(),
        common::run::GREEDY_BOT.to_string(),
    ];
    if let Some(py) = python() {
        bots.push(format!("{py} {root}/bots/python/random_bot.py"));
    }
    if let Some(node) = node() {
        bots.push(format!("{node} {root}/bots/js/random_bot.js"));
    }
    for bot in bots {
        let out = common::run::zebra(&["check-bot", "--rules", "chess-eleven", &bot]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{bot}: {said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.contains("formation decision"), "{bot}: {said}");
    }
}

/// The tutorial's bot (`bots/python/first_bot.py`, shown whole in the book's "Your first
/// bot") scores above 60% against the bundled random bot over 20 games of the default
/// series (the built-in book, sides swapped). Clocks that never bind on a busy machine:
/// only the bots' choices decide.
#[test]
fn tutorial_bot_beats_random() {
    let Some(py) = python() else {
        return;
    };
    let dir = scratch("tutorial");
    let bot = format!(
        "{py} {}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/bots/python/first_bot.py")
    );
    let out = Command::new(env!("CARGO_BIN_EXE_zebra"))
        .args(["match", "--bot", &bot, "--bot"])
        .arg(env!("CARGO_BIN_EXE_zebra-random-bot"))
        .args(["--games", "20", "--seed", "1", "--out"])
        .arg(dir.join("series"))
        .args(["--tc", "plays=10,play=30s,reaction=10s"])
        .output()
        .expect("zebra runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // mybot vs random: +15 =3 -2  score 82.5%  ...
    let line = text
        .lines()
        .find(|l| l.starts_with("mybot vs random:"))
        .unwrap_or_else(|| panic!("no standings line in:\n{text}"));
    let count = |mark: char| -> u32 {
        let word = line
            .split_whitespace()
            .find(|w| w.starts_with(mark) && w[1..].parse::<u32>().is_ok())
            .unwrap_or_else(|| panic!("{line}"));
        word[1..].parse().unwrap()
    };
    let (wins, draws, losses) = (count('+'), count('='), count('-'));
    assert_eq!(wins + draws + losses, 20, "{line}");
    let score = f64::from(wins) + f64::from(draws) / 2.0;
    assert!(
        score / 20.0 > 0.6,
        "the tutorial bot scored {score}/20: {line}"
    );
    // Clean play: no timeouts, no illegal replies.
    assert!(
        text.contains("mybot: timeouts 0, illegal replies 0, forfeits 0"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
