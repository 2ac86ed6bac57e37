"""Plumbing for Zebra bots written in Python (standard library only).

Zebra writes one JSON object per line to the bot's stdin and reads one per line from
its stdout (see protocol/PROTOCOL.md). This module reads and writes those lines:

    import zebra_bot

    def decide(request):              # the whole `request` message, as a dict
        legal = request["legal"]      # None for formations
        return legal[0]

    zebra_bot.run(decide, name="first")

`run` answers `hello` with `ready`, `ping` with `pong`, each `request` with the action
`decide` returns, and returns on `quit` or at the end of stdin. Logs go to stderr: stdout
carries only protocol. `formation(state, side, rng, shape)` builds a legal formation
(random, or from a shape of your own), and is also what `run` sends if `decide` fails
on a formation.

The helper speaks protocol version 2 (protocol/PROTOCOL.md, "Version 2"): requests then
carry what changed since the bot's previous one. With the engine package installed
(`pip install ./bindings/python`, module `zebra_engine`) it keeps its own Football Chess
game and fills in each request's `state` and `legal` from it, so `decide` gets the same
whole request as in version 1; without it (or for another game) it asks the referee for
the whole state and the legal list at every request. Either way `decide` sees every field
of version 1. `result` messages of replies applied as sent and `event` messages are only
sent when asked: `run(..., wants=["events", "results"])`.

From any directory: this file is one module of the standard library only. Copy it next
to your bot, or point Python at it: `PYTHONPATH=/path/to/zebra/bots/python python3
my_bot.py` (or `sys.path.insert(0, "/path/to/zebra/bots/python")` before the import).
"""

import json
import random
import sys
import traceback

try:  # the engine package: optional, the helper keeps its own game with it
    import zebra_engine
except ImportError:
    zebra_engine = None

# The highest protocol version the helper speaks; it speaks 1 to a referee that offers no 2.
PROTOCOL_VERSION = 2
EVERYTHING = ["state", "legal"]

FILES = "abcdefgh"
# Pieces on each sideline (rules 2.2), by notation letter.
SIDELINE = {"P": 8, "N": 2, "B": 2, "R": 2, "Q": 1, "K": 1}


def log(*parts):
    """Writes a line to stderr (never to stdout, which carries only protocol)."""
    print(*parts, file=sys.stderr, flush=True)


def read_message(stream=None):
    """The next message from the referee as a dict, or None at the end of input.

    Skips blank lines, a byte-order mark, and lines that are not JSON objects (logged).
    """
    stream = stream if stream is not None else sys.stdin.buffer
    while True:
        raw = stream.readline()
        if not raw:
            return None
        try:
            text = raw.decode("utf-8-sig").strip()
        except UnicodeDecodeError:
            log("zebra_bot: skipped a line that is not UTF-8")
            continue
        if not text:
            continue
        try:
            msg = json.loads(text)
        except ValueError as e:
            log(f"zebra_bot: skipped a line that is not JSON ({e})")
            continue
        if isinstance(msg, dict) and isinstance(msg.get("type"), str):
            return msg
        log("zebra_bot: skipped a line that is not a message")


def send(msg, stream=None):
    """Writes one message as one line and flushes it (an unflushed reply is not sent)."""
    stream = stream if stream is not None else sys.stdout
    stream.write(json.dumps(msg, separators=(",", ":")) + "\n")
    stream.flush()


def send_action(request_id, action, stream=None, want=None):
    """Answers request `request_id` with `action` in notation (`e4e5`, `snap`, `[Pd5,...]`);
    `want` (version 2): what the next request should carry besides the changes."""
    msg = {"type": "action", "id": request_id, "action": action}
    if want:
        msg["want"] = want
    send(msg, stream)


def ready(name, author="", version="", options=None, protocol=1, wants=None):
    """The `ready` message (the answer to `hello`) in protocol version `protocol`."""
    msg = {
        "type": "ready",
        "version": protocol,
        "name": name,
        "author": author,
        "bot_version": version,
        "capabilities": [],
        "options": options or [],
    }
    if protocol >= 2 and wants:
        msg["wants"] = wants
    return msg


