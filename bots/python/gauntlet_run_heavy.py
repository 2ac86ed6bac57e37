#!/usr/bin/env python3
"""Run-heavy Football Chess bot for Zebra: ground and pound.

Style: the queen lines up right behind the snapper and takes every snap; the offense
runs, trucks and hands off to grind out first downs, and keeps the carrier where no
defender can land on it. It throws only when the pass is clearly worth more than the run
(a heavy "run tax" on throws, lifted on third or fourth and long, or when trailing late).
On defense it plays a contain shell: bodies between the ball and its goal, tackle when it
can.

How it decides: each request is rebuilt with `zebra_engine`; every legal action is tried
on a copy. A finished play is valued by score and an expected-points table of the next
series; a running play by the square the ball would be downed on. The opponent's reply
is the second ply: on offense the engine lists the defense's answers to see whether the
carrier (or a pass target) can be hit; on defense a small attack map predicts the
carrier's best next square. Budget: about a third of the request's deadline.
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

FILES = "abcdefgh"
POINT = 100
WIN = 100000
# Worth of a fresh series for the team with the ball, by ranks advanced from its own goal.
FIELD = [0, 25, 75, 135, 200, 285, 390, 700]
RUN_TAX = 70      # what a throw must beat a run by
OPEN = 28         # a carrier no defender can reach next turn
OWN_FLAG = 70
DIRS = {
    "rook": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    "bishop": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
}
DIRS["queen"] = DIRS["rook"] + DIRS["bishop"]
JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]

OFFENSE_SHAPE = [("Q", 0, -1), ("R", -2, 0), ("R", 2, 0), ("N", -1, -1), ("N", 1, -1),
                 ("P", 3, 0), ("P", -3, 0), ("B", 0, -2)]
DEFENSE_SHAPE = [("P", -1, -1), ("P", 1, -1), ("B", 0, -2), ("R", -2, -2), ("R", 2, -2),
                 ("N", 0, -1), ("Q", 0, -3)]

rng = random.Random(0)


def other(side):
    return "black" if side == "white" else "white"


def sign(side, me):
    return 1 if side == me else -1


def ahead(side):
    return 1 if side == "white" else -1


def advanced(side, rank):
    return rank - 1 if side == "white" else 8 - rank


def series_value(side, rank, down, to_gain):
    a = min(6, max(1, advanced(side, rank)))
    short = max(0, (to_gain - rank) * ahead(side))
    return FIELD[a] - 22 * short - 30 * (down - 1) - (30 if down == 4 else 0)


FRESH = series_value("white", 5, 1, 7)


class Ctx:
    """The series the play belongs to: fixed while a play runs."""

    def __init__(self, game, me):
        self.me = me
        self.off = game.offense
        self.down = game.down
        self.to_gain = game.line_to_gain
        self.los = game.line_of_scrimmage
        self.spot = game.spot
        self.start = time.monotonic()


def ended_at(ctx, holder, square):
    """My worth of the play ending with `holder` holding the ball on `square`."""
    me, off = ctx.me, ctx.off
    rank = int(square[1])
    if rank == (8 if holder == "white" else 1):
        return sign(holder, me) * (7 * POINT - FRESH)
    if holder != off:
        return sign(holder, me) * (FRESH + 40)
    if rank == (1 if off == "white" else 8):
        return sign(off, me) * (-2 * POINT - FRESH)
    rank = min(7, max(2, rank))
    if (rank - ctx.to_gain) * ahead(off) >= 0:
        goal = 8 if off == "white" else 1
        gain = rank + 2 * ahead(off)
        gain = goal if (gain - goal) * ahead(off) >= 0 else gain
        v = series_value(off, rank, 1, gain) + 20
    elif ctx.down == 4:
        v = -FRESH - 30
    else:
        v = series_value(off, rank, ctx.down + 1, ctx.to_gain)
    return sign(off, me) * v


def board(game):
    occ = {}
    for p in game.pieces:  # bottom first: the last one is on top
        occ[p["square"]] = (p["side"], p["role"])
    return occ


def lands(role, square, side, occ):
    """Squares a piece may land on next turn (a close approximation of the rules)."""
    f, r = FILES.index(square[0]), int(square[1])
    out = []
    if role == "knight" or role == "king":
        for df, dr in (JUMPS if role == "knight" else STEPS):
            if 0 <= f + df < 8 and 1 <= r + dr <= 8:
                out.append(FILES[f + df] + str(r + dr))
    elif role == "pawn":
        d = ahead(side)
        if 1 <= r + d <= 8:
            out.append(FILES[f] + str(r + d))
            for df in (-1, 1):
                if 0 <= f + df < 8:
                    s = FILES[f + df] + str(r + d)
                    if s in occ:
                        out.append(s)
    else:
        for df, dr in DIRS[role]:
            x, y = f + df, r + dr
            while 0 <= x < 8 and 1 <= y <= 8:
                s = FILES[x] + str(y)
                out.append(s)
                if s in occ:
                    break
                x, y = x + df, y + dr
    return out


def reach(occ, side):
    seen = set()
    for s, (sd, role) in occ.items():
        if sd == side:
            seen.update(lands(role, s, sd, occ))
    return seen


def landers(game):
    """Squares the team to move can land a piece on now (exact, from the engine)."""
    return {a[2:4] for a in game.legal_actions() if len(a) >= 4 and a[2] not in "^>:"}


def score_part(game, me):
    w, b = game.score
    v = (w - b if me == "white" else b - w) * POINT
    if game.is_over:
        win = game.winner
        v += 0 if win is None else sign(win, me) * WIN
    return v


def penalty_value(game, me):
    best = None
    for o in game.penalty_options():
        w, b = o["score"]["white"], o["score"]["black"]
        v = (w - b if me == "white" else b - w) * POINT
        v += sign(o["offense"], me) * series_value(o["offense"], int(o["spot"][1]), o["down"],
                                                    o["line_to_gain"])
        if best is None or (v > best if game.to_move == me else v < best):
            best = v
    return best or 0


def static(game, ctx):
    """Worth of a running play as it stands (no reply considered)."""
    ball = game.ball
    sq = ball["square"]
    if ball["state"] == "carried":
        return ended_at(ctx, game.possession, sq)
    if ball["state"] == "in_flight":
        return ended_at(ctx, ball["thrown_by"], sq) // 2
    return (ended_at(ctx, ctx.off, sq) + ended_at(ctx, other(ctx.off), sq)) // 2


def value(game, ctx, depth=2):
    """My worth of `game`, the opponent's next turn taken into account."""
    me = ctx.me
    v = score_part(game, me)
    if game.is_over:
        return v
    dec = game.decision
    if dec in ("formation", "motion", "reaction"):
        off = game.offense
        return v + sign(off, me) * series_value(off, game.line_of_scrimmage, game.down,
                                                game.line_to_gain)
    if dec == "penalty":
        return penalty_value(game, me)
    for fl in game.flags:
        v -= OWN_FLAG if fl["side"] == me else -30
    if dec == "contention":
        if depth <= 0 or time.monotonic() - ctx.start > ctx.budget:
            return v + static(game, ctx)
        vals = [value(game.after(a), ctx, depth - 1) - score_part(game, me)
                for a in game.legal_actions() if a != "timeout"]
        if not vals:
            return v + static(game, ctx)
        return v + (max(vals) if game.to_move == me else min(vals))
    ball = game.ball
    sq = ball["square"]
    st = ball["state"]
    if game.to_move == me:  # my turn again (a pass of mine in the air, ...)
        return v + static(game, ctx)
    opp = other(me)
    if st == "carried" and game.possession == me:
        hit = sq in landers(game)
        bonus = 0 if hit or sq[0] in "ah" else OPEN
        return v + ended_at(ctx, me, sq) + bonus
    if st == "carried":
        return v + contain(game, ctx, sq, opp)
    if st == "in_flight":
        thrower = ball["thrown_by"]
        caught = ended_at(ctx, thrower, sq)
        if ball["forward"] and thrower == ctx.off:
            failed = ended_at(ctx, ctx.off, ctx.spot)
        else:
            failed = (ended_at(ctx, me, sq) + ended_at(ctx, opp, sq)) // 2
        if thrower != me:
            return v + (caught + failed) // 2
        hits = landers(game)
        if ball["direct"]:
            return v + (failed if sq in hits else caught)
        if sq in hits:
            return v + ended_at(ctx, opp, sq)
        return v + (caught if sq in reach(board(game), me) else failed)
    return v + (ended_at(ctx, me, sq) + ended_at(ctx, opp, sq)) // 2


