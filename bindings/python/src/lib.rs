//! `zebra_engine`: Zebra's Football Chess rules engine as a Python module.
//!
//! One class, [`PyGame`] (`zebra_engine.Game`), wraps the engine's `Game`: the same legal
//! actions, the same events and the same errors as the referee's, in notation strings and
//! JSON-like dicts. Every rejection is a typed Python exception under `ZebraError`, and no
//! engine panic crosses into the interpreter: each call into the engine runs under
//! `catch_unwind` and on a copy where it changes the game, so a failure leaves the game as
//! it was and raises `ZebraError`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;

use engine::botkit;
use engine::games::football_chess::wire::penalty::{preview, PenaltyOption};
use engine::games::football_chess::wire::state::{phase_name, StateError, StateMsg};
use engine::rules::game::FormationCheck;
use engine::rules::{
    Action, ActionError, Ball, Clock, Formation, Game, GameResult, Phase, Settings, Side,
    Situation, Square,
};

create_exception!(
    zebra_engine,
    ZebraError,
    PyException,
    "The base of every error the engine raises."
);
create_exception!(
    zebra_engine,
    NotationError,
    ZebraError,
    "A string that is not an action in notation (protocol/RULES.md), or not a clock, side or formation."
);
create_exception!(
    zebra_engine,
    IllegalAction,
    ZebraError,
    "A well-formed action the rules do not allow in this position. The game is unchanged."
);
create_exception!(
    zebra_engine,
    WrongPhase,
    IllegalAction,
    "An action of another phase than the game's (a snap during a formation, any action once the game is over). The game is unchanged."
);
create_exception!(
    zebra_engine,
    InvalidState,
    ZebraError,
    "A request, state or situation that does not describe a game."
);
create_exception!(
    zebra_engine,
    DiagramError,
    InvalidState,
    "Diagram text that does not describe a position (the message names the line)."
);

/// Runs `f` so that an engine panic becomes `ZebraError` instead of unwinding into Python.
fn guarded<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let detail = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            Err(ZebraError::new_err(format!(
                "the engine failed in {what}: {detail}"
            )))
        }
    }
}

fn parse_action(text: &str) -> PyResult<Action> {
    text.parse::<Action>()
        .map_err(|e| NotationError::new_err(e.to_string()))
}

/// The exception for a rejected action: the wrong moment, or the wrong move.
fn action_error(e: ActionError) -> PyErr {
    match e {
        ActionError::GameOver
        | ActionError::NotNow { .. }
        | ActionError::ClockNotRunning { .. } => WrongPhase::new_err(e.to_string()),
        _ => IllegalAction::new_err(e.to_string()),
    }
}

fn state_error(e: StateError) -> PyErr {
    match e {
        StateError::Diagram(d) => DiagramError::new_err(d.to_string()),
        other => InvalidState::new_err(other.to_string()),
    }
}

/// A JSON value as the Python value `json.loads` would give.
fn to_python(py: Python<'_>, value: &Value) -> PyResult<PyObject> {
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|v| to_python(py, v))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// Anything serde serializes, as Python values (the protocol's JSON shapes).
fn serialized<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<PyObject> {
    let json = serde_json::to_value(value)
        .map_err(|e| ZebraError::new_err(format!("cannot serialize: {e}")))?;
    to_python(py, &json)
}

/// A request or state given as a dict (or any JSON-serializable mapping) or as JSON text.
fn json_of(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let text: String = if let Ok(s) = obj.downcast::<PyString>() {
        s.extract::<String>()?
    } else if obj.downcast::<PyDict>().is_ok() {
        let dumps = obj.py().import("json")?.getattr("dumps")?;
        dumps
            .call1((obj,))
            .map_err(|e| InvalidState::new_err(format!("the dict is not JSON: {e}")))?
            .extract()?
    } else {
        return Err(PyTypeError::new_err(format!(
            "expected a request or state as a dict or JSON text, got {}",
            obj.get_type().name()?
        )));
    };
    serde_json::from_str(&text).map_err(|e| InvalidState::new_err(format!("not JSON: {e}")))
}

fn side_name(side: Side) -> &'static str {
    side.name()
}

fn parse_side(text: &str) -> PyResult<Side> {
    text.parse()
        .map_err(|_| NotationError::new_err(format!("'{text}' is not a side (white or black)")))
}

