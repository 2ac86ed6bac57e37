"""The example bot, bots/python/lookahead_bot.py: its answers, and a real game under Zebra."""

import os
import re
import subprocess
import sys

import pytest

import zebra_engine as ze
from conftest import REPO, example, random_action, request_of, zebra_binary

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
    zebra = zebra_binary()
    if zebra is None or not zebra.exists():
        if os.environ.get("ZEBRA_REQUIRE_BIN"):  # CI: a missing binary is a failure
            pytest.fail(f"ZEBRA_REQUIRE_BIN is set but there is no zebra binary ({zebra})")
        pytest.skip("no zebra binary: build it (cargo build --release) or set ZEBRA_BIN")
    greedy = zebra.parent / "zebra-greedy-bot"
    bot = f"{sys.executable} {REPO / 'bots' / 'python' / 'lookahead_bot.py'}"
    # Generous clocks (the bot thinks a quarter of each deadline at most), and a wall-time
    # limit far above what four plays a quarter take, so that a busy machine does not fail it.
    done = subprocess.run(
        [str(zebra), "play", "--white", bot,
         "--black", str(greedy) if greedy.exists() else "zebra-greedy-bot",
         "--tc", "plays=4,play=5s,reaction=1s", "--quiet"],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert re.match(r"result (1-0|0-1|1/2-1/2) \(normal\) white python-lookahead \d+ "
                    r"black greedy \d+$", last), done.stdout + done.stderr
