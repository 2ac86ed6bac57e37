#!/usr/bin/env python3
"""Penalty-savvy bot: a balanced Football Chess player that plays the rulebook.

Style: disciplined. It never fouls before the snap (every formation is checked with the
engine, motions only when `presnap_foul` finds nothing, reactions always `pass`), and in
play it prices every flag: a move that throws a flag of its own is valued at what the
other team will make of it (the worse of the play and the penalty for us), and a play in
which the opponent has fouled is a free play (the better of the two). Penalty decisions
are exact: each choice is applied to a copy of the game and the resulting series and
score are compared. It invites holding by pushing opponents when that is cheap. Otherwise
a one-ply look at every action and a two-ply look (opponent's best reply) at the best
ones, within a fixed share of the deadline; any failure answers a legal action.
"""

import os
import random
import sys
import time

sys.dont_write_bytecode = True  # keep the bots directory clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zebra_bot  # noqa: E402

try:
    import zebra_engine
except ImportError:  # the kit's fallback still answers legally
    zebra_engine = None

YARD = 20          # value of one yard (a rank is five)
POINT = 100
DECIDED = 1_000_000
FILES = "abcdefgh"
# Post-snap fouls: (ranks, measured against, automatic first down, loss of down).
FOULS = {
    ("holding", "offense"): (2, False, False),
    ("holding", "defense"): (2, True, False),
    ("illegal-contact", "defense"): (1, True, False),
    ("pass-interference", "defense"): (1, True, False),
    ("pass-interference", "offense"): (2, False, True),
    ("illegal-forward-pass", "offense"): (1, False, True),
}

rng = random.Random(0)


def foe(side):
    return "white" if side == "black" else "black"


def gained(side, rank):
    """Ranks from `side`'s goal line (0) toward the one it attacks (7)."""
    return rank - 1 if side == "white" else 8 - rank


