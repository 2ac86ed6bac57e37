#!/usr/bin/env python3
"""A Zebra bot that looks ahead with the engine itself, through `zebra_engine`.

    pip install ./bindings/python
    zebra play --white 'python3 bots/python/lookahead_bot.py' --black zebra-greedy-bot

Each request becomes an engine game (`zebra_engine.Game.from_request`, penalty decisions
included). Then, by decision:

- formation: a fixed shape around the ball (`zebra_bot.formation`): on offense the king
  right behind the snapper (it takes the snap and may throw anywhere, 4.3), pawns beside
  the snapper; on defense pawns across the ball and fast pieces behind them;
- motion: snap when a piece stands behind the snapper, else move the king (or the queen)
  there without a false start;
- reaction: pass;
- move, contention, penalty: every legal action on a copy of the game, valued for this
  team; with time left, two plies: each action is valued by the opponent's best answer.

The value of a position (`value`): the score, then the drive: who has the ball, how far it
has come, the down and the distance, flags thrown; the team without the ball wants a piece
near it. A penalty decision is valued by the best of its choices for the team choosing.

The search spends at most a quarter of `deadline_ms`; whatever goes wrong, `zebra_bot.run`
answers a legal action (a formation, or the first legal action), and so does the bot when
`zebra_engine` is not installed.
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
except ImportError as missing:  # still a bot that plays: legal, if not clever
    zebra_engine = None
    zebra_bot.log(f"lookahead_bot: {missing}; pip install ./bindings/python. "
                  "Answering with zebra_bot.fallback meanwhile.")

POINT = 100  # a point of score, in the units of `value`
WIN = 1_000_000
FLAG = 60  # what a flag of ours is assumed to cost before it is enforced

# Shapes as zebra_bot.formation reads them: (role, file offset, rank offset from the line;
# negative toward our own end zone).
OFFENSE = [("K", 0, -1), ("P", -1, 0), ("P", 1, 0), ("Q", -1, -1), ("B", 1, -1),
           ("R", -3, 0), ("R", 3, 0)]
DEFENSE = [("P", 0, -1), ("P", -1, -1), ("P", 1, -1), ("Q", 0, -2), ("R", -2, -2),
           ("R", 2, -2), ("B", 0, -3)]

rng = random.Random(0)


def rank_of(square):
    return int(square[1])


def file_of(square):
    return "abcdefgh".index(square[0])


def advance(side, rank):
    """Ranks `side` has come from its own end zone (rank 1 for White, 8 for Black)."""
    return rank - 1 if side == "white" else 8 - rank


def other(side):
    return "black" if side == "white" else "white"


def drive(side, rank, down, to_gain):
    """The worth of `side` having the ball on `rank`, at `down`, the line to gain `to_gain`."""
    short = max(0, (to_gain - rank) if side == "white" else (rank - to_gain))
    return 40 * advance(side, rank) - 15 * (down - 1) - 10 * short


def new_drive(side):
    """A new drive at the side's own 20 (after a score or a change of possession)."""
    start = 5 if side == "white" else 4
    return drive(side, start, 1, start + (2 if side == "white" else -2))


def signed(side, me, v):
    return v if side == me else -v


def ended_at(game, holder, square, me):
    """The worth of the play ending with `holder` holding the ball on `square`."""
    offense = game.offense
    rank = rank_of(square)
    if rank == (8 if holder == "white" else 1):  # in the end zone it attacks
        return signed(holder, me, 7 * POINT - new_drive(other(holder)))
    if holder != offense:  # a turnover
        return signed(holder, me, 60 + new_drive(holder))
    if rank == (1 if offense == "white" else 8):  # downed in its own end zone
        return signed(other(offense), me, 2 * POINT + new_drive(other(offense)))
    rank = min(7, max(2, rank))
    to_gain = game.line_to_gain
    reached = (rank >= to_gain) if offense == "white" else (rank <= to_gain)
    if reached:
        step = 2 if offense == "white" else -2
        v = drive(offense, rank, 1, min(8, max(1, rank + step))) + 20
    elif game.down == 4:
        v = -(60 + new_drive(other(offense)))
    else:
        v = drive(offense, rank, game.down + 1, to_gain)
    return signed(offense, me, v)


def reaches(game, square):
    """Whether the team to move can move a piece onto `square` now."""
    return any(len(a) >= 4 and a[2:4] == square and "^" not in a and ">" not in a
               for a in game.legal_actions())


def play_value(game, me):
    """The worth of the play as it stands, were it to end now."""
    ball = game.ball
    at = ball["square"]
    if ball["state"] == "carried":
        holder = game.piece_at(at)
        return ended_at(game, holder[0] if holder else game.possession, at, me)
    if ball["state"] == "in_flight":
        thrower = ball["thrown_by"]
        caught = ended_at(game, thrower, at, me)
        if ball["forward"] and thrower == game.offense:
            failed = ended_at(game, thrower, game.spot, me)  # incomplete: about no gain
        else:
            failed = ended_at(game, other(thrower), at, me)
        if ball["direct"]:
            return (3 * caught + failed) // 4
        # Onto an empty square: the team to move reaches it first if it can (the defense
        # intercepts, the throwing team catches); else the pass falls.
        if reaches(game, at):
            return caught if game.to_move == thrower else ended_at(game, other(thrower), at, me)
        return failed
    # Loose or contested: either team may come up with it.
    return (ended_at(game, game.offense, at, me) + ended_at(game, game.defense, at, me)) // 2