def contain(game, ctx, sq, opp):
    """Opponent carrier on `sq`, its move: my worth after its best run (attack-map model)."""
    me = ctx.me
    occ = board(game)
    mine = reach(occ, me)
    role = occ.get(sq, (opp, "king"))[1]
    worst = ended_at(ctx, opp, sq) + (0 if sq in mine else -OPEN)
    for s in lands(role, sq, opp, occ):
        if s in occ and occ[s][0] == me:  # truck: downed there
            v = ended_at(ctx, opp, s)
        else:
            v = ended_at(ctx, opp, s)
            if s not in mine and s[0] not in "ah":
                v -= OPEN
        worst = min(worst, v)
    # Contain: my pieces between the ball and my goal, and close to it.
    f, r = FILES.index(sq[0]), int(sq[1])
    d = ahead(opp)
    shell = 0
    near = 8
    for s, (side, _) in occ.items():
        if side != me:
            continue
        fs, rs = FILES.index(s[0]), int(s[1])
        if (rs - r) * d > 0 and abs(fs - f) <= 2:
            shell += 1
        near = min(near, max(abs(fs - f), abs(rs - r)))
    return worst + 6 * min(shell, 3) - 3 * near


def ordered(game, legal):
    ball = (game.ball or {}).get("square") or ""
    first = [a for a in legal if ball and (a.startswith(ball) or a[2:4] == ball) and "^" not in a]
    rest = [a for a in legal if a not in first and "^" not in a]
    return first + rest + [a for a in legal if "^" in a]