def series(side, rank, down, to_gain):
    """What a series is worth to its offense, in this bot's units."""
    need = abs(to_gain - rank)
    base = 5 * YARD * gained(side, rank)
    return base - 60 * (down - 1) - 2 * YARD * need * (1 + down // 3)


FRESH = series("white", 5, 1, 7)


def end_of_play(game, holder, rank):
    """Worth for the series' offense if the play ended with `holder` holding at `rank`."""
    off = game.offense
    if gained(holder, rank) >= 7:
        v = 7 * POINT - FRESH
        return v if holder == off else -v
    if holder != off:
        return -(FRESH + 80)
    if gained(off, rank) <= 0:
        return -(2 * POINT + FRESH)
    rank = min(7, max(2, rank))
    tg = game.line_to_gain
    if gained(off, rank) >= gained(off, tg):
        nxt = rank + (2 if off == "white" else -2)
        return series(off, rank, 1, min(8, max(1, nxt))) + 30
    if game.down == 4:
        return -(FRESH + 80)
    return series(off, rank, game.down + 1, tg)


def accepted(game, kind, by):
    """Estimated worth for the offense of the flag `kind` by `by` being accepted."""
    off = game.offense
    role = "offense" if by == off else "defense"
    ranks, first, lose = FOULS.get((kind, role), (1, role == "defense", False))
    los = game.line_of_scrimmage
    d = 1 if off == "white" else -1
    room = (7 - gained(off, los)) if role == "defense" else gained(off, los)
    move = ranks if 2 * ranks <= room else room // 2
    rank = los + d * move if role == "defense" else los - d * move
    if role == "defense":
        if first or gained(off, rank) >= gained(off, game.line_to_gain):
            return series(off, rank, 1, min(8, max(1, rank + 2 * d))) + 10
        return series(off, rank, game.down, game.line_to_gain)
    down = game.down + (1 if lose else 0)
    if down > 4:
        return -(FRESH + 80)
    return series(off, rank, down, game.line_to_gain)


def in_play(game):
    """Worth of the play for the offense, were it to end now (before flags)."""
    ball = game.ball
    at = ball["square"]
    rank = int(at[1])
    st = ball["state"]
    if st == "carried":
        top = game.piece_at(at)
        return end_of_play(game, top[0] if top else game.possession, rank)
    if st == "in_flight":
        thrower = ball["thrown_by"]
        ok = end_of_play(game, thrower, rank)
        if ball["forward"] and thrower == game.offense:
            bad = series(game.offense, game.line_of_scrimmage, min(4, game.down + 1),
                         game.line_to_gain) if game.down < 4 else -(FRESH + 80)
        else:
            bad = end_of_play(game, foe(thrower), rank)
        return (ok + 2 * bad) / 3 if not ball["direct"] else (2 * ok + bad) / 3
    return (end_of_play(game, game.offense, rank) + end_of_play(game, game.defense, rank)) / 2


def with_flags(game, asis):
    """The play as the penalty decision will leave it: free plays and our own fouls."""
    flags = game.flags
    if not flags:
        return asis
    off = game.offense
    by_off = [f for f in flags if f["side"] == off]
    by_def = [f for f in flags if f["side"] != off]
    if by_off and by_def:  # offsetting: the down is replayed
        return series(off, game.line_of_scrimmage, game.down, game.line_to_gain)
    if by_def:  # the offense takes the better
        return max([asis] + [accepted(game, f["kind"], f["side"]) for f in by_def])
    return min([asis] + [accepted(game, f["kind"], f["side"]) for f in by_off])


def chase(game, me):
    """Pursuit and protection: Chebyshev distance from the ball of the nearest pieces."""
    ball = game.ball
    at = ball["square"]
    bf, br = FILES.index(at[0]), int(at[1])
    carrier = game.possession
    total = 0
    for side, sign in ((carrier, 1), (foe(carrier), -1)):
        ds = sorted(max(abs(FILES.index(s[0]) - bf), abs(int(s[1]) - br))
                    for s in game.squares(side) if s != at)
        if side != carrier:
            total += sign * (3 * sum(ds[:2]) if ds else 24)  # far chasers help the carrier
    return total if carrier == me else -total


def evaluate(game, me):
    w, b = game.score
    v = (w - b if me == "white" else b - w) * POINT
    if game.is_over:
        win = game.winner
        return v + (0 if win is None else (DECIDED if win == me else -DECIDED))
    d = game.decision
    off = game.offense
    sign = 1 if off == me else -1
    if d in ("formation", "motion", "reaction"):
        return v + sign * series(off, game.line_of_scrimmage, game.down, game.line_to_gain)
    if d == "penalty":
        opts = [evaluate(game.after(a), me) for a in game.legal_actions()]
        if not opts:
            return v
        return max(opts) if game.to_move == me else min(opts)
    v += sign * with_flags(game, in_play(game))
    v += chase(game, me)
    last = game.state().get("last_push") if d == "move" else None
    if last and last.get("side") == me and game.to_move != me:
        v += 6  # they may push back: that is holding
    return v


def best_reply(child, me, fallback_v, stop):
    if child.is_over or child.to_move == me or child.decision not in ("move", "contention"):
        return fallback_v
    worst = None
    for a in child.legal_actions():
        if time.monotonic() > stop:
            break
        try:
            x = evaluate(child.after(a), me)
        except Exception:
            continue
        worst = x if worst is None else min(worst, x)
    return fallback_v if worst is None else min(worst, fallback_v + 400)


def search(game, me, seconds):
    start = time.monotonic()
    stop = start + seconds
    scored = []
    for a in game.legal_actions():
        if a == "timeout":
            continue
        try:
            c = game.after(a)
            scored.append((evaluate(c, me), a, c))
        except Exception:
            continue
        if time.monotonic() > start + 0.55 * seconds:
            break
    if not scored:
        return None
    scored.sort(key=lambda t: -t[0])
    best, best_v = scored[0][1], None
    for v1, a, c in scored[:24]:
        if time.monotonic() > stop:
            break
        v2 = best_reply(c, me, v1, stop + 0.1 * seconds)
        if best_v is None or v2 > best_v:
            best, best_v = a, v2
    return best


def penalty(game, me, legal):
    """Exact: each choice applied to a copy; the series and score that follow decide."""
    best, best_v = None, None
    for a in legal:
        try:
            x = evaluate(game.after(a), me)
        except Exception:
            continue
        if best_v is None or x > best_v:
            best, best_v = a, x
    return best or game.penalty_default() or legal[0]


OFFENSE = [("K", 0, -1), ("P", -1, 0), ("P", 1, 0), ("B", -2, 0), ("Q", 2, 0), ("R", -3, 0),
           ("N", 1, -1)]
DEFENSE = [("P", 0, 1), ("P", -1, 1), ("P", 1, 1), ("Q", 0, 3), ("B", -2, 2), ("R", 2, 2),
           ("R", -3, 3)]


def shape_formation(game, side):
    """Our shape (file offset, ranks from the line toward the foe's goal for the defense,
    toward our own goal for the offense), checked square by square, filled in to seven."""
    spot = game.spot
    f0, line = FILES.index(spot[0]), int(spot[1])
    offense = side == game.offense
    back = -1 if game.offense == "white" else 1  # toward the offense's own goal
    taken = set(game.squares(foe(side)))
    stock = {"P": 8, "N": 2, "B": 2, "R": 2, "Q": 1, "K": 1 if offense else 0}
    out = {}

    def legal_square(f, r):
        if not (0 <= f < 8 and 1 <= r <= 8):
            return None
        ahead = (r - line) * -back
        sq = FILES[f] + str(r)
        good = ahead <= 0 if offense else ahead >= 1
        return sq if good and sq not in taken and sq not in out else None

    def place(role, f, r):
        sq = legal_square(f, r)
        if sq and stock[role] > 0 and len(out) < 7:
            pawns = sum(1 for x in out.values() if x == "P") + (role == "P")
            if 7 - len(out) - 1 >= max(0, 2 - pawns):
                out[sq] = role
                stock[role] -= 1

    if offense:
        place("P", f0, line)
    for role, df, dr in (OFFENSE if offense else DEFENSE):
        r = line - dr * back
        place(role, f0 + df, r)
    for k in range(0, 8):
        for df in sorted(range(-7, 8), key=abs):
            r = line + (k * back if offense else -(k + 1) * back)
            pawns = sum(1 for x in out.values() if x == "P")
            role = "P" if pawns < 2 else next((x for x in "NBRQ" if stock[x]), "P")
            place(role, f0 + df, r)
    return "[" + ",".join(role + sq for sq, role in out.items()) + "]"


def formation(game, side):
    try:
        text = shape_formation(game, side)
        if game.check_formation(text) is None:
            return text
    except Exception:
        pass
    for _ in range(20):  # the engine's own formations are legal; be sure anyway
        text = game.random_formation(rng.randrange(1 << 30))
        if game.check_formation(text) is None:
            return text
    return text


def motion(game, legal):
    """Snap with a taker behind the snapper, else bring one there without a false start."""
    if "snap" not in legal:
        return next((a for a in legal if a != "timeout" and game.presnap_foul(a) is None),
                    legal[0])
    if game.snap_receiver() is not None:
        return "snap"
    spot = game.spot
    behind = spot[0] + str(int(spot[1]) + (-1 if game.offense == "white" else 1))
    for s in game.squares(game.offense):
        a = f"{s}>{behind}"
        if s != spot and a in legal and game.presnap_foul(a) is None:
            return a
    return "snap"


def safe(request):
    legal = [a for a in request.get("legal") or [] if a != "timeout"]
    if request.get("decision") == "formation" or not legal:
        try:
            g = zebra_engine.Game.from_request(request)
            return formation(g, request["side"])
        except Exception:
            return zebra_bot.fallback(request)
    for a in ("snap", "pass"):
        if a in legal:
            return a
    return legal[0]


def decide(request):
    try:
        return play(request)
    except Exception as e:
        sys.stderr.write(f"penalty-savvy: {e!r}\n")
        return safe(request)


def play(request):
    if zebra_engine is None:
        return safe(request)
    me, kind = request["side"], request["decision"]
    legal = request.get("legal") or []
    game = zebra_engine.Game.from_request(request)
    if kind == "formation":
        return formation(game, me)
    if kind == "motion":
        return motion(game, legal)
    if kind == "reaction":
        return "pass" if "pass" in legal else safe(request)
    if kind == "penalty":
        return penalty(game, me, legal)
    seconds = min(0.5, 0.3 * (request.get("deadline_ms") or 1000) / 1000.0)
    choice = search(game, me, seconds)
    return choice if choice in legal else safe(request)


def on_game_start(msg):
    global rng
    rng = random.Random(f"penalty:{msg.get('seed', 0)}:{msg.get('side', '')}")


if __name__ == "__main__":
    zebra_bot.run(
        decide,
        name="penalty-savvy",
        author="gauntlet",
        version="1.0",
        on_game_start=on_game_start,
    )