/// A whole game of Football Chess: the engine's state and rules.
///
/// Actions are strings in the notation of protocol/RULES.md (`e4e5`, `e4^e7`, `snap`,
/// `pass`, `accept:holding`, formations like `[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]`). Events are
/// dicts exactly as in the protocol's `event` message: `{"event": "tackle", "at": "e4"}`.
#[pyclass(module = "zebra_engine", name = "Game", eq)]
#[derive(Clone, PartialEq)]
pub struct PyGame {
    game: Game,
}

#[pymethods]
impl PyGame {
    /// A new game: White has the ball on its own 20 and forms first.
    ///
    /// plays_per_quarter: quarters of that many plays (reproducible games without clocks);
    /// None (the default) for timed quarters, which end only by `expire("game-clock")`.
    /// situation: a start situation (protocol/SITUATIONS.md), e.g.
    /// "quarter=4 left=10% score=14-17 offense=white spot=e3 down=3 distance=10 timeouts=1-2".
    #[new]
    #[pyo3(signature = (plays_per_quarter=None, situation=None))]
    fn py_new(plays_per_quarter: Option<u16>, situation: Option<&str>) -> PyResult<Self> {
        let settings = match plays_per_quarter {
            Some(0) => {
                return Err(InvalidState::new_err(
                    "plays_per_quarter must be at least 1",
                ))
            }
            Some(n) => Settings::plays(n),
            None => Settings::timed(),
        };
        let game = match situation {
            None => Game::new(settings),
            Some(text) => {
                let situation: Situation = text
                    .parse()
                    .map_err(|e| InvalidState::new_err(format!("situation: {e}")))?;
                guarded("from_situation", || {
                    Ok(Game::from_situation(settings, &situation))
                })?
            }
        };
        Ok(PyGame { game })
    }

    /// The same as `Game(...)`: a new game (see the class docs).
    #[staticmethod]
    #[pyo3(signature = (plays_per_quarter=None, situation=None))]
    fn new(plays_per_quarter: Option<u16>, situation: Option<&str>) -> PyResult<Self> {
        Self::py_new(plays_per_quarter, situation)
    }

    /// The game a position diagram describes (protocol/RULES.md, "Diagrams"). Diagrams
    /// describe every phase but a penalty decision and a finished game.
    ///
    /// Raises DiagramError naming the faulty line.
    #[staticmethod]
    fn from_diagram(text: &str) -> PyResult<Self> {
        let game = guarded("from_diagram", || {
            Game::from_diagram(text).map_err(|e| DiagramError::new_err(e.to_string()))
        })?;
        Ok(PyGame { game })
    }

