"""The gauntlet (bots/python/gauntlet_*.py): six opponents of different styles, written
from the game's and the protocol's documents alone. Each answers the decisions of seeded
random games legally (formations, motion, reactions, moves at least), and plays a whole
game under Zebra, walled as every bot is."""

import importlib
import os
import re
import subprocess
import sys

import pytest

import zebra_engine as ze
from conftest import REPO, random_action, request_of, zebra_binary

KIT = REPO / "bots" / "python"
sys.path.insert(0, str(KIT))

GAUNTLET = sorted(p.stem for p in KIT.glob("gauntlet_*.py"))


def test_the_gauntlet_has_its_six_styles():
    assert GAUNTLET == [
        "gauntlet_blitz",
        "gauntlet_clock_aware",
        "gauntlet_conservative",
        "gauntlet_pass_heavy",
        "gauntlet_penalty_savvy",
        "gauntlet_run_heavy",
    ]


def legal(request, answer):
    game = ze.Game.from_request(request)
    if request["decision"] == "formation":
        return game.check_formation(answer) is None
    return answer in request["legal"]


@pytest.mark.parametrize("name", GAUNTLET)
def test_it_answers_every_decision_of_random_games_legally(name, rng):
    bot = importlib.import_module(name)
    kinds = set()
    for seed in range(2):
        game = ze.Game(plays_per_quarter=1)
        start = getattr(bot, "on_game_start", None) or getattr(bot, "start", None)
        start({"type": "game_start", "seed": seed, "side": "white",
               "time_control": {"plays_per_quarter": 1}})
        while not game.is_over:
            # Short deadlines: each bot budgets a share of them.
            request = request_of(game, deadline_ms=30)
            answer = bot.decide(request)
            assert legal(request, answer), (name, request["decision"], answer)
            kinds.add(game.decision)
            # The game goes on at random, so that it meets every kind of decision.
            game.apply(random_action(game, rng))
    assert {"formation", "motion", "reaction", "move"} <= kinds


@pytest.mark.parametrize("name", GAUNTLET)
def test_it_plays_a_whole_game_under_zebra(name):
    zebra = zebra_binary()
    if zebra is None or not zebra.exists():
        if os.environ.get("ZEBRA_REQUIRE_BIN"):  # CI: a missing binary is a failure
            pytest.fail(f"ZEBRA_REQUIRE_BIN is set but there is no zebra binary ({zebra})")
        pytest.skip("no zebra binary: build it (cargo build --release) or set ZEBRA_BIN")
    greedy = zebra.parent / "zebra-greedy-bot"
    bot = f"{sys.executable} {KIT / (name + '.py')}"
    # Walled as Zebra walls every bot (the kit beside it is all it can import), generous
    # clocks and a wall-time limit far above what two plays a quarter take, so that a busy
    # machine does not fail it.
    done = subprocess.run(
        [str(zebra), "play", "--white", bot,
         "--black", str(greedy) if greedy.exists() else "zebra-greedy-bot",
         "--tc", "plays=2,play=5s,reaction=2s", "--quiet"],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert re.match(r"result (1-0|0-1|1/2-1/2) \(normal\) white \S+ \d+ black greedy \d+$",
                    last), done.stdout + done.stderr
