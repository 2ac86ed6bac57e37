"""The engine's API: a new game, notation, diagrams and requests in and out, copies."""

import copy
import json

import zebra_engine as ze
from conftest import example, random_action


def test_a_new_game_is_whites_opening_drive():
    game = ze.Game(plays_per_quarter=10)
    assert game == ze.Game.new(plays_per_quarter=10)
    assert (game.decision, game.to_move, game.phase) == ("formation", "white", "formation")
    assert (game.offense, game.defense, game.possession) == ("white", "black", "white")
    assert (game.down, game.distance, game.spot, game.quarter) == (1, 10, "e5", 1)
    assert (game.line_of_scrimmage, game.line_to_gain, game.goal_to_go) == (5, 7, False)
    assert game.score == (0, 0) and game.timeouts == (3, 3)
    assert game.ball == {"state": "spotted", "square": "e5"}
    assert game.pieces == [] and game.flags == [] and game.pending_play is None
    assert game.legal_actions() == []  # formations are not enumerable
    assert not game.is_over and game.result is None and game.winner is None
    assert game.penalty_options() is None and game.penalty_default() is None
    assert "white formation" in repr(game)


def test_a_situation_starts_where_it_says():
    game = ze.Game(plays_per_quarter=10, situation="quarter=4 left=10% score=14-17 "
                   "offense=white spot=e3 down=3 distance=10 timeouts=1-2")
    assert (game.quarter, game.score, game.timeouts) == (4, (14, 17), (1, 2))
    assert (game.spot, game.down, game.distance) == ("e3", 3, 10)


def test_formation_snap_and_a_move(snapped):
    game = snapped
    assert (game.decision, game.to_move, game.phase) == ("move", "white", "action")
    assert game.ball == {"state": "carried", "square": "e4"}
    assert game.piece_at("e4") == ("white", "king")
    assert "e4" in game.squares("white") and len(game.squares("black")) == 7
    legal = game.legal_actions()
    assert "e4^h8" in legal  # the king throws anywhere (4.3)
    assert all(game.is_legal(a) for a in legal)
    events = game.apply("e4^h8")
    assert events[0] == {"event": "thrown", "from": "e4", "to": "h8", "forward": True}
    assert game.ball["state"] == "in_flight" and game.ball["thrown_by"] == "white"
    assert game.to_move == "black"


def test_formations_are_checked_and_drawn_at_random():
    game = ze.Game()
    assert game.check_formation("[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]") is None
    assert "pawns" in game.check_formation("[Pe5,Ke4,Qe3,Nc4,Bf4,Rg5,Rh5]")
    for seed in range(5):
        formation = game.random_formation(seed)
        assert game.check_formation(formation) is None
    assert game.random_formation(3) == game.random_formation(3)


def test_motion_helpers():
    game = ze.Game()
    game.apply("[Pd5,Pe5,Qc3,Nc4,Bf4,Rg5,Rb5]")
    game.apply("[Pd6,Pe6,Qe7,Nc7,Bf7,Rd8,Rg6]")
    assert game.decision == "motion" and game.snap_receiver() is None
    assert game.presnap_foul("c3>e4") is None
    assert game.presnap_foul("g5>g7") == "false-start"
    game.apply("c3>e4")
    assert game.decision == "reaction" and game.to_move == "black"
    game.apply("pass")
    assert game.snap_receiver() == "e4"
    assert game.can_call_timeout()


def test_the_diagram_reads_back(snapped):
    text = snapped.diagram()
    assert "phase: action" in text
    again = ze.Game.from_diagram(text)
    assert again.diagram() == text
    assert again.legal_actions() == snapped.legal_actions()


def test_a_request_gives_its_game_as_a_dict_or_as_json():
    request = example("request")
    for given in (request, json.dumps(request), request["state"]):
        game = ze.Game.from_request(given)
        assert game.diagram() == request["state"]["diagram"]
        assert game.legal_actions() == request["legal"]
        assert (game.decision, game.to_move) == (request["decision"], request["side"])


def test_a_penalty_request_gives_its_choices_and_where_they_lead():
    request = example("request-penalty")
    game = ze.Game.from_request(request)
    assert (game.decision, game.to_move, game.phase) == ("penalty", "white", "penalty")
    assert game.legal_actions() == request["legal"]
    assert game.penalty_options() == request["penalty_options"]
    assert game.flags == request["state"]["flags"]
    assert game.pending_play == request["state"]["pending_play"]
    assert game.penalty_default() in request["legal"]
    for option in request["penalty_options"]:
        after = game.after(option["action"])
        assert (after.offense, after.spot, after.down) == (
            option["offense"], option["spot"], option["down"])
        assert after.score == (option["score"]["white"], option["score"]["black"])


def test_every_state_of_a_game_gives_the_same_game_back(rng):
    penalties = 0
    for _ in range(12):
        game = ze.Game(plays_per_quarter=2)
        while not game.is_over:
            request = {"state": game.state(), "penalty_options": game.penalty_options()}
            rebuilt = ze.Game.from_request(request)
            assert rebuilt.diagram() == game.diagram()
            assert rebuilt.legal_actions() == game.legal_actions()
            assert rebuilt.penalty_options() == game.penalty_options()
            penalties += game.decision == "penalty"
            game.apply(random_action(game, rng))
        assert game.state()["phase"] == "over"
    assert penalties > 0


def test_copies_are_independent(snapped):
    for twin in (snapped.copy(), copy.copy(snapped), copy.deepcopy(snapped)):
        assert twin == snapped and twin is not snapped
        twin.apply("e4^h8")
        assert twin != snapped
        assert snapped.ball == {"state": "carried", "square": "e4"}
    child = snapped.after("e4^h8")
    assert child.ball["state"] == "in_flight" and snapped.ball["state"] == "carried"
    assert child.to_move == "black" and snapped.to_move == "white"


def test_a_whole_random_game_reaches_its_result(rng):
    game = ze.Game(plays_per_quarter=4)
    seen = set()
    events = []
    for _ in range(100_000):
        if game.is_over:
            break
        seen.add(game.decision)
        events += game.apply(random_action(game, rng))
    assert game.is_over and game.decision is None and game.to_move is None
    assert game.phase == "over" and game.legal_actions() == []
    white, black = game.score
    expected = "1-0" if white > black else "0-1" if black > white else "1/2-1/2"
    assert game.result == expected
    assert game.winner == {"1-0": "white", "0-1": "black"}.get(expected)
    assert events[-1] == {"event": "game_over", "result": expected}
    assert {"formation", "motion", "move"} <= seen
    assert all(isinstance(e["event"], str) for e in events)


def test_a_timed_quarter_ends_with_the_play_its_clock_ran_out_in():
    game = ze.Game()  # timed quarters: the referee reports the game clock
    for action in ("[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]", "[Pd6,Pe6,Qe7,Nc7,Bf7,Rd8,Rg6]", "snap"):
        game.apply(action)
    assert game.expire("game-clock") == []  # the play goes on
    events = []
    while game.quarter == 1:
        events += game.apply(game.legal_actions()[0])
    assert {"event": "period_end", "quarter": 1} in events