    /// The game of a protocol `request` (its `state`, and in a penalty decision its
    /// `penalty_options`), or of a bare `state`: a dict as `json.loads` gives it, or the
    /// JSON text. Penalty decisions are rebuilt too (diagrams leave their flags out); a
    /// request's `penalty_options` settle which flags fell after a change of possession.
    ///
    /// Raises InvalidState (DiagramError for a bad diagram), TypeError for a non-dict.
    #[staticmethod]
    fn from_request(request: &Bound<'_, PyAny>) -> PyResult<Self> {
        let json = json_of(request)?;
        let Value::Object(map) = &json else {
            return Err(InvalidState::new_err("expected a JSON object"));
        };
        let (state, options) = match map.get("state") {
            Some(state) => (state.clone(), map.get("penalty_options").cloned()),
            None => (json.clone(), None),
        };
        let state: StateMsg = serde_json::from_value(state)
            .map_err(|e| InvalidState::new_err(format!("not a Football Chess state: {e}")))?;
        let options: Option<Vec<PenaltyOption>> = match options {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                serde_json::from_value(v)
                    .map_err(|e| InvalidState::new_err(format!("penalty_options: {e}")))?,
            ),
        };
        let game = guarded("from_request", || {
            state.game_matching(options.as_deref()).map_err(state_error)
        })?;
        Ok(PyGame { game })
    }

    /// The position as diagram text (`Game.from_diagram` reads it back, except in a penalty
    /// decision or a finished game).
    fn diagram(&self) -> String {
        self.game.to_diagram()
    }

    /// The whole game as the protocol's `state` dict (pieces, ball, series, flags, ...).
    fn state(&self, py: Python<'_>) -> PyResult<PyObject> {
        let state = guarded("state", || Ok(StateMsg::of(&self.game)))?;
        serialized(py, &state)
    }

    /// The kind of decision asked now: "formation", "motion" (a motion or the snap),
    /// "reaction", "move" (an action-phase move or throw), "contention", "penalty"; None
    /// once the game is over. The same names as the protocol's `decision`.
    #[getter]
    fn decision(&self) -> Option<&'static str> {
        self.game.decision().map(|d| d.kind.code())
    }

    /// The side that must decide now, "white" or "black"; None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        self.game.to_move().map(side_name)
    }

    /// The phase: "formation", "motion", "reaction", "action", "contention", "penalty" or
    /// "over" (the protocol's `state.phase`).
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.game.phase())
    }

    /// Every legal action now, in notation. Empty in a formation phase (formations are not
    /// enumerable: see `random_formation` and `check_formation`) and once the game is over.
    /// Includes "timeout" when the deciding team may call one, and actions that draw a flag.
    fn legal_actions(&self) -> PyResult<Vec<String>> {
        guarded("legal_actions", || {
            Ok(self
                .game
                .legal_action_list()
                .iter()
                .map(Action::to_string)
                .collect())
        })
    }

    /// Whether `action` (notation) may be applied now: a legal listed action, or a
    /// formation that can be placed (it may still draw a flag). Never raises on a string.
    fn is_legal(&self, action: &str) -> bool {
        let Ok(action) = action.parse::<Action>() else {
            return false;
        };
        let mut copy = self.game.clone();
        catch_unwind(AssertUnwindSafe(|| copy.apply(&action).is_ok())).unwrap_or(false)
    }

    /// Applies one team's decision (notation) and returns the events it caused, in order,
    /// as protocol event dicts (`{"event": "moved", "side": "white", ...}`).
    ///
    /// Raises NotationError (not notation), WrongPhase (not possible in this phase, or the
    /// game is over), IllegalAction (against the rules); the game is then unchanged.
    fn apply(&mut self, py: Python<'_>, action: &str) -> PyResult<Vec<PyObject>> {
        let action = parse_action(action)?;
        let mut next = self.game.clone();
        let events = guarded("apply", || next.apply(&action).map_err(action_error))?;
        self.game = next;
        events.iter().map(|e| serialized(py, e)).collect()
    }

    /// A copy of the game after `action`, this game unchanged: the step of a search, with
    /// no events to build. Raises as `apply` does.
    fn after(&self, action: &str) -> PyResult<Self> {
        let action = parse_action(action)?;
        let mut next = self.game.clone();
        guarded("after", || {
            next.apply(&action).map_err(action_error)?;
            Ok(())
        })?;
        Ok(PyGame { game: next })
    }

    /// Applies a clock the referee saw run out: "play-clock" (delay of game),
    /// "reaction-clock" (the deciding team missed its decision) or "game-clock" (a timed
    /// quarter is up). Returns the events. Raises NotationError or WrongPhase.
    fn expire(&mut self, py: Python<'_>, clock: &str) -> PyResult<Vec<PyObject>> {
        let clock: Clock = clock.parse().map_err(|_| {
            NotationError::new_err(format!(
                "'{clock}' is not a clock (play-clock, reaction-clock, game-clock)"
            ))
        })?;
        let mut next = self.game.clone();
        let events = guarded("expire", || next.expire(clock).map_err(action_error))?;
        self.game = next;
        events.iter().map(|e| serialized(py, e)).collect()
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        let decision = match self.game.decision() {
            Some(d) => format!("{} {}", d.side, d.kind.code()),
            None => format!("over {}", self.game.result().map_or("*", GameResult::pgn)),
        };
        format!(
            "<zebra_engine.Game Q{} {}-{}, {} ball, down {} at {}, {}>",
            self.game.quarter(),
            self.game.score(Side::White),
            self.game.score(Side::Black),
            self.game.offense(),
            self.game.down(),
            self.game.spot(),
            decision
        )
    }

    /// Whether the game is over (four quarters played, R16).
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The result once the game is over, as a PGN token: "1-0", "0-1" or "1/2-1/2" (level
    /// after four quarters); None before.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.game.result().map(GameResult::pgn)
    }

    /// The winning side once the game is over ("white" or "black"); None for a draw or
    /// before the end.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        match self.game.result() {
            Some(GameResult::Win(side)) => Some(side_name(side)),
            _ => None,
        }
    }

    /// The score as (white, black).
    #[getter]
    fn score(&self) -> (u16, u16) {
        (self.game.score(Side::White), self.game.score(Side::Black))
    }

    /// Timeouts left this half as (white, black).
    #[getter]
    fn timeouts(&self) -> (u8, u8) {
        (
            self.game.timeouts(Side::White),
            self.game.timeouts(Side::Black),
        )
    }

    /// The quarter, 1 to 4.
    #[getter]
    fn quarter(&self) -> u8 {
        self.game.quarter()
    }

    /// Plays counted in this quarter.
    #[getter]
    fn plays_in_quarter(&self) -> u16 {
        self.game.plays_in_quarter()
    }

    /// The team with the ball for this series of downs.
    #[getter]
    fn offense(&self) -> &'static str {
        side_name(self.game.offense())
    }

    /// The team without the ball for this series.
    #[getter]
    fn defense(&self) -> &'static str {
        side_name(self.game.defense())
    }

    /// The team that has, or last had, the ball in this play.
    #[getter]
    fn possession(&self) -> &'static str {
        side_name(self.game.possession())
    }

    /// The down, 1 to 4.
    #[getter]
    fn down(&self) -> u8 {
        self.game.down()
    }

    /// Yards to gain for a first down (5 per rank).
    #[getter]
    fn distance(&self) -> u8 {
        self.game.yards_to_go()
    }

    /// Whether the line to gain is the goal line.
    #[getter]
    fn goal_to_go(&self) -> bool {
        self.game.is_goal_to_go()
    }

    /// The ball spot of this down ("e5"); its rank is the line of scrimmage.
    #[getter]
    fn spot(&self) -> String {
        self.game.spot().to_string()
    }

    /// The line of scrimmage, a rank 1 to 8.
    #[getter]
    fn line_of_scrimmage(&self) -> u8 {
        self.game.line_of_scrimmage().number()
    }

    /// The line to gain, a rank 1 to 8 (the goal line when it is goal to go).
    #[getter]
    fn line_to_gain(&self) -> u8 {
        self.game.line_to_gain().number()
    }

    /// Where the ball is, as the protocol's `state.ball`: {"state": "spotted" | "carried" |
    /// "loose" | "contested" | "in_flight", "square": "e4", ...} (a pass in flight also has
    /// "thrown_from", "thrown_by", "forward", "direct").
    #[getter]
    fn ball(&self, py: Python<'_>) -> PyResult<PyObject> {
        // Built here rather than through the whole state (diagram and all): a search reads
        // the ball at every node.
        let dict = PyDict::new(py);
        let (state, square) = match self.game.ball() {
            Ball::Spotted(s) => ("spotted", s),
            Ball::Carried(s) => ("carried", s),
            Ball::Loose(s) => ("loose", s),
            Ball::Contested(s) => ("contested", s),
            Ball::InFlight(t) => {
                dict.set_item("thrown_from", t.from.name())?;
                dict.set_item("thrown_by", t.side.name())?;
                dict.set_item("forward", t.forward)?;
                dict.set_item("direct", t.direct)?;
                ("in_flight", t.to)
            }
        };
        dict.set_item("state", state)?;
        dict.set_item("square", square.name())?;
        Ok(dict.into_any().unbind())
    }

    /// The squares of `side`'s pieces ("white" or "black"), in square order (a1, b1, ...,
    /// h8). Raises NotationError for another side.
    fn squares(&self, side: &str) -> PyResult<Vec<&'static str>> {
        let side = parse_side(side)?;
        Ok(self.game.board().side(side).map(|sq| sq.name()).collect())
    }

    /// The piece on top at `square` as (side, role), e.g. ("white", "king"); None on an
    /// empty square. Raises NotationError for a bad square.
    fn piece_at(&self, square: &str) -> PyResult<Option<(&'static str, &'static str)>> {
        let square: Square = square
            .parse()
            .map_err(|e: engine::rules::NotationError| NotationError::new_err(e.to_string()))?;
        Ok(self
            .game
            .board()
            .piece_at(square)
            .map(|p| (p.side.name(), p.role.name())))
    }

    /// Every piece on the field as {"side", "role", "square"}, bottom first on a pile.
    #[getter]
    fn pieces(&self, py: Python<'_>) -> PyResult<PyObject> {
        serialized(py, &StateMsg::of(&self.game).pieces)
    }

    /// The flags thrown in this play, not yet enforced: [{"side", "kind", "spot"}].
    #[getter]
    fn flags(&self, py: Python<'_>) -> PyResult<PyObject> {
        serialized(py, &self.game.flags())
    }

    /// In a penalty decision, the finished play that stands if the flags are declined:
    /// {"end", "at", "possession"}; None otherwise.
    #[getter]
    fn pending_play(&self, py: Python<'_>) -> PyResult<PyObject> {
        let Some((end, at, possession)) = self.game.pending_play() else {
            return Ok(py.None());
        };
        let dict = PyDict::new(py);
        dict.set_item("end", end.code())?;
        dict.set_item("at", at.name())?;
        dict.set_item("possession", possession.name())?;
        Ok(dict.into_any().unbind())
    }

    /// In a penalty decision, where each choice leads, one dict per legal choice in the
    /// order of `legal_actions()`: {"action", "offense", "spot", "down", "line_to_gain",
    /// "yards_to_go", "goal_to_go", "score": {"white", "black"}}, exactly the protocol's
    /// `penalty_options`. None outside a penalty decision.
    fn penalty_options(&self, py: Python<'_>) -> PyResult<PyObject> {
        let options = guarded("penalty_options", || Ok(preview(&self.game)))?;
        serialized(py, &options)
    }

    /// In a penalty decision, what the referee plays for a team that does not answer
    /// (R60): the choice best for the deciding team by score margin, then possession, then
    /// field position, then the down. None outside a penalty decision.
    fn penalty_default(&self) -> PyResult<Option<String>> {
        guarded("penalty_default", || {
            Ok(self.game.penalty_default().map(|a| a.to_string()))
        })
    }

    /// Whether the deciding team may call a timeout now.
    fn can_call_timeout(&self) -> bool {
        self.game.can_call_timeout()
    }

    /// Before the snap: the square of the piece that would take the snap (right behind the
    /// snapper), or None (the ball would lie loose).
    fn snap_receiver(&self) -> Option<String> {
        self.game.snap_receiver().map(|s| s.to_string())
    }

    /// The pre-snap foul `action` would draw ("false-start", "offsides", "encroachment",
    /// "illegal-substitution"), or None. Raises NotationError.
    fn presnap_foul(&self, action: &str) -> PyResult<Option<&'static str>> {
        let action = parse_action(action)?;
        Ok(self.game.presnap_foul(&action).map(|f| f.code()))
    }

    /// A legal formation (7 pieces, at least 2 pawns, the snapper and a piece behind it on
    /// offense, no king on defense) for the side forming now, drawn at random from `seed`.
    /// Raises WrongPhase outside a formation phase.
    #[pyo3(signature = (seed=0))]
    fn random_formation(&self, seed: u64) -> PyResult<String> {
        let Phase::Formation(side) = self.game.phase() else {
            return Err(WrongPhase::new_err(format!(
                "no formation is asked now (phase '{}')",
                phase_name(self.game.phase())
            )));
        };
        guarded("random_formation", || {
            Ok(botkit::formation(&self.game, side, seed).to_string())
        })
    }

    /// What the referee makes of a formation (notation) for the side forming now: None if
    /// it is legal, else why: the flag it draws ("too many men", "offsides", ...: it can
    /// still be placed). Raises NotationError for bad notation, IllegalAction for one
    /// that cannot be placed at all, WrongPhase outside a formation phase.
    fn check_formation(&self, formation: &str) -> PyResult<Option<String>> {
        if !matches!(self.game.phase(), Phase::Formation(_)) {
            return Err(WrongPhase::new_err(format!(
                "no formation is asked now (phase '{}')",
                phase_name(self.game.phase())
            )));
        }
        let formation: Formation = formation
            .parse()
            .map_err(|e: engine::rules::NotationError| NotationError::new_err(e.to_string()))?;
        guarded("check_formation", || {
            match self.game.validate_formation(&formation) {
                Ok(()) => Ok(None),
                Err(FormationCheck::Fault(fault)) => Ok(Some(fault.to_string())),
                Err(FormationCheck::Unplaceable(e)) => Err(IllegalAction::new_err(e.to_string())),
            }
        })
    }
}

