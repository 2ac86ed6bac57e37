"""Shared fixtures: the repository's paths, the protocol examples, seeded random play."""

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

import zebra_engine as ze

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "protocol" / "examples"


def example(name):
    """A protocol example message (protocol/examples/NAME.json) as a dict."""
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def random_action(game, rng):
    """A seeded random decision for whoever decides: a legal formation, else a legal
    action (never a timeout, so that quarters of plays always end)."""
    if game.decision == "formation":
        return game.random_formation(rng.randrange(1 << 32))
    legal = [a for a in game.legal_actions() if a != "timeout"]
    # Snap soon and rarely react, as a team would: the game reaches every phase quickly.
    for stop in ("snap", "pass"):
        if stop in legal and game.decision in ("motion", "reaction") and rng.random() < 0.5:
            return stop
    return rng.choice(legal)


def request_of(game, request_id=1, deadline_ms=1000):
    """The request the referee would send for `game`'s decision (the fields bots read)."""
    legal = game.legal_actions()
    return {
        "type": "request",
        "id": request_id,
        "decision": game.decision,
        "side": game.to_move,
        "state": game.state(),
        "deadline_ms": deadline_ms,
        "legal": legal if game.decision != "formation" else None,
        "penalty_options": game.penalty_options(),
    }


@pytest.fixture
def rng():
    return random.Random(20240607)


@pytest.fixture
def snapped():
    """White's first turn after the snap in the engine's doc example."""
    game = ze.Game(plays_per_quarter=10)
    for action in ("[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]", "[Pd6,Pe6,Qe7,Nc7,Bf7,Rd8,Rg6]", "snap"):
        game.apply(action)
    return game


def zebra_binary():
    """The zebra binary: $ZEBRA_BIN, else target/release/zebra (under $CARGO_TARGET_DIR
    when set), else None."""
    if os.environ.get("ZEBRA_BIN"):
        return Path(os.environ["ZEBRA_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    path = target / "release" / "zebra"
    return path if path.exists() else None


def play_against_greedy(bot, plays=4):
    """One whole game of `bot` (a command line) as White against the bundled greedy bot,
    walled as Zebra walls every bot, with generous clocks and a wall-time limit far above
    what the game takes, so that a busy machine does not fail it: the last line of
    `zebra play`'s output. Skipped without a zebra binary (failed in CI, where
    ZEBRA_REQUIRE_BIN is set)."""
    zebra = zebra_binary()
    if zebra is None or not zebra.exists():
        if os.environ.get("ZEBRA_REQUIRE_BIN"):  # CI: a missing binary is a failure
            pytest.fail(f"ZEBRA_REQUIRE_BIN is set but there is no zebra binary ({zebra})")
        pytest.skip("no zebra binary: build it (cargo build --release) or set ZEBRA_BIN")
    greedy = zebra.parent / "zebra-greedy-bot"
    done = subprocess.run(
        [str(zebra), "play", "--white", bot,
         "--black", str(greedy) if greedy.exists() else "zebra-greedy-bot",
         "--tc", f"plays={plays},play=5s,reaction=1s", "--quiet"],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1], done.stdout + done.stderr

