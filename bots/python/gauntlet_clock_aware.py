#!/usr/bin/env python3
"""Clock-aware bot: a game manager for Zebra's Football Chess.

Style: it reads the scoreboard before it thinks. From the score, the quarter, the plays
(or game clock) left and its own deadline it sets a mood: behind late it plays fast and
greedy for big plays (deep receivers, forward throws, turnovers weigh less); ahead late it
runs the game down (protects the ball, throws less, and in timed quarters lets the running
game clock drain before it snaps). Actions are chosen by a one-ply look at every legal
action with zebra_engine, then a two-ply look (the opponent's best reply) at the most
promising ones while its budget lasts. The budget is a share of the request's deadline:
nothing for forced or trivial decisions, more for throws, goal-line stands and the last
plays of a close game. Any failure falls back to a legal action.
"""

import math
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

PT = 100          # one point of score
BIG = 100_000     # a decided game
FILES = "abcdefgh"
KNIGHT = {(1, 2), (2, 1)}

rng = random.Random(0)
PLAYS_PER_QUARTER = None   # from game_start's time control (None: timed quarters)
QUARTER_MS = None


def other(side):
    return "black" if side == "white" else "white"


def adv(side, rank):
    """Ranks gained from `side`'s own goal line (0) to the goal it attacks (7)."""
    return rank - 1 if side == "white" else 8 - rank


def ep(side, rank, down, to_gain):
    """Expected worth (in PT units) of `side` holding a series at `rank`."""
    short = max(0, (to_gain - rank) if side == "white" else (rank - to_gain))
    return 85 * adv(side, rank) - 35 * (down - 1) - 25 * short - 40


START = ep("white", 5, 1, 7)  # a fresh drive from the own 20


class Mood:
    """What the situation asks for, from `me`'s point of view."""

    def __init__(self, game, me, clocks):
        white, black = game.score
        self.margin = (white - black) if me == "white" else (black - white)
        q = game.quarter
        if PLAYS_PER_QUARTER:
            left_q = max(0, PLAYS_PER_QUARTER - game.plays_in_quarter)
            self.plays_left = left_q + (4 - q) * PLAYS_PER_QUARTER
        else:
            frac = 1.0
            gc = (clocks or {}).get("game") or {}
            if QUARTER_MS and gc.get("remaining_ms") is not None:
                frac = gc["remaining_ms"] / QUARTER_MS
            self.plays_left = int(round(10 * frac)) + (4 - q) * 10
        self.running = bool(((clocks or {}).get("game") or {}).get("running"))
        late = self.plays_left <= 12 and q >= 3
        # How many scores the margin is worth, given what is left.
        self.agg = 0.0
        if late and self.margin < 0:
            self.agg = min(1.0, 0.5 + 4.0 / (1 + self.plays_left))
        elif late and self.margin > 0:
            self.agg = -min(1.0, 0.4 + 4.0 / (1 + self.plays_left))
        elif self.margin <= -14:
            self.agg = 0.4
        self.turnover_w = 1.0 - 0.4 * self.agg     # behind: a turnover hurts less
        self.threat_w = 1.0 + 0.6 * self.agg        # behind: chase the big play
        self.important = late and abs(self.margin) <= 8


def piece_list(game):
    out = []
    for p in game.pieces:
        s = p["square"]
        out.append((p["side"], p["role"], FILES.index(s[0]), int(s[1])))
    return out


def attacks(piece, tf, tr, occ):
    """Whether `piece` could land on (tf, tr) with its next move (approximately)."""
    side, role, f, r = piece
    df, dr = tf - f, tr - r
    if df == 0 and dr == 0:
        return False
    if role == "knight":
        return (abs(df), abs(dr)) in KNIGHT
    if role == "pawn":
        return dr == (1 if side == "white" else -1) and abs(df) <= 1
    if role == "king":
        return max(abs(df), abs(dr)) == 1
    straight = df == 0 or dr == 0
    diag = abs(df) == abs(dr)
    if not ((role in ("rook", "queen") and straight) or (role in ("bishop", "queen") and diag)):
        return False
    sf = (df > 0) - (df < 0)
    sr = (dr > 0) - (dr < 0)
    f, r = f + sf, r + sr
    while (f, r) != (tf, tr):
        if (f, r) in occ:
            return False
        f, r = f + sf, r + sr
    return True