/// A position of Chess Eleven in play (protocol/CHESS-ELEVEN.md): read from its position
/// text (C53, a request's `state.position`), its legal actions, what an action leads to,
/// perft. Immutable: `after` returns the next position (or the restart it causes).
#[pyclass(module = "zebra_engine", name = "ChessEleven", eq, frozen)]
#[derive(Clone, PartialEq)]
struct PyChessEleven {
    pos: engine::games::chess_eleven::Position,
}

#[pymethods]
impl PyChessEleven {
    #[new]
    fn new(text: &str) -> PyResult<PyChessEleven> {
        let pos =
            text.trim()
                .parse()
                .map_err(|e: engine::games::chess_eleven::ChessElevenError| {
                    InvalidState::new_err(e.to_string())
                })?;
        Ok(PyChessEleven { pos })
    }

    /// The position text (C53).
    fn text(&self) -> String {
        self.pos.to_string()
    }

    fn __repr__(&self) -> String {
        format!("ChessEleven('{}')", self.pos)
    }

    /// The side whose go it is: "white" or "black".
    fn side(&self) -> String {
        self.pos.side().to_string()
    }

    /// Every legal action now, in notation (C51).
    fn legal(&self) -> Vec<String> {
        self.pos.legal().iter().map(|a| a.to_string()).collect()
    }

