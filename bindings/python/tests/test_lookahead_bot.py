"""The example bot, bots/python/lookahead_bot.py: its answers, and a real game under Zebra."""

import re
import sys

import pytest

import zebra_engine as ze
from conftest import REPO, example, play_against_greedy, random_action, request_of

sys.path.insert(0, str(REPO / "bots" / "python"))
import lookahead_bot  # noqa: E402


def answer_is_legal(request, answer):
    game = ze.Game.from_request(request)
    if request["decision"] == "formation":
        return game.check_formation(answer) is None
    return answer in request["legal"]


@pytest.mark.parametrize("name", ["request", "request-penalty"])
def test_it_answers_the_protocol_examples_legally(name):
    request = example(name)
    assert answer_is_legal(request, lookahead_bot.decide(request))


def test_it_answers_every_decision_of_random_games_legally(rng):
    kinds = set()
    for _ in range(3):
        game = ze.Game(plays_per_quarter=1)
        while not game.is_over:
            request = request_of(game, deadline_ms=200)
            answer = lookahead_bot.decide(request)
            assert answer_is_legal(request, answer), (request["decision"], answer)
            kinds.add(game.decision)
            # The game goes on at random, so that it meets every kind of decision.
            game.apply(random_action(game, rng))
    assert {"formation", "motion", "reaction", "move"} <= kinds


def test_it_plays_a_whole_game_under_zebra():
    bot = f"{sys.executable} {REPO / 'bots' / 'python' / 'lookahead_bot.py'}"
    # Four plays a quarter (the bot thinks a quarter of each deadline at most).
    last, said = play_against_greedy(bot)
    assert re.match(r"result (1-0|0-1|1/2-1/2) \(normal\) white python-lookahead \d+ "
                    r"black greedy \d+$", last), said
