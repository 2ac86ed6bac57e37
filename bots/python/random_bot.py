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

rng = random.Random(0)


def on_game_start(msg):
    global rng
    rng = random.Random(f"{msg.get('seed', 0)}:{msg.get('side', '')}")


def decide(request):
    if request["decision"] == "formation":
        return zebra_bot.formation(request["state"], request["side"], rng)
    legal = [a for a in request.get("legal") or [] if a != "timeout"]
    if "snap" in legal and request["decision"] == "motion":
        return "snap"
    if "pass" in legal and request["decision"] == "reaction":
        return "pass"
    return rng.choice(legal) if legal else "pass"


if __name__ == "__main__":
    zebra_bot.run(decide, name="python-random", author="zebra", version="1.0",
                  on_game_start=on_game_start)
