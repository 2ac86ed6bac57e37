#!/usr/bin/env python3
"""Blitz Football Chess bot for Zebra: an all-out pressure defense.

Style: on defense it reads the offense's formation and puts its knights, queen and a
bishop on squares that hit the snap receiver the moment the ball is snapped, with only a
rook left deep. It re-aims a knight after each motion, tackles whenever any piece can land
on the carrier, jumps every pass target and loose ball, and otherwise swarms: it picks the
move that leaves the carrier the worst best-next-square and most of its neighbours under
attack. Its offense is plain and sound: the king takes the snap, the queen and a bishop
stand ready for handoffs, and the king throws when a target is open.

How it decides: each request becomes a `zebra_engine` game; every legal action is played
on a copy and scored. A finished play is scored by points and a field-position table of the
next series; on offense the engine's list of the defense's replies tells whether the
carrier or the pass can be hit; on defense a small attack map of the pieces predicts the
carrier's best reply. Forced shots (tackle, interception, recovery) come first. It spends
at most about a third of the request's deadline and answers something legal if anything
fails.
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

COLS = "abcdefgh"
PT = 100
# Field-position worth of a new set of downs, by ranks from the team's own goal line.
LADDER = [0, 20, 70, 130, 195, 275, 380, 700]
FREE_RUN = 35     # the carrier stands where nothing of ours can hit it
SWARM = 7         # each neighbour square of the carrier we attack
PENALTY_OURS = 80
LINES = {"rook": ((1, 0), (-1, 0), (0, 1), (0, -1)),
         "bishop": ((1, 1), (1, -1), (-1, 1), (-1, -1))}
LINES["queen"] = LINES["rook"] + LINES["bishop"]
HOPS = {"knight": ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
        "king": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))}
ATTACK_ORDER = ["N", "N", "Q", "B", "P", "P", "R"]
ROLE = {"N": "knight", "Q": "queen", "B": "bishop", "P": "pawn", "R": "rook", "K": "king"}
OFFENSE = [("K", 0, -1), ("Q", -1, -2), ("B", 1, -2), ("R", -3, 0), ("R", 3, 0),
           ("P", -2, 0), ("N", 2, -1)]

rng = random.Random(1)


def foe(side):
    return "white" if side == "black" else "black"


def up(side):
    return 1 if side == "white" else -1


def xy(sq):
    return COLS.index(sq[0]), int(sq[1])


def name(f, r):
    return COLS[f] + str(r) if 0 <= f < 8 and 1 <= r <= 8 else None


def downs_worth(side, rank, down, line):
    gone = rank - 1 if side == "white" else 8 - rank
    short = max(0, (line - rank) * up(side))
    return LADDER[min(6, max(1, gone))] - 20 * short - 28 * (down - 1) - (35 if down == 4 else 0)


NEW_DRIVE = downs_worth("white", 5, 1, 7)


def targets(role, sq, side, occ):
    """Where a piece on `sq` could land next turn (push, tackle, truck included)."""
    f, r = xy(sq)
    if role in HOPS:
        return [s for s in (name(f + a, r + b) for a, b in HOPS[role]) if s]
    if role == "pawn":
        ahead = name(f, r + up(side))
        out = [ahead] if ahead else []
        for a in (-1, 1):
            s = name(f + a, r + up(side))
            if s and s in occ:
                out.append(s)
        return out
    out = []
    for a, b in LINES[role]:
        x, y = f + a, r + b
        while True:
            s = name(x, y)
            if not s:
                break
            out.append(s)
            if s in occ:
                break
            x, y = x + a, y + b
    return out


def hit_map(occ, side):
    hit = {}
    for s, (sd, role) in occ.items():
        if sd == side:
            for t in targets(role, s, sd, occ):
                hit[t] = hit.get(t, 0) + 1
    return hit


def field(game):
    return {p["square"]: (p["side"], p["role"]) for p in game.pieces}


class Play:
    """What stays fixed while one play runs, and the worth of its possible ends."""

    def __init__(self, game, me, deadline_ms):
        self.me = me
        self.off = game.offense
        self.down = game.down
        self.line = game.line_to_gain
        self.spot = game.spot
        self.t0 = time.monotonic()
        self.limit = max(0.006, min(0.3, deadline_ms * 0.0003))

    def late(self):
        return time.monotonic() - self.t0 > self.limit

    def downed(self, holder, sq):
        """My worth of `holder` being downed with the ball on `sq`."""
        me, off = self.me, self.off
        s = 1 if holder == me else -1
        rank = int(sq[1])
        if rank == (8 if holder == "white" else 1):
            return s * (7 * PT - NEW_DRIVE)
        if holder != off:
            return s * (NEW_DRIVE + 60)  # a takeaway: what the blitz lives for
        so = 1 if off == me else -1
        if rank == (1 if off == "white" else 8):
            return so * (-2 * PT - NEW_DRIVE)
        rank = min(7, max(2, rank))
        if (rank - self.line) * up(off) >= 0:
            goal = 8 if off == "white" else 1
            nxt = rank + 2 * up(off)
            if (nxt - goal) * up(off) >= 0:
                nxt = goal
            return so * (downs_worth(off, rank, 1, nxt) + 15)
        if self.down == 4:
            return so * (-NEW_DRIVE - 40)
        return so * downs_worth(off, rank, self.down + 1, self.line)


def board_points(game, me):
    w, b = game.score
    v = ((w - b) if me == "white" else (b - w)) * PT
    if game.is_over and game.winner is not None:
        v += 50000 if game.winner == me else -50000
    return v


def reachable_now(game):
    return {a[2:4] for a in game.legal_actions() if len(a) >= 4 and a[2] not in "^>:"}


def worth(game, play, depth=2):
    """My worth of `game` right after one of my actions."""
    me = play.me
    v = board_points(game, me)
    if game.is_over:
        return v
    kind = game.decision
    if kind in ("formation", "motion", "reaction"):
        off = game.offense
        return v + (1 if off == me else -1) * downs_worth(off, game.line_of_scrimmage,
                                                          game.down, game.line_to_gain)
    if kind == "penalty":
        vals = [worth(game.after(a), play, 0) for a in game.legal_actions()]
        return (max if game.to_move == me else min)(vals) if vals else v
    for fl in game.flags:
        v += -PENALTY_OURS if fl["side"] == me else 25
    ball = game.ball
    sq, state = ball["square"], ball["state"]
    if kind == "contention":
        if depth > 0 and not play.late():
            acts = [a for a in game.legal_actions() if a != "timeout"]
            if acts:
                vals = [worth(game.after(a), play, depth - 1) for a in acts]
                return (max if game.to_move == me else min)(vals)
        return v + (play.downed(me, sq) + play.downed(foe(me), sq)) // 2
    if state == "carried":
        holder = game.possession
        if game.to_move == me:
            return v + play.downed(holder, sq)
        if holder == me:  # they move next: can they hit our carrier?
            if sq in reachable_now(game) or sq[0] in "ah":
                return v + play.downed(me, sq)
            return v + play.downed(me, sq) + FREE_RUN
        return v + pressure(game, play, sq)
    if state == "in_flight":
        thrower = ball["thrown_by"]
        if ball["forward"] and thrower == play.off:
            missed = play.downed(play.off, play.spot)
        else:
            missed = (play.downed(me, sq) + play.downed(foe(me), sq)) // 2
        caught = play.downed(thrower, sq)
        if thrower != me or game.to_move == me:
            return v + (caught + missed) // 2
        if sq in reachable_now(game):
            return v + (missed if ball["direct"] else play.downed(foe(me), sq))
        if ball["direct"]:
            return v + caught
        return v + (caught if sq in hit_map(field(game), me) else missed)
    return v + (play.downed(me, sq) + play.downed(foe(me), sq)) // 2


def pressure(game, play, sq):
    """Their carrier on `sq`, their move: my worth after its best reply, plus the swarm."""
    me, them = play.me, foe(play.me)
    occ = field(game)
    hits = hit_map(occ, me)
    role = occ.get(sq, (them, "king"))[1]
    here = play.downed(them, sq) - (0 if sq in hits else FREE_RUN)
    best = here
    for t in targets(role, sq, them, occ):
        v = play.downed(them, t)
        if not (t in occ and occ[t][0] == me) and t not in hits and t[0] not in "ah":
            v -= FREE_RUN
        best = min(best, v)
    f, r = xy(sq)
    swarm = sum(1 for a, b in HOPS["king"] if name(f + a, r + b) in hits)
    close = min((max(abs(xy(s)[0] - f), abs(xy(s)[1] - r))
                 for s, (sd, _) in occ.items() if sd == me), default=8)
    return best + SWARM * swarm - 4 * close


def forced(game, me, legal):
    """The blitz's reflexes: hit the carrier, jump the pass, fall on the ball."""
    ball = game.ball
    sq, state = ball.get("square"), ball.get("state")
    if not sq:
        return []
    lands = [a for a in legal if len(a) >= 4 and a[2:4] == sq and a[2] not in "^>:"]
    if state == "carried" and game.possession != me:
        return lands
    if state == "in_flight" and ball.get("thrown_by") != me:
        return lands
    if state == "loose":
        return lands
    return []