class Follower:
    """The helper's own game of Football Chess in a version-2 game (with `zebra_engine`):
    set up from `game_start`, moved on by each request's `since`, filling in the `state`
    and `legal` the request left out."""

    def __init__(self, start):
        rulings = start.get("rulings")
        if rulings and rulings != zebra_engine.RULINGS_EDITION:
            raise ValueError(f"the referee plays rulings {rulings}, zebra_engine "
                             f"{zebra_engine.RULINGS_EDITION}")
        clock = start.get("time_control") or {}
        self.game = zebra_engine.Game(clock.get("plays_per_quarter"), start.get("situation"))

    def catch_up(self, request):
        """Applies `since` and fills `state` and `legal` in; raises if the game is lost (an
        entry does not apply, or the request's own state is not the followed game's)."""
        for token in request.get("since") or []:
            if token.startswith("!"):
                self.game.expire(token[1:])
            else:
                self.game.apply(token)
        if request.get("state") is not None:
            if request["state"] != self.game.state():
                raise ValueError("the request's state is not the followed game's")
        else:
            request["state"] = self.game.state()
        if "legal" not in request:
            formation = request.get("decision") == "formation"
            request["legal"] = None if formation else self.game.legal_actions()


# Chess Eleven's default formations (protocol/CHESS-ELEVEN.md, C12).
ELEVEN_DEFAULT = {
    "white": "[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3,Nf3]/B",
    "black": "[Nc6,Nf6,Bb7,Pc7,Pd7,Pe7,Pf7,Rc8,Kd8,Qe8,Rf8]/B",
}


def formation(state, side, rng=None, shape=None):
    """A legal formation (rules 3.2) for `side` in the position `state`, in notation.
    In a game of Chess Eleven: its default formation (C12).

    Offense: seven pieces on the line of scrimmage (the rank of `state["spot"]`) or behind
    it, a pawn on the spot (the snapper), a piece right behind it to take the snap, at
    least two pawns. Defense: seven pieces strictly beyond the line, on squares the offense
    does not hold, at least two pawns, no king.

    shape: optional list of (role, file_offset, rank_offset) to place first, offsets from
    the spot: rank_offset 0 is the line of scrimmage, negative toward `side`'s own end
    zone (-1: one rank behind the line as `side` sees it). The offense stands at 0 and
    below, the defense at -1 and below, so one shape reads the same for White and Black.
    Entries that would break a rule (off
    the board, on the wrong side of the line, a taken square, a king on defense, more
    pieces of a kind than a sideline holds, an eighth piece, or a piece that leaves no room
    for the two pawns and the snap taker) are skipped; the rest is filled at random with
    `rng` (a random.Random; default: a fresh one).
    """
    if "kick_off" in state:
        # Chess Eleven (its formation state names the side to kick off): the default
        # formation of protocol/CHESS-ELEVEN.md, C12, legal for every round.
        return ELEVEN_DEFAULT[side]
    rng = rng or random.Random()
    offense = state["offense"]
    spot = state["spot"]
    line = int(spot[1])
    toward_goal = 1 if side == "white" else -1
    taken = {p["square"] for p in state.get("pieces", [])}
    is_offense = side == offense

    def allowed(sq):
        ahead = (int(sq[1]) - line) * (1 if offense == "white" else -1)
        return (ahead <= 0) if is_offense else (ahead >= 1 and sq not in taken)

    left = dict(SIDELINE)
    if not is_offense:
        left["K"] = 0
    placed = {}

    behind = spot[0] + str(line - toward_goal)

    def still_needed(extra):
        # Pieces still owed after `placed` plus `extra` (square, role): pawns up to two,
        # and for the offense the piece behind the snapper.
        roles = list(placed.values()) + [extra[1]]
        squares = set(placed) | {extra[0]}
        need = max(0, 2 - roles.count("P"))
        if is_offense and behind not in squares and 1 <= line - toward_goal <= 8:
            need += 1
        return need

    def put(sq, role):
        if sq in placed or not allowed(sq) or left.get(role, 0) <= 0:
            return False
        if len(placed) + 1 + still_needed((sq, role)) > 7:
            return False
        placed[sq] = role
        left[role] -= 1
        return True

    if is_offense:
        put(spot, "P")
    for role, df, dr in shape or []:
        f = FILES.find(spot[0]) + df
        r = line + dr * toward_goal
        if 0 <= f < 8 and 1 <= r <= 8:
            put(FILES[f] + str(r), role)
    if is_offense:
        if behind not in placed and 1 <= line - toward_goal <= 8:
            put(behind, rng.choice("QRBN"))
    free = [f + str(r) for r in range(1, 9) for f in FILES]
    free = [sq for sq in free if sq not in placed and allowed(sq)]
    rng.shuffle(free)
    while sum(1 for r in placed.values() if r == "P") < 2 and free:
        put(free.pop(), "P")
    pool = [role for role, n in left.items() for _ in range(n)]
    rng.shuffle(pool)
    while len(placed) < 7 and free and pool:
        put(free.pop(), pool.pop())
    return "[" + ",".join(role + sq for sq, role in placed.items()) + "]"


