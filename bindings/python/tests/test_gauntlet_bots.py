"""The gauntlet (bots/python/gauntlet_*.py): six opponents of different styles, each written
from the game's and the protocol's documents alone. Each answers every decision of seeded
random games legally, and passes `zebra check-bot` inside Zebra's sandbox."""

import importlib
import os
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
def test_it_passes_check_bot_inside_the_sandbox(name):
    zebra = zebra_binary()
    if zebra is None or not zebra.exists():
        if os.environ.get("ZEBRA_REQUIRE_BIN"):  # CI: a missing binary is a failure
            pytest.fail(f"ZEBRA_REQUIRE_BIN is set but there is no zebra binary ({zebra})")
        pytest.skip("no zebra binary: build it (cargo build --release) or set ZEBRA_BIN")
    done = subprocess.run(
        [str(zebra), "check-bot", f"{sys.executable} {KIT / (name + '.py')}"],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no problems found" in done.stdout, done.stdout