def can_throw(role, f, r, side, tf, tr):
    df, dr = tf - f, tr - r
    if role == "king":
        return True
    if role == "knight":
        return (abs(df), abs(dr)) in KNIGHT
    if role == "pawn":
        return dr * (1 if side == "white" else -1) > 0 and (df == 0 or abs(df) == abs(dr))
    straight, diag = df == 0 or dr == 0, abs(df) == abs(dr)
    return (role in ("rook", "queen") and straight) or (role in ("bishop", "queen") and diag)


def held_value(game, holder, rank):
    """Worth for `holder` (PT units) of the play ending with it holding the ball at `rank`."""
    offense = game.offense
    if adv(holder, rank) >= 7:
        return 7 * PT - START
    if holder != offense:
        return START + 30
    if adv(holder, rank) <= 0:
        return -2 * PT - START
    rank = min(7, max(2, rank))
    tg = game.line_to_gain
    if (rank >= tg) if offense == "white" else (rank <= tg):
        step = 2 if offense == "white" else -2
        return ep(offense, rank, 1, min(8, max(1, rank + step))) + 15
    if game.down >= 4:
        return -(START + 60)
    return ep(offense, rank, game.down + 1, tg)


def evaluate(game, me, mood):
    white, black = game.score
    v = ((white - black) if me == "white" else (black - white)) * PT
    if game.is_over:
        w = game.winner
        return v + (0 if w is None else (BIG if w == me else -BIG))
    d = game.decision
    if d in ("formation", "motion", "reaction"):
        off = game.offense
        s = ep(off, game.line_of_scrimmage, game.down, game.line_to_gain)
        if off != me:
            s = -s * mood.turnover_w if mood.agg > 0 else -s
        return v + s + endgame(v + s, mood)
    if d == "penalty":
        best = None
        for a in game.legal_actions():
            x = evaluate(game.after(a), me, mood)
            best = x if best is None else (max(best, x) if game.to_move == me else min(best, x))
        return best if best is not None else v
    ball = game.ball
    bs = ball["state"]
    at = ball["square"]
    bf, br = FILES.index(at[0]), int(at[1])
    pieces = piece_list(game)
    occ = {(p[2], p[3]) for p in pieces}
    if bs == "carried":
        top = game.piece_at(at)
        holder = top[0] if top else game.possession
        hv = held_value(game, holder, br)
        sign = 1 if holder == me else -1
        if holder != game.offense and holder != me:
            hv *= mood.turnover_w
        foes = [p for p in pieces if p[0] != holder]
        tacklers = sum(1 for p in foes if attacks(p, bf, br, occ))
        bonus = 0
        to_move = game.to_move
        if to_move == holder:
            # The carrier moves next: free room ahead, and an open receiver for a pass.
            bonus += 12 * (tacklers == 0)
            if holder == game.offense:
                bonus += pass_threat(game, holder, top, bf, br, pieces, foes, occ, hv)
        else:
            bonus -= 8 * tacklers
        bonus *= mood.threat_w if holder == me else 1.0
        v += sign * (hv + bonus)
    elif bs == "in_flight":
        thrower = ball["thrown_by"]
        sign = 1 if thrower == me else -1
        caught = held_value(game, thrower, br)
        failed = (held_value(game, thrower, int(game.spot[1])) if ball["forward"]
                  else -held_value(game, other(thrower), br))
        foes = [p for p in pieces if p[0] != thrower]
        covered = any(attacks(p, bf, br, occ) for p in foes)
        if ball["direct"]:
            x = failed if (covered and game.to_move != thrower) else caught
        else:
            x = (caught + failed) / 2 if not covered else failed
        if mood.agg < 0 and thrower == me:
            x -= 25  # ahead late: a ball in the air is a risk we need not take
        v += sign * x
    else:
        a = held_value(game, game.offense, br)
        b = held_value(game, game.defense, br)
        v += ((a - b) / 2) * (1 if game.offense == me else -1)
    for fl in game.flags:
        v += -50 if fl["side"] == me else 50
    return v + endgame(v, mood)


def endgame(v, mood):
    """Near the end a lead is worth more than its points: a smooth win term."""
    if mood.plays_left > 14:
        return 0
    scale = PT * (3 + 1.5 * mood.plays_left)
    return 400 * math.tanh(v / scale)