    /// Whether `action` is legal now.
    fn is_legal(&self, action: &str) -> bool {
        self.legal().iter().any(|a| a == action)
    }

    /// The outcomes a shot at `square` may have: ["goal"] at an empty goal square, else
    /// goal, save or block, corner (C26).
    fn shot_outcomes(&self, square: &str) -> PyResult<Vec<String>> {
        let sq: engine::games::chess_eleven::Sq =
            square
                .parse()
                .map_err(|e: engine::games::chess_eleven::NotationError| {
                    NotationError::new_err(e.to_string())
                })?;
        Ok(self
            .pos
            .shot_outcomes(sq)
            .iter()
            .map(|o| o.name().to_string())
            .collect())
    }

    /// The position after `action` (a shot at a guarded goal needs its `outcome`), or the
    /// restart it causes as a tuple `("goal" | "checkmate" | "stalemate", side, [white,
    /// black])`. Raises NotationError or IllegalAction; this position is unchanged.
    #[pyo3(signature = (action, outcome=None))]
    fn after(&self, py: Python<'_>, action: &str, outcome: Option<&str>) -> PyResult<PyObject> {
        use engine::games::chess_eleven::{Action, RoundEnd};
        let mut parsed: Action =
            action
                .parse()
                .map_err(|e: engine::games::chess_eleven::NotationError| {
                    NotationError::new_err(e.to_string())
                })?;
        if outcome.is_some() && !matches!(parsed, Action::Shot { .. }) {
            return Err(NotationError::new_err(format!(
                "'{action}' is not a shot: only a shot takes an outcome"
            )));
        }
        if let (Action::Shot { outcome: o, .. }, Some(name)) = (&mut parsed, outcome) {
            *o = Some(name.parse().map_err(|_| {
                NotationError::new_err(format!(
                    "'{name}' is not a shot outcome (goal, save, block, corner)"
                ))
            })?);
        }
        let mut next = self.pos.clone();
        let applied = guarded("after", || {
            next.apply(&parsed)
                .map_err(|e| IllegalAction::new_err(e.to_string()))
        })?;
        Ok(match applied.end {
            None => Py::new(py, PyChessEleven { pos: next })?.into_any(),
            Some(end) => {
                let (name, side) = match end {
                    RoundEnd::Goal { by } => ("goal", by),
                    RoundEnd::Checkmate { by } => ("checkmate", by),
                    RoundEnd::Stalemate { side } => ("stalemate", side),
                };
                (name, side.to_string(), next.score().to_vec())
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        })
    }

    /// Perft (C54): nodes of the decision tree `depth` decisions below.
    fn perft(&self, depth: u32) -> PyResult<u64> {
        if depth > 6 {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "depth {depth} is too deep; use 6 or less"
            )));
        }
        guarded("perft", || {
            Ok(engine::games::chess_eleven::perft::perft(&self.pos, depth))
        })
    }
}

/// Zebra's Football Chess rules engine: `Game` and its errors; and Chess Eleven's
/// positions (`ChessEleven`).
#[pymodule]
fn zebra_engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyGame>()?;
    m.add_class::<PyChessEleven>()?;
    m.add("ZebraError", py.get_type::<ZebraError>())?;
    m.add("NotationError", py.get_type::<NotationError>())?;
    m.add("IllegalAction", py.get_type::<IllegalAction>())?;
    m.add("WrongPhase", py.get_type::<WrongPhase>())?;
    m.add("InvalidState", py.get_type::<InvalidState>())?;
    m.add("DiagramError", py.get_type::<DiagramError>())?;
    m.add("RULINGS_EDITION", engine::rules::RULINGS_EDITION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
