//! Rule tests as case files (`tests/data/rules/*.txt`): a position, the actions played on
//! it, and what each gave, compared through `Display` (the events' lines, or the error's
//! message) or the game's text format (the diagram after a step). The format is described at the top of each file. One test reads a whole file,
//! replays every case and fails naming every case that differs, with the lines expected and
//! got; with `ZEBRA_REGENERATE=1` it rewrites the expected lines instead (review the diff).

use std::fmt::Write as _;

use zebra::rules::{Action, Clock, Game, Settings};

/// One line of a case after its position.
enum Step {
    /// `> ACTION`: apply it.
    Apply(String),
    /// `> expire CLOCK`: the referee reports that the clock ran out.
    Expire(String),
    /// `> legal`: every legal action, in the engine's order.
    Legal,
    /// `> board`: the game as it stands, as a diagram (`Game::to_diagram`).
    Board,
}

/// A case as read: its name, position, steps, and the expected lines after each step.
struct Case {
    name: String,
    /// The line of `== NAME` (1-based), for messages.
    line: usize,
    position: Vec<String>,
    steps: Vec<(Step, Vec<String>)>,
}

/// The file's cases, or a message naming the line at fault.
fn read_cases(text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(name) = line.strip_prefix("== ") {
            let name = name.trim().to_string();
            if cases.iter().any(|c| c.name == name) {
                return Err(format!("line {n}: case '{name}' appears twice"));
            }
            cases.push(Case {
                name,
                line: n,
                position: Vec::new(),
                steps: Vec::new(),
            });
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(case) = cases.last_mut() else {
            return Err(format!("line {n}: '{line}' before the first '== NAME'"));
        };
        if let Some(step) = line.strip_prefix("> ") {
            let step = step.trim();
            let step = if step == "legal" {
                Step::Legal
            } else if step == "board" {
                Step::Board
            } else if let Some(clock) = step.strip_prefix("expire ") {
                Step::Expire(clock.trim().to_string())
            } else {
                Step::Apply(step.to_string())
            };
            case.steps.push((step, Vec::new()));
        } else if let Some(expected) = line.strip_prefix("  ") {
            let Some((_, lines)) = case.steps.last_mut() else {
                return Err(format!("line {n}: an expected line before any '> ' step"));
            };
            lines.push(expected.to_string());
        } else if case.steps.is_empty() {
            case.position.push(line.to_string());
        } else {
            return Err(format!(
                "line {n}: '{line}' is neither a step ('> ') nor an expected line (two spaces)"
            ));
        }
    }
    Ok(cases)
}

/// The case's starting game: `new: timed`, `new: plays N`, or a diagram.
fn start(position: &[String]) -> Result<Game, String> {
    match position {
        [only] if only.starts_with("new:") => match only["new:".len()..].trim() {
            "timed" => Ok(Game::new(Settings::timed())),
            other => other
                .strip_prefix("plays ")
                .and_then(|n| n.trim().parse().ok())
                .map(|n| Game::new(Settings::plays(n)))
                .ok_or_else(|| format!("'{only}': new: timed, or new: plays N")),
        },
        [] => Err("no position".to_string()),
        rows => Game::from_diagram(&rows.join("\n")).map_err(|e| format!("bad diagram: {e}")),
    }
}

/// What one step gave, as the lines the file holds after it. A rejected action or expiry
/// must leave the game as it was; a step that changed it says so in its lines.
fn outcome(g: &mut Game, step: &Step) -> Result<Vec<String>, String> {
    let before = g.clone();
    let result = match step {
        Step::Legal => {
            let list: Vec<String> = g
                .legal_action_list()
                .iter()
                .map(|a| a.to_string())
                .collect();
            return Ok(vec![list.join(" ")]);
        }
        Step::Board => return Ok(g.to_diagram().lines().map(str::to_string).collect()),
        Step::Apply(text) => {
            let action: Action = text
                .parse()
                .map_err(|e| format!("'{text}' is not an action: {e}"))?;
            g.apply(&action).map(|ev| ev.to_vec())
        }
        Step::Expire(text) => {
            let clock: Clock = text
                .parse()
                .map_err(|e| format!("'{text}' is not a clock: {e}"))?;
            g.expire(clock).map(|ev| ev.to_vec())
        }
    };
    Ok(match result {
        Ok(events) if events.is_empty() => vec!["(no events)".to_string()],
        Ok(events) => events.iter().map(|e| e.to_string()).collect(),
        Err(e) => {
            let mut lines = vec![format!("error: {e}")];
            if *g != before {
                lines.push("(the rejected step changed the game)".to_string());
            }
            lines
        }
    })
}

