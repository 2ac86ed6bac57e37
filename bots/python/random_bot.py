#!/usr/bin/env python3
"""A complete random bot for Zebra, in plain Python 3 (standard library only).

    zebra play --white 'python3 bots/python/random_bot.py'     # against the bundled random bot

It picks uniformly among the legal actions of each request (never a timeout), snaps at
once and never reacts before the snap, and builds its formations from the state:

- offense: a pawn on the ball spot (the snapper), a piece right behind it to take the
  snap, and five more pieces (at least one more pawn) on or behind the line;
- defense: seven pieces, at least two pawns, no king, all beyond the line, on squares
  the offense does not hold.

White's "behind" is the lower ranks, Black's the higher ones. The generator is seeded
from `game_start` (seed and side), so a game replays the same way.
"""

import os
import random
import sys

sys.dont_write_bytecode = True  # keep the bots directory clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zebra_bot  # noqa: E402

FILES = "abcdefgh"
# Pieces on each sideline (rules 2.2), by notation letter.
SIDELINE = {"P": 8, "N": 2, "B": 2, "R": 2, "Q": 1, "K": 1}

rng = random.Random(0)


def squares():
    return [f + str(r) for r in range(1, 9) for f in FILES]


def formation(state, side, rng):
    """A legal formation (rules 3.2) for `side`, in notation: `[Pe5,Ke4,...]`."""
    offense = state["offense"]
    spot = state["spot"]
    line = int(spot[1])
    forward = 1 if offense == "white" else -1
    taken = {p["square"] for p in state.get("pieces", [])}

    def offense_half(sq):  # on the line of scrimmage or behind it, as the offense sees it
        return (int(sq[1]) - line) * forward <= 0

    pool = [role for role, n in SIDELINE.items() for _ in range(n)]
    placed = {}
    if side == offense:
        free = [sq for sq in squares() if offense_half(sq) and sq not in taken]
        placed[spot] = "P"
        behind = spot[0] + str(line - forward)
        placed[behind] = rng.choice("KQRBN")
        roles = ["P"]  # a second pawn
        for role in placed.values():
            pool.remove(role)
        pool.remove("P")
    else:
        free = [sq for sq in squares() if not offense_half(sq) and sq not in taken]
        pool = [r for r in pool if r != "K"]
        roles = ["P", "P"]
        pool.remove("P")
        pool.remove("P")
    rng.shuffle(pool)
    roles += pool[: 7 - len(placed) - len(roles)]
    free = [sq for sq in free if sq not in placed]
    for role, sq in zip(roles, rng.sample(free, len(roles))):
        placed[sq] = role
    return "[" + ",".join(role + sq for sq, role in placed.items()) + "]"


def on_game_start(msg):
    global rng
    rng = random.Random(f"{msg.get('seed', 0)}:{msg.get('side', '')}")


def decide(request):
    if request["decision"] == "formation":
        return formation(request["state"], request["side"], rng)
    legal = [a for a in request.get("legal") or [] if a != "timeout"]
    if "snap" in legal and request["decision"] == "motion":
        return "snap"
    if "pass" in legal and request["decision"] == "reaction":
        return "pass"
    return rng.choice(legal) if legal else "pass"


if __name__ == "__main__":
    zebra_bot.run(decide, name="python-random", author="zebra", version="1.0",
                  on_game_start=on_game_start)
