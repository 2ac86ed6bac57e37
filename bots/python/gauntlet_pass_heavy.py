#!/usr/bin/env python3
"""Pass-heavy: a gauntlet bot whose offense lives on the forward pass.

Style: the king takes every snap as quarterback behind a spread of bishops, knights and the
queen. After the snap receivers run to deep squares no defender can land on next turn, and
the king throws there; a throw is judged by what the defense can do to it (bat, intercept,
tackle after the catch), a completion by the yards and points it brings. The run is only
the fallback when no open target beats the carrier's own gain.

How it decides: every legal action is tried on an engine copy (`zebra_engine`) and valued;
while the time budget lasts, each candidate is re-valued by the opponent's best answer
(two plies, answers that touch the ball first). The value is the score, the expected worth
of the drive, and a "passing threat": the best open receiver still reachable by a legal
forward pass. On defense it blocks those same lanes and chases the carrier. Formations are
fixed shapes; it snaps at once, never reacts, never calls a timeout.
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
PT = 100            # one point of score
FOUL = 70           # cost of a flag of ours still to be enforced
THREAT_OWN = 0.7    # share of an open pass counted when we are to throw next
THREAT_THEIRS = 0.4 # ... when the defense moves first
# (role, file offset, rank offset; negative = toward our own end zone), zebra_bot.formation
SHAPE_O = [("K", 0, -1), ("P", -1, 0), ("B", 1, 0), ("B", -2, 0), ("Q", 2, 0),
           ("N", -3, 0), ("N", 3, 0)]
SHAPE_D = [("P", 0, -1), ("P", 1, -1), ("Q", 0, -3), ("B", -2, -2), ("B", 2, -2),
           ("R", -1, -2), ("R", 3, -3)]

rng = random.Random(0)


def xy(square):
    return FILES.index(square[0]), int(square[1])


def other(side):
    return "black" if side == "white" else "white"


def fwd(side):
    return 1 if side == "white" else -1


def adv(side, rank):
    """Ranks from `side`'s own end zone (0) to the one it attacks (7)."""
    return rank - 1 if side == "white" else 8 - rank


def drive(side, rank, down, to_gain):
    """Worth of `side` holding the ball at `rank`, `down`, line to gain `to_gain`."""
    togo = max(0, (to_gain - rank) * fwd(side))
    return 58 * adv(side, rank) - 22 * (down - 1) - 14 * togo


def fresh(side):
    r = 5 if side == "white" else 4
    return drive(side, r, 1, r + 2 * fwd(side))


def downed(g, holder, square):
    """Worth, for `holder`, of the play ending with `holder` downed on `square`."""
    off = g.offense
    _, r = xy(square)
    if adv(holder, r) == 7:
        return 7 * PT - fresh(other(holder))
    if holder != off:
        return 50 + fresh(holder)
    if adv(off, r) == 0:
        return -(2 * PT + fresh(other(off)))
    r = min(7, max(2, r))
    ltg = g.line_to_gain
    if (r - ltg) * fwd(off) >= 0:
        return drive(off, r, 1, min(8, max(1, r + 2 * fwd(off)))) + 15
    if g.down == 4:
        return -fresh(other(off)) - 40
    return drive(off, r, g.down + 1, ltg)


def board(g):
    occ = {}
    for p in g.pieces:
        occ[p["square"]] = (p["side"], p["role"])  # last listed is the top one
    return occ


def reach(occ, side):
    """Squares `side`'s pieces can land on with one move (own geometry)."""
    out = set()
    for square, (s, role) in occ.items():
        if s != side:
            continue
        f, r = xy(square)
        if role in ("bishop", "rook", "queen"):
            dirs = []
            if role != "rook":
                dirs += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            if role != "bishop":
                dirs += [(1, 0), (-1, 0), (0, 1), (0, -1)]
            for df, dr in dirs:
                nf, nr = f + df, r + dr
                while 0 <= nf < 8 and 1 <= nr <= 8:
                    t = FILES[nf] + str(nr)
                    out.add(t)
                    if t in occ:
                        break
                    nf, nr = nf + df, nr + dr
        elif role == "knight":
            for df, dr in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
                if 0 <= f + df < 8 and 1 <= r + dr <= 8:
                    out.add(FILES[f + df] + str(r + dr))
        elif role == "king":
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    if (df or dr) and 0 <= f + df < 8 and 1 <= r + dr <= 8:
                        out.add(FILES[f + df] + str(r + dr))
        elif role == "pawn":
            d = fwd(s)
            if 1 <= r + d <= 8:
                out.add(FILES[f] + str(r + d))
                for df in (-1, 1):
                    t = FILES[f + df] + str(r + d) if 0 <= f + df < 8 else None
                    if t and t in occ and occ[t][0] != s:
                        out.add(t)
    return out