def fallback(request):
    """A safe answer when `decide` fails: a legal formation when one is asked for, else
    the first legal action (never `pass` where it is not legal)."""
    if request.get("decision") == "formation":
        return formation(request["state"], request["side"])
    legal = request.get("legal") or []
    return legal[0] if legal else "pass"


def blind(rules, request):
    """An answer without the state: Chess Eleven's default formation or `end`, else
    `pass`."""
    if rules == "chess-eleven":
        if request.get("decision") == "formation":
            return ELEVEN_DEFAULT.get(request.get("side"), ELEVEN_DEFAULT["white"])
        return "end"
    return "pass"


def run(decide, name="python", author="", version="", options=None,
        on_game_start=None, on_message=None, wants=None, protocol=PROTOCOL_VERSION):
    """Serves the protocol until `quit` or the end of stdin.

    decide(request) -> str: the action for a `request` message (a dict), with every field
        of protocol version 1 (`state`, `legal`) whichever version is spoken.
    on_game_start(message): called with `game_start` (side, seed, options).
    on_message(message): called with every other message (result, event, game_end).
    wants: version 2's standing wishes (`"events"`, `"results"`, `"state"`, `"legal"`).
    protocol: the highest version to speak (1 for version 1).
    """
    spoken = 1
    follower = None
    rules = "football-chess"
    while True:
        msg = read_message()
        if msg is None:
            return
        kind = msg["type"]
        if kind == "hello":
            offered = msg.get("versions", [])
            spoken = max([v for v in offered if v in (1, 2) and v <= protocol], default=1)
            if spoken not in offered:
                log(f"zebra_bot: the referee offers {offered}; this module speaks 1 and 2")
            standing = list(wants or [])
            if spoken >= 2 and zebra_engine is None:
                standing += [w for w in EVERYTHING if w not in standing]
            send(ready(name, author, version, options, spoken, standing))
        elif kind == "ping":
            send({"type": "pong", "id": msg.get("id")})
        elif kind == "request":
            want = None
            if "since" in msg:
                if follower is not None:
                    try:
                        follower.catch_up(msg)
                    except Exception as e:  # out of step: ask for everything from now on
                        log(f"zebra_bot: lost the game ({e}); asking for whole requests")
                        follower = None
                if follower is None:
                    want = EVERYTHING
            else:
                follower = None  # a request of its own (check-bot's questions)
            if msg.get("state") is None:
                # Lost and not yet sent the whole game: a safe answer of the game's notation
                # (the next request carries everything).
                action = blind(rules, msg)
            else:
                try:
                    action = decide(msg)
                except Exception:  # a bug in decide must not cost the game its answer
                    log(traceback.format_exc())
                    action = None
                if not isinstance(action, str):
                    action = fallback(msg)
            send_action(msg.get("id"), action, want=want)
        elif kind == "quit":
            return
        elif kind == "game_start":
            follower = None
            rules = msg.get("rules", "football-chess")
            if spoken >= 2 and zebra_engine is not None and msg.get("rules") == "football-chess":
                try:
                    follower = Follower(msg)
                except Exception as e:
                    log(f"zebra_bot: cannot set up the game ({e}); asking for whole requests")
            if on_game_start:
                on_game_start(msg)
        elif on_message:
            on_message(msg)