def pick(game, play, legal):
    me = play.me
    shots = forced(game, me, legal)
    pool = shots or [a for a in legal if a != "timeout"]
    ball = game.ball.get("square") or "--"
    pool.sort(key=lambda a: (ball not in a, "^" in a))  # ball moves first when time is short
    best, best_v = None, None
    for a in pool:
        if best is not None and play.late():
            break
        try:
            v = worth(game.after(a), play)
        except Exception:
            continue
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def receiver(game):
    got = game.snap_receiver()
    if got:
        return got
    f, r = xy(game.spot)
    return name(f, r - 2 * up(game.offense)) or game.spot


def blitz_formation(game, me):
    """Seven pieces (no king) beyond the line, aimed at the square that takes the snap."""
    occ = field(game)
    aim = receiver(game)
    af, ar = xy(aim)
    los = game.line_of_scrimmage
    d = up(foe(me))  # away from the line, into our half
    spots = [name(f, los + d * k) for k in (1, 2, 3) for f in range(8)]
    spots = [s for s in spots if s and s not in occ]
    ring = {name(af + a, ar + b) for a, b in HOPS["king"]} - {None}
    placed = []
    for letter in ATTACK_ORDER:
        role = ROLE[letter]
        best, best_score = None, None
        for s in spots:
            if s in occ:
                continue
            f, r = xy(s)
            depth = abs(r - los)
            sc = -abs(f - af)
            if letter == "R":
                sc += 12 * (depth == 3)
            elif letter == "P":
                sc += 8 * (depth == 1) - 2 * abs(f - af)
            else:
                reach = set(targets(role, s, me, occ))
                sc += 20 * (aim in reach) + 4 * len(reach & ring) - 2 * depth
            if best_score is None or sc > best_score:
                best, best_score = s, sc
        if best is None:
            break
        occ[best] = (me, role)
        placed.append(letter + best)
    text = "[" + ",".join(placed) + "]"
    try:
        if len(placed) == 7 and game.check_formation(text) is None:
            return text
    except Exception:
        pass
    return game.random_formation(rng.randrange(1 << 30))


