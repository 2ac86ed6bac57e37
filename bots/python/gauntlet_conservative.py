#!/usr/bin/env python3
"""Conservative: a gauntlet bot that protects the ball and gives nothing away.

Style: a power formation (queen behind the snapper, pawns and rooks as blockers) that runs
for sure yards. It throws only a direct forward pass that no defender can bat (checked on
the engine: not one answer of the defense lands on the receiver); it never throws onto an
empty square, laterals or backward, never makes a move that leaves the ball loose
(handoff-and-truck fumbles) and never a move that draws a flag on itself unless every move
does. On defense it keeps a deep zone shell and values covering open receivers nearly as
much as tackling. The rules have no punt or field goal (every change of possession starts
at the new offense's own 20), so late downs are played as plain safe downs.

How it decides: the legal actions, minus the risky ones above, are tried on engine copies
(`zebra_engine`) and valued by an expected-points table (field position, down, distance,
score, flags); while the time budget lasts, each is re-valued by the opponent's best
answer (two plies, pessimistic). Penalties are judged by where each choice leads.
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

ZErr = zebra_engine.ZebraError if zebra_engine else Exception

# Expected points (x100) of a first down with the ball `a` ranks from one's own end zone.
EP = [-180, -60, 40, 110, 190, 290, 420, 700]
OWN_FLAG = 120      # a flag on us, before it is enforced: we hate them
THEIR_FLAG = 50
LOOSE = 150         # a ball on the ground is worth nothing to anybody we trust
COVER = 0.5         # weight of the offense's open receivers while a pass is still possible
OFF_SHAPE = [("Q", 0, -1), ("P", -2, 0), ("P", 2, 0), ("R", -3, 0), ("R", 3, 0),
             ("N", -1, -1), ("N", 1, -1)]
DEF_SHAPE = [("P", 0, -1), ("P", -1, -1), ("R", -2, -2), ("R", 2, -2), ("Q", 0, -2),
             ("B", -1, -3), ("B", 1, -3)]
FILES = "abcdefgh"
rng = random.Random(0)


def sq(s):
    return FILES.index(s[0]), int(s[1])


def opp(side):
    return "white" if side == "black" else "black"


def ahead(side):
    return 1 if side == "white" else -1


def adv(side, rank):
    return rank - 1 if side == "white" else 8 - rank


def series(side, rank, down, ltg):
    """Expected points (x100) for `side` with the ball on `rank`, `down`, line to gain."""
    a = min(7, max(0, adv(side, rank)))
    togo = max(0, (ltg - rank) * ahead(side))
    return EP[a] - 45 * (down - 1) - 30 * max(0, togo - 1) - 10 * togo


def restart(side):
    return EP[4]


def stop_at(g, holder, square):
    """Expected points for `holder` if the play ended with it downed on `square`."""
    off = g.offense
    r = int(square[1])
    if adv(holder, r) == 7:
        return 700 - restart(opp(holder))
    if holder != off:
        return restart(holder) + 40
    if adv(off, r) == 0:
        return -200 - restart(opp(off))
    r = min(7, max(2, r))
    if (r - g.line_to_gain) * ahead(off) >= 0:
        return series(off, r, 1, r + 2 * ahead(off)) + 20
    if g.down == 4:
        return -restart(opp(off)) - 60
    return series(off, r, g.down + 1, g.line_to_gain)


def occupancy(g):
    return {p["square"]: (p["side"], p["role"]) for p in g.pieces}


def lands(occ, side):
    """Squares `side` can move a piece onto next turn (sliders stop on the first piece)."""
    hit = set()
    for s, (who, role) in occ.items():
        if who != side:
            continue
        f, r = sq(s)
        steps = []
        if role == "knight":
            steps = [(f + a, r + b) for a, b in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2),
                                                  (2, -1), (-1, -2), (-2, -1))]
        elif role == "king":
            steps = [(f + a, r + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]
        elif role == "pawn":
            d = ahead(who)
            steps = [(f, r + d)]
            for a in (-1, 1):
                t = (f + a, r + d)
                if 0 <= t[0] < 8 and 1 <= t[1] <= 8 and FILES[t[0]] + str(t[1]) in occ:
                    steps.append(t)
        else:
            rays = []
            if role in ("rook", "queen"):
                rays += [(1, 0), (-1, 0), (0, 1), (0, -1)]
            if role in ("bishop", "queen"):
                rays += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            for a, b in rays:
                x, y = f + a, r + b
                while 0 <= x < 8 and 1 <= y <= 8:
                    hit.add(FILES[x] + str(y))
                    if FILES[x] + str(y) in occ:
                        break
                    x, y = x + a, y + b
        for x, y in steps:
            if 0 <= x < 8 and 1 <= y <= 8:
                hit.add(FILES[x] + str(y))
    return hit


def open_threat(g, occ, carrier, off):
    """How much the offense could add by a forward pass to receivers nobody covers."""
    st = g.state()
    if st.get("forward_pass_thrown") or st.get("ball_crossed_line"):
        return 0
    cover = lands(occ, opp(off))
    base = stop_at(g, off, carrier)
    cr = int(carrier[1])
    gains = sorted((stop_at(g, off, s) - base for s, (w, _) in occ.items()
                    if w == off and s != carrier and s not in cover and s[0] not in "ah"
                    and (int(s[1]) - cr) * ahead(off) > 0), reverse=True)
    gains = [x for x in gains if x > 0]
    return (gains[0] + 0.3 * sum(gains[1:3])) if gains else 0


def worth(g, me):
    """Expected points (x100) of position `g` for `me`."""
    w, b = g.score
    v = 100 * (w - b if me == "white" else b - w)
    if g.is_over:
        return v + {None: 0, me: 500000}.get(g.winner, -500000)
    d = g.decision
    if d in ("formation", "motion", "reaction"):
        x = series(g.offense, g.line_of_scrimmage, g.down, g.line_to_gain)
        return v + (x if g.offense == me else -x)
    if d == "penalty":
        vals = [worth(g.after(a), me) for a in g.legal_actions()]
        return v + ((max(vals) if g.to_move == me else min(vals)) if vals else 0)
    for fl in g.flags:
        v += -OWN_FLAG if fl["side"] == me else THEIR_FLAG
    ball, occ = g.ball, occupancy(g)
    at, state = ball["square"], ball["state"]
    if state == "carried":
        holder = occ.get(at, (g.possession, ""))[0]
        x = stop_at(g, holder, at)
        if holder == g.offense:
            x += COVER * open_threat(g, occ, at, holder)
        f, r = sq(at)
        near = min([max(abs(sq(s)[0] - f), abs(sq(s)[1] - r))
                    for s, (w2, _) in occ.items() if w2 != holder] or [8])
        x -= 4 * near
        return v + (x if holder == me else -x)
    if state == "in_flight":
        t = ball["thrown_by"]
        good = stop_at(g, t, at)
        bad = (stop_at(g, t, g.spot) if ball["forward"] and t == g.offense
               else -stop_at(g, opp(t), at))
        reachable = any(a[2:4] == at and "^" not in a for a in g.legal_actions())
        if g.to_move != t:
            x = bad if reachable else (good if ball["direct"] or at in lands(occ, t) else bad)
        else:
            x = good if (ball["direct"] or reachable) else bad
        return v + (x if t == me else -x)
    x = (stop_at(g, g.offense, at) - stop_at(g, g.defense, at)) / 2 - LOOSE
    return v + (x if g.offense == me else -x)


def risky(g, child, action, me):
    """Throws other than direct forward passes, loose balls, and our own flags."""
    if "^" in action:
        b = child.ball
        if not (b.get("direct") and b.get("forward")):
            return True
    if child.ball["state"] in ("loose", "contested") and g.ball["state"] == "carried":
        return True
    mine = sum(1 for f in child.flags if f["side"] == me)
    return mine > sum(1 for f in g.flags if f["side"] == me)


def choose(g, me, budget):
    t0 = time.monotonic()
    pool, spare = [], []
    for a in g.legal_actions():
        if a == "timeout":
            continue
        try:
            c = g.after(a)
        except ZErr:
            continue
        item = (worth(c, me), a, c)
        (spare if risky(g, c, a, me) else pool).append(item)
    pool = pool or spare
    if not pool:
        return None
    pool.sort(key=lambda it: -it[0])
    best, best_v = pool[0][1], None
    for v0, a, c in pool:
        if time.monotonic() - t0 > budget:
            break
        v = v0
        if not c.is_over and c.to_move != me and c.decision in ("move", "contention"):
            at = c.ball["square"]
            answers = sorted((r for r in c.legal_actions() if r != "timeout"),
                             key=lambda r: r[2:4] != at)
            for r in answers:
                try:
                    v = min(v, worth(c.after(r), me))
                except ZErr:
                    continue
                if (best_v is not None and v <= best_v) or time.monotonic() - t0 > 1.5 * budget:
                    break
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def formation(g, req):
    me = req["side"]
    text = zebra_bot.formation(req["state"], me, rng, OFF_SHAPE if me == g.offense else DEF_SHAPE)
    try:
        if g.check_formation(text) is None:
            return text
    except ZErr:
        pass
    return g.random_formation(rng.randrange(1 << 30))


def motion(g, legal):
    if "snap" in legal and g.snap_receiver() is not None:
        return "snap"
    behind = g.spot[0] + str(g.line_of_scrimmage - ahead(g.offense))
    for role in ("queen", "king", "rook"):
        for s in g.squares(g.offense):
            a = s + ">" + behind
            if g.piece_at(s) == (g.offense, role) and a in legal and g.presnap_foul(a) is None:
                return a
    return "snap" if "snap" in legal else legal[0]


def penalty(g, me):
    best, best_v = None, None
    for a in g.legal_actions():
        v = worth(g.after(a), me)
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def decide(req):
    if zebra_engine is None:
        return zebra_bot.fallback(req)
    t0 = time.monotonic()
    kind, legal, me = req["decision"], req.get("legal") or [], req["side"]
    g = zebra_engine.Game.from_request(req)
    if kind == "formation":
        return formation(g, req)
    if kind == "motion":
        return motion(g, legal)
    if kind == "reaction":
        return "pass" if "pass" in legal else legal[0]
    if kind == "penalty":
        choice = penalty(g, me)
    else:
        budget = min(0.22 * (req.get("deadline_ms") or 1000) / 1000.0, 0.35)
        choice = choose(g, me, max(0.003, budget - (time.monotonic() - t0)))
    return choice if choice in legal else zebra_bot.fallback(req)


def on_game_start(msg):
    global rng
    rng = random.Random("safe:%s:%s" % (msg.get("seed", 0), msg.get("side", "")))


if __name__ == "__main__":
    zebra_bot.run(
        decide,
        name="conservative",
        author="gauntlet",
        version="1.0",
        on_game_start=on_game_start,
    )