def pass_threat(game, holder, top, bf, br, pieces, foes, occ, hv):
    """The carrier may throw next: the best open teammate ahead (no foe can reach it)."""
    if top is None:
        return 0
    st = game.state()
    if st.get("forward_pass_thrown") or st.get("ball_crossed_line"):
        return 0
    role = top[1]
    best = 0
    for p in pieces:
        if p[0] != holder or (p[2], p[3]) == (bf, br):
            continue
        if adv(holder, p[3]) <= adv(holder, br) or not can_throw(role, bf, br, holder, p[2], p[3]):
            continue
        if any(attacks(q, p[2], p[3], occ) for q in foes):
            continue
        gain = held_value(game, holder, p[3]) - hv
        best = max(best, gain)
    return 0.8 * best


def reply_value(child, me, mood, shallow, t_end):
    if child.is_over or child.to_move == me or child.decision not in ("move", "contention"):
        return shallow
    worst = None
    for ans in child.legal_actions():
        if time.monotonic() > t_end:
            return shallow if worst is None else min(worst, shallow)
        try:
            x = evaluate(child.after(ans), me, mood)
        except Exception:
            continue
        if worst is None or x < worst:
            worst = x
    return shallow if worst is None else worst


def search(game, me, mood, budget):
    t0 = time.monotonic()
    legal = [a for a in game.legal_actions() if a != "timeout"]
    if len(legal) == 1:
        return legal[0]
    kids = []
    for a in legal:
        try:
            c = game.after(a)
        except Exception:
            continue
        kids.append((evaluate(c, me, mood), a, c))
        if time.monotonic() - t0 > budget * 0.6:
            break
    if not kids:
        return legal[0]
    kids.sort(key=lambda k: -k[0])
    best, best_v = kids[0][1], None
    hard_end = t0 + budget
    for shallow, a, c in kids:
        if time.monotonic() > hard_end:
            break
        x = reply_value(c, me, mood, shallow, hard_end + budget * 0.15)
        if best_v is None or x > best_v:
            best, best_v = a, x
    return best


def budget_for(request, game, mood, legal):
    """Seconds to think: a share of the deadline, by how much the decision matters."""
    deadline = (request.get("deadline_ms") or 1000) / 1000.0
    share = 0.22
    throws = any("^" in a for a in legal)
    ball = game.ball
    near_goal = False
    if ball.get("square"):
        r = int(ball["square"][1])
        near_goal = r <= 2 or r >= 7
    if throws or near_goal or mood.important:
        share = 0.36
    if mood.agg > 0.5 and not throws:
        share = 0.18  # behind late: fast play, save nothing for later
    return max(0.004, min(deadline * share, 0.6))


OFF_RUN = [("K", 0, -1), ("P", -1, 0), ("P", 1, 0), ("Q", 0, -2), ("R", -2, 0), ("R", 2, 0),
           ("N", -1, -1)]
OFF_AIR = [("K", 0, -1), ("P", 1, 0), ("B", -1, 0), ("B", 2, 0), ("Q", -3, 0), ("R", 3, 0),
           ("N", -2, -1)]
DEF_BASE = [("P", 0, -1), ("P", -1, -1), ("P", 1, -1), ("Q", 0, -3), ("R", -2, -2), ("R", 2, -2),
            ("B", 1, -3)]
DEF_DEEP = [("P", 0, -1), ("P", 1, -1), ("Q", 0, -3), ("R", -3, -3), ("R", 3, -3), ("B", -1, -2),
            ("N", 2, -2)]


def formation(game, request, mood):
    side = request["side"]
    if side == game.offense:
        shape = OFF_AIR if mood.agg > 0.3 or game.down >= 3 else OFF_RUN
    else:
        shape = DEF_DEEP if mood.agg < -0.3 or game.down >= 3 else DEF_BASE
    text = build(game, side, shape)
    try:
        if game.check_formation(text) is None:
            return text
    except Exception:
        pass
    return game.random_formation(rng.randrange(1 << 30))