def offense_formation(game, me):
    f0, r0 = xy(game.spot)
    used = {game.spot: "P"}
    for letter, a, b in OFFENSE:
        if len(used) == 7:
            break
        for df in (a, -a, a + 1, a - 1):
            s = name(f0 + df, r0 + b * up(me))
            if s and s not in used:
                used[s] = letter
                break
    text = "[" + ",".join(v + s for s, v in used.items()) + "]"
    try:
        if len(used) == 7 and game.check_formation(text) is None:
            return text
    except Exception:
        pass
    return game.random_formation(rng.randrange(1 << 30))


def react(game, me, legal):
    """After a motion: if nothing hits the snap receiver any more, re-aim a knight."""
    occ = field(game)
    aim = receiver(game)
    if aim in hit_map(occ, me):
        return "pass"
    for a in legal:
        if ">" not in a or a.endswith("@") or a.startswith("@"):
            continue
        frm, to = a.split(">")
        if occ.get(frm) != (me, "knight"):
            continue
        if aim in targets("knight", to, me, occ) and game.presnap_foul(a) is None:
            return a
    return "pass"


def snap_or_fix(game, legal):
    if game.snap_receiver() is not None or "snap" not in legal:
        return "snap"
    f, r = xy(game.spot)
    spot = name(f, r - up(game.offense))
    for s in game.squares(game.offense):
        a = s + ">" + spot
        if game.piece_at(s)[1] != "pawn" and a in legal and game.presnap_foul(a) is None:
            return a
    return "snap"


def decide(request):
    legal = request.get("legal") or []
    if zebra_engine is None:
        return fallback(request, legal)
    try:
        game = zebra_engine.Game.from_request(request)
        me, kind = request["side"], request["decision"]
        if kind == "formation":
            return offense_formation(game, me) if me == game.offense else blitz_formation(game, me)
        if kind == "motion":
            a = snap_or_fix(game, legal)
        elif kind == "reaction":
            a = react(game, me, legal)
        else:
            a = pick(game, Play(game, me, request.get("deadline_ms") or 1000), legal)
        if a in legal:
            return a
    except Exception as e:
        print(f"blitz: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
    return fallback(request, legal)


def fallback(request, legal):
    if request.get("decision") == "formation":
        return zebra_bot.fallback(request)
    for a in ("snap", "pass", "decline"):
        if a in legal:
            return a
    rest = [a for a in legal if a != "timeout"]
    return rest[0] if rest else "pass"


def start(msg):
    global rng
    rng = random.Random(f"blitz/{msg.get('seed', 0)}/{msg.get('side', '')}")


if __name__ == "__main__":
    zebra_bot.run(
        decide,
        name="blitz",
        author="gauntlet",
        version="1.0",
        on_game_start=start,
    )