def can_throw(role, frm, to, side):
    f0, r0 = xy(frm)
    f1, r1 = xy(to)
    df, dr = f1 - f0, r1 - r0
    if role == "king":
        return True
    if role == "knight":
        return sorted((abs(df), abs(dr))) == [1, 2]
    line = df == 0 or dr == 0
    diag = abs(df) == abs(dr)
    if role == "rook":
        return line
    if role == "bishop":
        return diag
    if role == "queen":
        return line or diag
    return dr * fwd(side) > 0 and (df == 0 or abs(df) == abs(dr))


def pass_threat(g, occ, carrier, side):
    """Gain over the carrier's own worth of the best open forward target, for `side`."""
    st = g.state()
    if st.get("forward_pass_thrown") or st.get("ball_crossed_line"):
        return 0
    base = downed(g, side, carrier)
    role = occ.get(carrier, (side, "pawn"))[1]
    cover = reach(occ, other(side))
    best = 0
    _, cr = xy(carrier)
    for square, (s, _) in occ.items():
        if s != side or square == carrier or square in cover:
            continue
        f, r = xy(square)
        if (r - cr) * fwd(side) <= 0 or f in (0, 7) or not can_throw(role, carrier, square, side):
            continue
        best = max(best, downed(g, side, square) - base)
    return best


def between_plays(g, me):
    off = g.offense
    v = drive(off, g.line_of_scrimmage, g.down, g.line_to_gain)
    return v if off == me else -v


def value(g, me):
    """Worth of position `g` for `me`, in hundredths of a point."""
    w, b = g.score
    v = (w - b if me == "white" else b - w) * PT
    if g.is_over:
        return v + (0 if g.winner is None else (10 ** 6 if g.winner == me else -10 ** 6))
    dec = g.decision
    if dec in ("formation", "motion", "reaction"):
        return v + between_plays(g, me)
    if dec == "penalty":
        opts = [value(g.after(a), me) for a in g.legal_actions()]
        return v + ((max(opts) if g.to_move == me else min(opts)) if opts else 0)
    for fl in g.flags:
        v += -FOUL if fl["side"] == me else FOUL
    ball = g.ball
    at = ball["square"]
    occ = board(g)
    st = ball["state"]
    if st == "carried":
        holder = occ.get(at, (g.possession, ""))[0]
        x = downed(g, holder, at)
        if holder == g.offense:
            share = THREAT_OWN if g.to_move == holder else THREAT_THEIRS
            x += share * pass_threat(g, occ, at, holder)
        x -= 3 * min_dist(occ, other(holder), at)  # pursuit: the tacklers close in
        return v + (x if holder == me else -x)
    if st == "in_flight":
        thrower = ball["thrown_by"]
        caught = downed(g, thrower, at)
        if ball["forward"] and thrower == g.offense:
            failed = downed(g, thrower, g.spot)
        else:
            failed = -downed(g, other(thrower), at)
        mover = g.to_move
        lands = any(a[2:4] == at and "^" not in a for a in g.legal_actions())
        if ball["direct"]:
            x = failed if (mover != thrower and lands) else caught
        elif mover != thrower:  # the defense first; then can one of ours get there?
            ours = at in reach(occ, thrower)
            x = -downed(g, other(thrower), at) if lands else (caught if ours else failed)
        else:
            x = caught if lands else failed
        return v + (x if thrower == me else -x)
    # loose or contested: a coin toss
    x = (downed(g, g.offense, at) - downed(g, g.defense, at)) / 2
    return v + (x if g.offense == me else -x)


def min_dist(occ, side, at):
    f, r = xy(at)
    d = [max(abs(xy(s)[0] - f), abs(xy(s)[1] - r)) for s, (p, _) in occ.items() if p == side]
    return min(d) if d else 8


def reply_order(child, at):
    """The opponent's answers, those that touch the ball (or its target) first."""
    acts = [a for a in child.legal_actions() if a != "timeout"]
    return sorted(acts, key=lambda a: 0 if a[2:4] == at else 1)