def build(game, side, shape):
    """Our shape around the ball, filled with pawns and pieces to seven, as notation."""
    spot = game.spot
    f0, line = FILES.index(spot[0]), int(spot[1])
    toward = 1 if side == "white" else -1
    offense = side == game.offense
    taken = set(game.squares(other(side)))
    left = {"P": 8, "N": 2, "B": 2, "R": 2, "Q": 1, "K": 1 if offense else 0}
    placed = {}

    def ok(f, r):
        if not (0 <= f < 8 and 1 <= r <= 8):
            return False
        ahead = (r - line) * (1 if game.offense == "white" else -1)
        s = FILES[f] + str(r)
        return s not in placed and s not in taken and (ahead <= 0 if offense else ahead >= 1)

    def put(role, f, r):
        if ok(f, r) and left[role] > 0 and len(placed) < 7:
            placed[FILES[f] + str(r)] = role
            left[role] -= 1

    if offense:
        put("P", f0, line)
    for role, df, dr in shape:
        if len(placed) == 5 and sum(1 for x in placed.values() if x == "P") < 2 and role != "P":
            continue
        put(role, f0 + df, line + dr * toward)
    for dr in (0, -1, -2, -3, -4):
        for df in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -7, 7):
            if len(placed) >= 7:
                break
            role = "P" if sum(1 for x in placed.values() if x == "P") < 2 else \
                next((k for k in "NBRQ" if left[k] > 0), "P")
            put(role, f0 + df, line + (dr - (0 if offense else 1)) * toward)
    return "[" + ",".join(role + s for s, role in placed.items()) + "]"


def motion(game, legal):
    if "snap" not in legal:
        return legal[0]
    if game.snap_receiver() is not None:
        return "snap"
    spot = game.spot
    behind = spot[0] + str(int(spot[1]) + (-1 if game.offense == "white" else 1))
    for role in ("king", "queen", "rook", "bishop", "knight"):
        for s in game.squares(game.offense):
            if game.piece_at(s) == (game.offense, role):
                a = f"{s}>{behind}"
                if a in legal and game.presnap_foul(a) is None:
                    return a
    return "snap"


def burn(request, mood, t0, share):
    """Ahead with the game clock running: let our own play clock drain before answering."""
    if PLAYS_PER_QUARTER or not mood.running or mood.agg >= 0:
        return
    deadline = (request.get("deadline_ms") or 0) / 1000.0
    wait = deadline * share - (time.monotonic() - t0)
    if wait > 0:
        time.sleep(min(wait, 10.0))


def fallback(request):
    legal = [a for a in request.get("legal") or [] if a != "timeout"] or request.get("legal") or []
    if request.get("decision") == "formation" or not legal:
        try:
            g = zebra_engine.Game.from_request(request)
            return g.random_formation(rng.randrange(1 << 30))
        except Exception:
            return zebra_bot.fallback(request)
    return "snap" if "snap" in legal else ("pass" if "pass" in legal else legal[0])


def decide(request):
    try:
        return think(request)
    except Exception as e:
        sys.stderr.write(f"clock-aware: {e!r}\n")
        return fallback(request)


def think(request):
    t0 = time.monotonic()
    if zebra_engine is None:
        return fallback(request)
    me = request["side"]
    kind = request["decision"]
    legal = request.get("legal") or []
    game = zebra_engine.Game.from_request(request)
    mood = Mood(game, me, request.get("clocks"))
    if kind == "formation":
        text = formation(game, request, mood)
        if me == game.offense:
            burn(request, mood, t0, 0.35)
        return text
    if kind == "motion":
        a = motion(game, legal)
        if a == "snap":
            burn(request, mood, t0, 0.55)
        return a
    if kind == "reaction":
        return "pass" if "pass" in legal else legal[0]
    choice = search(game, me, mood, budget_for(request, game, mood, legal))
    return choice if choice in legal else fallback(request)


def on_game_start(msg):
    global rng, PLAYS_PER_QUARTER, QUARTER_MS
    rng = random.Random(f"clock:{msg.get('seed', 0)}:{msg.get('side', '')}")
    tc = msg.get("time_control") or {}
    PLAYS_PER_QUARTER = tc.get("plays_per_quarter")
    QUARTER_MS = tc.get("quarter_ms")


if __name__ == "__main__":
    zebra_bot.run(
        decide,
        name="clock-aware",
        author="gauntlet",
        version="1.0",
        on_game_start=on_game_start,
    )
