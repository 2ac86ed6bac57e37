"""Chess Eleven's positions from Python: read, legal actions, what an action leads to, perft."""

import pytest

import zebra_engine as ze

KICK_OFF = "2rkqr2/1bpppp2/2n2n2/8/8/2N2N2/1BPPPP2/2RKQR2 w spot - - 0-0 1.0 0"


def test_the_kick_off_reads_lists_and_counts():
    pos = ze.ChessEleven(KICK_OFF)
    assert pos.text() == KICK_OFF
    assert pos.side() == "white"
    assert sorted(pos.legal()) == ["c3d5", "c3e4", "d2d4", "e2e4", "f3d4", "f3e5"]
    assert [pos.perft(d) for d in (1, 2, 3)] == [6, 55, 1450]


def test_an_action_leads_to_a_new_position_and_leaves_this_one():
    pos = ze.ChessEleven(KICK_OFF)
    after = pos.after("d2d4")
    assert after.text() == "2rkqr2/1bpppp2/2n2n2/8/3P4/2N2N2/1BP1PP2/2RKQR2 w d4 m d3 0-0 1.0 0"
    assert sorted(after.legal()) == ["d4^f3", "end"]
    assert pos.text() == KICK_OFF


def test_a_shot_at_an_empty_goal_restarts_with_a_goal():
    pos = ze.ChessEleven("3k4/8/8/8/8/8/8/3K3Q w h1 - - 0-0 1.0 0")
    assert not pos.is_legal("h1*e8")
    # The queen moves next to the goal and shoots at the empty square.
    moved = pos.after("h1h5")
    assert "h5*e8" in moved.legal()
    assert moved.shot_outcomes("e8") == ["goal"]
    assert moved.after("h5*e8") == ("goal", "white", [1, 0])


def test_a_guarded_goal_takes_its_outcome():
    pos = ze.ChessEleven("3k4/8/8/8/8/8/8/3K3Q w h1 - - 0-0 1.0 0").after("h1h4")
    assert pos.shot_outcomes("d8") == ["goal", "save", "corner"]
    saved = pos.after("h4*d8", "save")
    assert saved.side() == "black" and " d8 " in saved.text()
    with pytest.raises(ze.IllegalAction):
        pos.after("h4*d8", "block")


@pytest.mark.parametrize("text", ["", "8/8 w", "2rkqr2/1bpppp2/2n2n2/8/8/2N2N2/1BPPPP2/2RKQR2 x spot - - 0-0 1.0 0"])
def test_a_bad_position_is_invalid_state(text):
    with pytest.raises(ze.InvalidState):
        ze.ChessEleven(text)


def test_bad_and_illegal_actions_raise_and_change_nothing():
    pos = ze.ChessEleven(KICK_OFF)
    with pytest.raises(ze.NotationError):
        pos.after("d2-d4")
    with pytest.raises(ze.IllegalAction):
        pos.after("c2c4")
    with pytest.raises(ze.NotationError):
        pos.after("d2d4", "miss")
    assert pos.text() == KICK_OFF