/// Replays a case: the lines each step gave, in order, or why the case cannot run.
fn replay(case: &Case) -> Result<Vec<Vec<String>>, String> {
    if case.steps.is_empty() {
        return Err("no step ('> ')".to_string());
    }
    let mut g = start(&case.position)?;
    case.steps.iter().map(|(s, _)| outcome(&mut g, s)).collect()
}

fn step_text(step: &Step) -> String {
    match step {
        Step::Apply(a) => a.clone(),
        Step::Expire(c) => format!("expire {c}"),
        Step::Legal => "legal".to_string(),
        Step::Board => "board".to_string(),
    }
}

/// The file with every step's expected lines replaced by `got` (per case, per step).
fn rewritten(text: &str, got: &[Vec<Vec<String>>]) -> String {
    let mut out = String::new();
    let mut case = None::<usize>;
    let mut step = 0;
    for line in text.lines() {
        if line.starts_with("== ") {
            case = Some(case.map_or(0, |c| c + 1));
            step = 0;
        } else if line.starts_with("  ") && !line.trim().is_empty() {
            continue; // expected lines: written after their step
        }
        out.push_str(line);
        out.push('\n');
        if line.starts_with("> ") {
            let c = case.expect("a step belongs to a case");
            for l in &got[c][step] {
                let _ = writeln!(out, "  {l}");
            }
            step += 1;
        }
    }
    out
}

/// Replays every case of `tests/data/rules/<file>`; fails naming each case that differs.
fn check_file(file: &str) {
    let path = format!("{}/tests/data/rules/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = read_cases(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path}: no case");
    let regenerate = std::env::var("ZEBRA_REGENERATE").as_deref() == Ok("1");
    let mut failures = Vec::new();
    let mut all = Vec::new();
    for case in &cases {
        let got = match replay(case) {
            Ok(got) => got,
            Err(e) => {
                failures.push(format!("{path}:{}: case {}: {e}", case.line, case.name));
                println!("case {} ... FAILED", case.name);
                continue;
            }
        };
        let mut diff = String::new();
        for ((step, want), got) in case.steps.iter().zip(&got) {
            if want != got {
                let _ = writeln!(diff, "  > {}", step_text(step));
                for l in want {
                    let _ = writeln!(diff, "  - {l}");
                }
                for l in got {
                    let _ = writeln!(diff, "  + {l}");
                }
            }
        }
        if diff.is_empty() {
            println!("case {} ... ok", case.name);
        } else {
            println!("case {} ... FAILED", case.name);
            failures.push(format!(
                "{path}:{}: case {} (- expected, + got):\n{diff}",
                case.line, case.name
            ));
        }
        all.push(got);
    }
    if regenerate {
        assert!(
            all.len() == cases.len(),
            "not rewritten, cases that cannot run:\n{}",
            failures.join("\n")
        );
        std::fs::write(&path, rewritten(&text, &all)).unwrap();
        eprintln!("ZEBRA_REGENERATE=1: rewrote {path}");
        return;
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ (ZEBRA_REGENERATE=1 rewrites the expected lines):\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The cases of `errors.txt`: every wrong action or expiry is refused with an error naming
/// the problem, and leaves the game unchanged.
#[test]
fn errors_cases_file() {
    check_file("errors.txt");
}

/// The cases of `movement.txt`: how each piece moves, pushes, tackles and trucks (4.1, 2.1),
/// knight routes (R26), out of bounds (R12) and the pass (R48).
#[test]
fn movement_cases_file() {
    check_file("movement.txt");
}

/// The cases of `throwing.txt`: who throws where (4.3, R11), direct and indirect throws
/// (R31, R32), interceptions and catches (R33) and the forward pass limits (R34).
#[test]
fn throwing_cases_file() {
    check_file("throwing.txt");
}

/// The cases of `ball_carrier.txt`: possession and handoffs (4.2, R8), a loose ball dead on
/// file a or h (R30), and tackles and trucks after a change of possession (R10).
#[test]
fn ball_carrier_cases_file() {
    check_file("ball_carrier.txt");
}