def search(g, me, budget):
    t0 = time.monotonic()
    cands = []
    for a in g.legal_actions():
        if a == "timeout":
            continue
        try:
            c = g.after(a)
        except zebra_engine.ZebraError:
            continue
        v = value(c, me)
        if "^" in a:
            v += 5  # a throw wins ties: that is the style
        cands.append([v, a, c])
    if not cands:
        return None
    cands.sort(key=lambda x: -x[0])
    best_v, best = None, cands[0][1]
    for v1, a, c in cands:
        if time.monotonic() - t0 > budget:
            break
        v = v1
        if not c.is_over and c.to_move != me and c.decision in ("move", "contention"):
            at = c.ball["square"]
            for r in reply_order(c, at):
                try:
                    rv = value(c.after(r), me) + (5 if "^" in a else 0)
                except zebra_engine.ZebraError:
                    continue
                if rv < v:
                    v = rv
                if best_v is not None and v <= best_v:
                    break  # cannot beat the best so far
                if time.monotonic() - t0 > budget * 1.5:
                    break
        if best_v is None or v > best_v:
            best_v, best = v, a
    return best


ALT_D = [[("P", 0, -1), ("P", -1, -1), ("Q", 1, -2), ("B", 0, -2), ("B", -1, -2),
          ("R", -3, -3), ("R", 3, -3)],
         [("P", 0, -1), ("P", 1, -1), ("P", -1, -1), ("Q", 0, -3), ("B", -2, -2),
          ("B", 2, -2), ("N", 0, -2)]]


def legal_shape(g, req, side, shape):
    text = zebra_bot.formation(req["state"], side, rng, shape)
    try:
        if g.check_formation(text) is None:
            return text
    except zebra_engine.ZebraError:
        pass
    return g.random_formation(rng.randrange(1 << 30))


def formation(g, req, budget):
    """Offense: the spread shape. Defense: of a few shapes, the one whose worst first move
    of the offense after the snap (a run or a throw into an open lane) hurts least."""
    t0 = time.monotonic()
    side = req["side"]
    if side == g.offense:
        return legal_shape(g, req, side, SHAPE_O)
    cands = [legal_shape(g, req, side, sh) for sh in [SHAPE_D] + ALT_D]
    cands += [g.random_formation(rng.randrange(1 << 30)) for _ in range(6)]
    best, best_v = cands[0], None
    for text in cands:
        if best_v is not None and time.monotonic() - t0 > budget:
            break
        try:
            snapped = g.after(text).after("snap")
            worst = min(value(snapped.after(a), side)
                        for a in snapped.legal_actions() if a != "timeout")
        except (zebra_engine.ZebraError, ValueError):
            continue
        if best_v is None or worst > best_v:
            best, best_v = text, worst
    return best


def motion(g, legal):
    if "snap" in legal and g.snap_receiver() is not None:
        return "snap"
    spot = g.spot
    f, r = xy(spot)
    behind = spot[0] + str(r - fwd(g.offense))
    for square in g.squares(g.offense):
        if g.piece_at(square) == (g.offense, "king"):
            a = square + ">" + behind
            if a in legal and g.presnap_foul(a) is None:
                return a
    return "snap" if "snap" in legal else legal[0]


def decide(req):
    if zebra_engine is None:
        return zebra_bot.fallback(req)
    t0 = time.monotonic()
    kind = req["decision"]
    legal = req.get("legal") or []
    g = zebra_engine.Game.from_request(req)
    if kind == "formation":
        return formation(g, req, 0.25 * (req.get("deadline_ms") or 1000) / 1000.0)
    if kind == "motion":
        return motion(g, legal)
    if kind == "reaction":
        return "pass" if "pass" in legal else legal[0]
    deadline = (req.get("deadline_ms") or 1000) / 1000.0
    budget = min(0.25 * deadline, 0.4) - (time.monotonic() - t0)
    choice = search(g, req["side"], max(0.003, budget))
    return choice if choice in legal else zebra_bot.fallback(req)


def on_game_start(msg):
    global rng
    rng = random.Random("pass:%s:%s" % (msg.get("seed", 0), msg.get("side", "")))


if __name__ == "__main__":
    zebra_bot.run(
        decide,
        name="pass-heavy",
        author="gauntlet",
        version="1.0",
        on_game_start=on_game_start,
    )
