"""Zebra's Football Chess rules engine: `Game` and its errors.

Actions are strings in the notation of protocol/RULES.md (`e4e5`, `e4^e7`, `snap`, `pass`,
`accept:holding`, `[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]`); events, states and penalty options are
dicts shaped as in protocol/PROTOCOL.md.
"""

from typing import Any, Dict, List, Optional, Tuple, Union

__version__: str
RULINGS_EDITION: str
"""The edition of protocol/RULES.md this engine plays."""

Event = Dict[str, Any]
"""An event as in the protocol's `event` message: {"event": "tackle", "at": "e4"}."""

class ZebraError(Exception):
    """The base of every error the engine raises."""

class NotationError(ZebraError):
    """A string that is not an action in notation, or not a clock or formation."""

class IllegalAction(ZebraError):
    """A well-formed action the rules do not allow here. The game is unchanged."""

class WrongPhase(IllegalAction):
    """An action of another phase than the game's, or any action once it is over."""

class InvalidState(ZebraError):
    """A request, state or situation that does not describe a game."""

class DiagramError(InvalidState):
    """Diagram text that does not describe a position (the message names the line)."""

class Game:
    """A whole game of Football Chess."""

    def __init__(
        self, plays_per_quarter: Optional[int] = None, situation: Optional[str] = None
    ) -> None:
        """A new game: White has the ball on its own 20 and forms first.

        plays_per_quarter: quarters of that many plays; None for timed quarters, which
        end only by `expire("game-clock")`. situation: a start situation
        (protocol/SITUATIONS.md). Raises InvalidState.
        """
    @staticmethod
    def new(
        plays_per_quarter: Optional[int] = None, situation: Optional[str] = None
    ) -> "Game":
        """The same as `Game(...)`."""
    @staticmethod
    def from_diagram(text: str) -> "Game":
        """The game a diagram describes. Raises DiagramError."""
    @staticmethod
    def from_request(request: Union[Dict[str, Any], str]) -> "Game":
        """The game of a protocol request (or of a bare `state`), as a dict or JSON text.

        Penalty decisions included. Raises InvalidState / DiagramError, TypeError for a
        value that is neither a dict nor a string.
        """
    def diagram(self) -> str:
        """The position as diagram text."""
    def state(self) -> Dict[str, Any]:
        """The whole game as the protocol's `state` dict."""
    @property
    def decision(self) -> Optional[str]:
        """"formation", "motion", "reaction", "move", "contention", "penalty"; None when over."""
    @property
    def to_move(self) -> Optional[str]:
        """The side that must decide, "white" or "black"; None when over."""
    @property
    def phase(self) -> str:
        """"formation", "motion", "reaction", "action", "contention", "penalty" or "over"."""
    def legal_actions(self) -> List[str]:
        """Every legal action in notation; empty for formations and once over."""
    def is_legal(self, action: str) -> bool:
        """Whether `action` may be applied now (never raises on a string)."""
    def apply(self, action: str) -> List[Event]:
        """Applies a decision; returns its events.

        Raises NotationError, WrongPhase, IllegalAction (the game then unchanged).
        """
    def after(self, action: str) -> "Game":
        """A copy after `action`; this game unchanged. Raises as `apply`."""
    def expire(self, clock: str) -> List[Event]:
        """Applies "play-clock", "reaction-clock" or "game-clock" running out."""
    def copy(self) -> "Game":
        """An independent copy."""
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def __eq__(self, other: object) -> bool: ...
    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
    @property
    def result(self) -> Optional[str]:
        """"1-0", "0-1" or "1/2-1/2" once over; None before."""
    @property
    def winner(self) -> Optional[str]:
        """The winning side once over; None for a draw or before the end."""
    @property
    def score(self) -> Tuple[int, int]:
        """(white, black)."""
    @property
    def timeouts(self) -> Tuple[int, int]:
        """Timeouts left this half, (white, black)."""
    @property
    def quarter(self) -> int:
        """1 to 4."""
    @property
    def plays_in_quarter(self) -> int:
        """Plays counted in this quarter."""
    @property
    def offense(self) -> str:
        """The team with the ball for this series."""
    @property
    def defense(self) -> str:
        """The team without it."""
    @property
    def possession(self) -> str:
        """The team that has, or last had, the ball in this play."""
    @property
    def down(self) -> int:
        """1 to 4."""
    @property
    def distance(self) -> int:
        """Yards to gain for a first down."""
    @property
    def goal_to_go(self) -> bool:
        """Whether the line to gain is the goal line."""
    @property
    def spot(self) -> str:
        """The ball spot of this down, e.g. "e5"."""
    @property
    def line_of_scrimmage(self) -> int:
        """The rank (1 to 8) of the spot."""
    @property
    def line_to_gain(self) -> int:
        """The rank (1 to 8) to reach for a first down."""
    @property
    def ball(self) -> Dict[str, Any]:
        """{"state": "spotted" | "carried" | "loose" | "contested" | "in_flight", "square", ...}."""
    def squares(self, side: str) -> List[str]:
        """The squares of `side`'s pieces, a1 to h8. Raises NotationError."""
    def piece_at(self, square: str) -> Optional[Tuple[str, str]]:
        """(side, role) of the top piece on `square`, e.g. ("white", "king"), or None."""
    @property
    def pieces(self) -> List[Dict[str, str]]:
        """[{"side", "role", "square"}], bottom first on a pile."""
    @property
    def flags(self) -> List[Dict[str, str]]:
        """Flags of this play not yet enforced: [{"side", "kind", "spot"}]."""
    @property
    def pending_play(self) -> Optional[Dict[str, str]]:
        """In a penalty decision, {"end", "at", "possession"} of the finished play."""
    def penalty_options(self) -> Optional[List[Dict[str, Any]]]:
        """In a penalty decision, where each legal choice leads (the protocol's
        `penalty_options`); None otherwise."""
    def penalty_default(self) -> Optional[str]:
        """In a penalty decision, the choice the referee makes for a silent team (R60)."""
    def can_call_timeout(self) -> bool:
        """Whether the deciding team may call a timeout now."""
    def snap_receiver(self) -> Optional[str]:
        """Before the snap, the square of the piece that would take it."""
    def presnap_foul(self, action: str) -> Optional[str]:
        """The pre-snap foul `action` would draw, or None. Raises NotationError."""
    def random_formation(self, seed: int = 0) -> str:
        """A legal formation for the side forming now. Raises WrongPhase."""
    def check_formation(self, formation: str) -> Optional[str]:
        """None for a legal formation, else the fault (the flag it draws).

        Raises NotationError, IllegalAction (cannot be placed), WrongPhase.
        """


class ChessEleven:
    """A position of Chess Eleven in play (protocol/CHESS-ELEVEN.md), immutable."""

    def __init__(self, text: str) -> None:
        """Reads a position text (C53), e.g. a request's state.position; InvalidState if
        it is not one."""
    def text(self) -> str:
        """The position text (C53)."""
    def side(self) -> str:
        """The side whose go it is: "white" or "black"."""
    def legal(self) -> list[str]:
        """Every legal action now, in notation (C51)."""
    def is_legal(self, action: str) -> bool: ...
    def shot_outcomes(self, square: str) -> list[str]:
        """["goal"] at an empty goal square; else goal, save or block, and corner."""
    def after(self, action: str, outcome: str | None = None) -> "ChessEleven | tuple[str, str, list[int]]":
        """The position after `action` (a shot at a guarded goal needs its outcome), or the
        restart it causes: ("goal" | "checkmate" | "stalemate", side, [white, black]).
        NotationError or IllegalAction leave this position as it was."""
    def perft(self, depth: int) -> int:
        """Nodes of the decision tree `depth` decisions below (C54); depth at most 6."""