def choose(game, ctx, legal):
    me = ctx.me
    passing_down = ctx.down >= 3 and game.distance >= 10
    w, b = game.score
    behind = (b - w if me == "white" else w - b) > 0 and game.quarter == 4
    best, best_v = None, None
    for a in ordered(game, legal):
        if a == "timeout":
            continue
        if best is not None and time.monotonic() - ctx.start > ctx.budget:
            break
        try:
            child = game.after(a)
        except Exception:
            continue
        v = value(child, ctx)
        if "^" in a and game.possession == me and ctx.off == me:
            forward = (int(a[4]) - int(a[1])) * ahead(me) > 0
            if not forward:
                v -= RUN_TAX + 40  # laterals: fumble risk, no gain
            elif not (passing_down or behind):
                v -= RUN_TAX
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def formation(game, request):
    """Our shape around the ball (offsets mirrored near a sideline); the engine's random
    formation if the shape cannot be placed cleanly."""
    side = request["side"]
    offense = side == game.offense
    shape = OFFENSE_SHAPE if offense else DEFENSE_SHAPE
    spot = game.spot
    f0, r0 = FILES.index(spot[0]), int(spot[1])
    taken = set(game.squares(other(side)))
    placed = {spot: "P"} if offense else {}
    for role, df, dr in shape:
        if len(placed) == 7:
            break
        for ff in (df, -df, df + (1 if df >= 0 else -1), df - (1 if df >= 0 else -1)):
            f, r = f0 + ff, r0 + dr * ahead(side)
            if 0 <= f < 8 and 1 <= r <= 8:
                s = FILES[f] + str(r)
                if s not in placed and s not in taken:
                    placed[s] = role
                    break
    text = "[" + ",".join(role + s for s, role in placed.items()) + "]"
    try:
        if len(placed) == 7 and game.check_formation(text) is None:
            return text
    except Exception:
        pass
    return game.random_formation(rng.randrange(1 << 30))


def motion(game, legal):
    if "snap" not in legal:
        return None
    if game.snap_receiver() is not None:
        return "snap"
    spot = game.spot
    behind = spot[0] + str(int(spot[1]) - ahead(game.offense))
    for role in ("queen", "rook", "knight", "bishop", "king"):
        for s in game.squares(game.offense):
            if game.piece_at(s) == (game.offense, role):
                a = s + ">" + behind
                if a in legal and game.presnap_foul(a) is None:
                    return a
    return "snap"


def log(text):
    print(text, file=sys.stderr, flush=True)


def decide(request):
    legal = request.get("legal") or []
    if zebra_engine is None:
        return safe(request, legal)
    t0 = time.monotonic()
    kind = request["decision"]
    try:
        game = zebra_engine.Game.from_request(request)
        if kind == "formation":
            return formation(game, request)
        if kind == "motion":
            a = motion(game, legal)
        elif kind == "reaction":
            a = "pass"
        else:
            ctx = Ctx(game, request["side"])
            ctx.start = t0
            ctx.budget = max(0.006, min(0.35, (request.get("deadline_ms") or 1000) * 0.00032))
            if kind == "penalty":
                vals = [(value(game.after(act), ctx), act)
                        for act in game.legal_actions() if act != "timeout"]
                a = max(vals)[1] if vals else None
            else:
                a = choose(game, ctx, legal)
        if a in legal:
            return a
    except Exception as e:  # never lose the answer
        log(f"run_heavy: {type(e).__name__}: {e}")
    return safe(request, legal)


def safe(request, legal):
    """A legal answer whatever happened."""
    if request.get("decision") == "formation":
        return zebra_bot.fallback(request)
    for a in ("snap", "pass", "decline"):
        if a in legal:
            return a
    good = [a for a in legal if a != "timeout"]
    return good[0] if good else "pass"


def on_game_start(msg):
    global rng
    rng = random.Random(f"run-heavy:{msg.get('seed', 0)}:{msg.get('side', '')}")


if __name__ == "__main__":
    zebra_bot.run(
        decide,
        name="run-heavy",
        author="gauntlet",
        version="1.0",
        on_game_start=on_game_start,
    )