def value(game, me, depth=1):
    """The worth of `game` for `me`: score first, then the drive or the play."""
    white, black = game.score
    v = (white - black if me == "white" else black - white) * POINT
    if game.is_over:
        winner = game.winner
        return v + (0 if winner is None else signed(winner, me, WIN))
    decision = game.decision
    if decision in ("formation", "motion", "reaction"):
        offense = game.offense
        return v + signed(offense, me, drive(offense, game.line_of_scrimmage, game.down,
                                             game.line_to_gain))
    if decision == "penalty":
        # The team choosing takes the choice best for it.
        if depth <= 0:
            return v + play_value(game, me)
        chooser = game.to_move
        values = [value(game.after(a), me, depth - 1) for a in game.legal_actions()]
        return max(values) if chooser == me else min(values)
    v += play_value(game, me)
    for flag in game.flags:
        v += signed(flag["side"], me, -FLAG)
    # Pursuit: the team without the ball wants a piece close to it.
    chaser = other(game.possession)
    target = game.ball["square"]
    tf, tr = file_of(target), rank_of(target)
    near = min((max(abs(file_of(s) - tf), abs(rank_of(s) - tr))
                for s in game.squares(chaser)), default=8)
    return v + signed(chaser, me, -2 * near)


def search(game, me, deadline_ms):
    """The best legal action for `me`: one ply for all, two plies while time lasts."""
    start = time.monotonic()
    budget = max(0.005, deadline_ms / 4000.0)  # a quarter of the deadline, in seconds
    children = []
    for action in game.legal_actions():
        if action == "timeout":
            continue
        try:
            child = game.after(action)
        except zebra_engine.ZebraError:
            continue
        children.append((value(child, me), action, child))
    if not children:
        return None
    # Best first, so that the deeper look reaches the likely choices before time is up.
    children.sort(key=lambda c: -c[0])
    best_value, best = None, children[0][1]
    for shallow, action, child in children:
        if time.monotonic() - start > budget:
            break
        v = reply_value(child, me, shallow)
        if best_value is None or v > best_value:
            best_value, best = v, action
    return best


def reply_value(child, me, shallow):
    """The worth of `child` after the opponent's best answer (or `shallow` when it is ours
    to decide again, or no answer is a turn of play)."""
    if child.is_over or child.to_move == me or child.decision not in ("move", "contention"):
        return shallow
    worst = None
    for answer in child.legal_actions():
        if answer == "timeout":
            continue
        try:
            v = value(child.after(answer), me)
        except zebra_engine.ZebraError:
            continue
        if worst is None or v < worst:
            worst = v
    return shallow if worst is None else worst


def formation(game, request):
    """Our shape around the ball, or the engine's random formation if it ever is not legal."""
    side = request["side"]
    shape = OFFENSE if side == game.offense else DEFENSE
    text = zebra_bot.formation(request["state"], side, rng, shape)
    try:
        if game.check_formation(text) is None:
            return text
    except zebra_engine.ZebraError:
        pass
    return game.random_formation(rng.randrange(1 << 30))


def motion(game, legal):
    """Snap with a receiver behind the snapper; else put the king (or queen) there."""
    if game.snap_receiver() is not None or "snap" not in legal:
        return "snap" if "snap" in legal else legal[0]
    spot = game.spot
    behind_rank = rank_of(spot) + (-1 if game.offense == "white" else 1)
    behind = f"{spot[0]}{behind_rank}"
    for role in ("king", "queen", "rook", "bishop", "knight"):
        for square in game.squares(game.offense):
            if game.piece_at(square) != (game.offense, role):
                continue
            action = f"{square}>{behind}"
            if action in legal and game.presnap_foul(action) is None:
                return action
    return "snap"


def decide(request):
    if zebra_engine is None:
        return zebra_bot.fallback(request)
    kind = request["decision"]
    legal = request.get("legal") or []
    game = zebra_engine.Game.from_request(request)
    if kind == "formation":
        return formation(game, request)
    if kind == "motion":
        return motion(game, legal)
    if kind == "reaction":
        return "pass" if "pass" in legal else legal[0]
    choice = search(game, request["side"], request.get("deadline_ms") or 1000)
    return choice if choice in legal else zebra_bot.fallback(request)


def on_game_start(msg):
    global rng
    rng = random.Random(f"{msg.get('seed', 0)}:{msg.get('side', '')}")


if __name__ == "__main__":
    zebra_bot.run(decide, name="python-lookahead", author="zebra", version="1.0",
                  on_game_start=on_game_start)
