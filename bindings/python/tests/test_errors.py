"""Every bad input raises a typed exception, and leaves the game as it was."""

import pytest

import zebra_engine as ze
from conftest import example


def test_the_exceptions_form_one_family():
    assert issubclass(ze.ZebraError, Exception)
    for error in (ze.NotationError, ze.IllegalAction, ze.InvalidState):
        assert issubclass(error, ze.ZebraError)
    assert issubclass(ze.WrongPhase, ze.IllegalAction)
    assert issubclass(ze.DiagramError, ze.InvalidState)


@pytest.mark.parametrize("text", [
    "", "e9e4", "zz", "[Pd5,Pd5]", "[Xd5]", "accept:roughing", "e4e5/x", "snap!", "e4^",
])
def test_bad_notation(snapped, text):
    before = snapped.copy()
    with pytest.raises(ze.NotationError):
        snapped.apply(text)
    with pytest.raises(ze.NotationError):
        snapped.after(text)
    assert not snapped.is_legal(text)
    assert snapped == before


@pytest.mark.parametrize("action", ["e4e8", "a1a2", "d6d5", "e4^e4", "accept:holding"])
def test_illegal_actions(snapped, action):
    before = snapped.copy()
    with pytest.raises(ze.IllegalAction) as raised:
        snapped.apply(action)
    assert raised.type is ze.IllegalAction or raised.type is ze.WrongPhase
    assert snapped == before


@pytest.mark.parametrize("action", ["snap", "e4e5", "decline", "e3>e4"])
def test_actions_in_the_wrong_phase(action):
    game = ze.Game()  # White must form
    with pytest.raises(ze.WrongPhase):
        game.apply(action)
    assert game == ze.Game()


def test_wrong_phase_for_formations_clocks_and_penalties(snapped):
    with pytest.raises(ze.WrongPhase):
        snapped.apply("[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]")
    with pytest.raises(ze.WrongPhase):
        snapped.random_formation()
    with pytest.raises(ze.WrongPhase):
        snapped.check_formation("[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]")
    with pytest.raises(ze.WrongPhase):
        ze.Game(plays_per_quarter=1).expire("game-clock")  # no game clock in play counts
    with pytest.raises(ze.NotationError):
        snapped.expire("shot-clock")


def test_nothing_is_applied_once_the_game_is_over(rng):
    from conftest import random_action
    game = ze.Game(plays_per_quarter=1)
    while not game.is_over:
        game.apply(random_action(game, rng))
    for action in ("snap", "pass", "[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]"):
        with pytest.raises(ze.WrongPhase):
            game.apply(action)


def test_unplaceable_formations():
    game = ze.Game()
    with pytest.raises(ze.IllegalAction):
        game.check_formation("[Qd5,Qe5,Pd4,Pe4,Nc4,Bf4,Rg5]")  # two queens
    with pytest.raises(ze.IllegalAction):
        game.apply("[Qd5,Qe5,Pd4,Pe4,Nc4,Bf4,Rg5]")
    with pytest.raises(ze.NotationError):
        game.check_formation("not a formation")
    assert game == ze.Game()


@pytest.mark.parametrize("text, line", [
    ("", None),
    ("offense: purple\n", "line 1"),
    ("phase: action\n9 . . . . . . . .\n", "line 2"),
    ("bogus-key: 1\n", "line 1"),
    ("phase: penalty\n" + "".join(f"{r} . . . . . . . .\n" for r in range(8, 0, -1)), None),
])
def test_bad_diagrams(text, line):
    with pytest.raises(ze.DiagramError) as raised:
        ze.Game.from_diagram(text)
    if line:
        assert line in str(raised.value)


def test_bad_requests_and_states():
    request = example("request")
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request("{not json")
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request("[1, 2]")
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request({"state": {"phase": "action"}})
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request({"state": dict(request["state"], down="first")})
    with pytest.raises(ze.DiagramError):
        ze.Game.from_request({"state": dict(request["state"], diagram="offense: nobody\n")})
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request({"state": {"x": object()}})  # not JSON at all
    penalty = example("request-penalty")
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request({"state": dict(penalty["state"], flags=[])})
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request({"state": dict(penalty["state"], pending_play=None)})
    wrong = [dict(o, down=4) for o in penalty["penalty_options"]]
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request(dict(penalty, penalty_options=wrong))
    with pytest.raises(ze.InvalidState):
        ze.Game.from_request(dict(penalty, penalty_options="none"))


def test_bad_settings():
    with pytest.raises(ze.InvalidState):
        ze.Game(plays_per_quarter=0)
    with pytest.raises(ze.InvalidState):
        ze.Game(situation="quarter=9")
    with pytest.raises(OverflowError):
        ze.Game(plays_per_quarter=-1)


@pytest.mark.parametrize("garbage", [None, 42, 4.2, b"snap", ["snap"], {"action": "snap"}])
def test_garbage_types_raise_type_errors(snapped, garbage):
    before = snapped.copy()
    with pytest.raises(TypeError):
        snapped.apply(garbage)
    with pytest.raises(TypeError):
        snapped.after(garbage)
    with pytest.raises(TypeError):
        snapped.is_legal(garbage)
    with pytest.raises(TypeError):
        ze.Game.from_diagram(garbage)
    if not isinstance(garbage, dict):
        with pytest.raises(TypeError):
            ze.Game.from_request(garbage)
    with pytest.raises(TypeError):
        ze.Game(plays_per_quarter="ten")
    assert snapped == before


def test_bad_squares_and_sides(snapped):
    with pytest.raises(ze.NotationError):
        snapped.squares("green")
    with pytest.raises(ze.NotationError):
        snapped.piece_at("z9")
    with pytest.raises(ze.NotationError):
        snapped.presnap_foul("nonsense")
