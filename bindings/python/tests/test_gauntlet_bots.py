"""The gauntlet (bots/python/gauntlet_*.py): six opponents of different styles, written
from the game's and the protocol's documents alone. Each answers the decisions of seeded
random games legally (formations, motion, reactions, moves at least), and plays a whole
game under Zebra, walled as every bot is."""

import importlib
import re
import sys

import pytest

import zebra_engine as ze
from conftest import REPO, play_against_greedy, random_action, request_of

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
    # Walled: the kit beside it is all it can import.
    last, said = play_against_greedy(f"{sys.executable} {KIT / (name + '.py')}", plays=2)
    assert re.match(r"result (1-0|0-1|1/2-1/2) \(normal\) white \S+ \d+ black greedy \d+$",
                    last), said
