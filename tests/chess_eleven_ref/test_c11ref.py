"""Tests of the Chess Eleven reference (c11ref.py), one or more per checkable ruling.

Every position is built by hand with mk(): pieces as "Kd1 Ra4 pc4" (upper case White,
lower case Black), then the C53 fields.
"""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c11ref as c  # noqa: E402

KICKOFF = "2rkqr2/1bpppp2/2n2n2/8/8/2N2N2/1BPPPP2/2RKQR2 w spot - - 0-0 1.0 0"


def mk(pieces, side="w", ball="spot", prog="-", ep="-", tally="0-0", hg="1.0", shots=0):
    board = ["."] * 64
    for tok in pieces.split():
        board[c.sqparse(tok[1:])] = tok[0]
    rows = []
    for r in range(7, -1, -1):
        row, n = "", 0
        for f in range(8):
            pc = board[r * 8 + f]
            if pc == ".":
                n += 1
            else:
                row += (str(n) if n else "") + pc
                n = 0
        rows.append(row + (str(n) if n else ""))
    return c.parse("%s %s %s %s %s %s %s %d" % ("/".join(rows), side, ball, prog, ep,
                                                tally, hg, shots))


def L(p):
    return sorted(c.legal(p))


def S(res):
    return c.fmt_result(res)


# ------------------------------------------------------------------ C53, C51: notation

def test_c53_round_trip_example():
    p = c.parse(KICKOFF)
    assert c.fmt(p) == KICKOFF
    for t in ["4k3/8/8/8/8/8/8/3K4 w d1 cpm e3 3-2 2.17 5", "4k3/8/8/8/8/8/8/3K4 b flag-a1 cm - 0-0 1.1 1",
              "4k3/8/8/8/8/8/8/3K4 w d1 mp - 0-0 1.3 0"]:
        assert c.fmt(c.parse(t)) == t


def test_c53_rejects_non_canonical():
    with pytest.raises(ValueError):
        c.parse("2rkqr2/1bpppp2/2n2n2/44/8/2N2N2/1BPPPP2/2RKQR2 w spot - - 0-0 1.0 0")
    with pytest.raises(ValueError):
        c.parse("2rkqr2/1bpppp2/2n2n2/8/8/2N2N2/1BPPPP2/2RKQR2 w spot x - 0-0 1.0 0")


# ------------------------------------------------------------------ C15, C16: kick-off

def test_c15_kickoff_compelled_to_circle():
    assert L(c.parse(KICKOFF)) == ["c3d5", "c3e4", "d2d4", "e2e4", "f3d4", "f3e5"]


def test_c15_no_circle_move_any_move_and_ball_stays():
    p = mk("Kd1 Pa2 kd8 pa7")
    assert L(p) == ["a2a3", "a2a4", "d1c1", "d1c2", "d1d2", "d1e1", "d1e2"]
    q = c.apply(p, "a2a3")
    assert S(q) == "3k4/p7/8/8/8/P7/8/3K4 b spot - - 0-0 1.1 0"
    assert "a7a6" in c.legal(q)


def test_c15_compulsion_applies_to_second_side_too():
    # White could not reach the circle, ball stays; Black can, and must.
    p = mk("Kd1 Pa2 kd8 pa7 nf6", side="b", hg="1.1")
    assert L(p) == ["f6d5", "f6e4"]


def test_c16_circle_move_takes_ball_and_go_goes_on():
    q = c.apply(c.parse(KICKOFF), "d2d4")
    # C53: the en passant square is written after every two-step.
    assert S(q) == "2rkqr2/1bpppp2/2n2n2/8/3P4/2N2N2/1BP1PP2/2RKQR2 w d4 m d3 0-0 1.0 0"
    assert L(q) == ["d4^f3", "end"]


def test_c19_go_ends_by_itself_without_pass_or_shot():
    q = c.apply(c.parse(KICKOFF), "c3d5")      # knight on d5: no pass, no shot
    assert S(q) == "2rkqr2/1bpppp2/2n2n2/3N4/8/5N2/1BPPPP2/2RKQR2 b d5 - - 0-0 1.1 0"


# ------------------------------------------------------------------ C19, C20: goes

def test_c19_possession_go_starts_with_a_move_only():
    # the carrier could shoot and pass, but the move is first
    p = mk("Kd1 Rd4 Nc2 kh8", ball="d4")
    assert all(len(a) == 4 and "^" not in a and "*" not in a for a in c.legal(p))


def test_c19_pass_then_shot_then_go_ends():
    p = mk("Kh1 Ra4 Ba5 kh8", ball="a4", prog="m")
    # Ra4: a5 bishop adjacent on the file -> pass; shot a4? no line to d8/e8
    assert L(p) == ["a4^a5", "end"]
    q = c.apply(p, "a4^a5")
    # bishop a5 -> d8 diagonal (b6, c7 empty): shot
    assert S(q) == "7k/8/8/B7/R7/8/8/7K w a5 mp - 0-0 1.0 0"
    assert L(q) == ["a5*d8", "end"]
    r = c.apply(q, "a5*d8")
    assert r == ("restart", "goal", "w", (1, 0))
    assert S(c.apply(q, "end")) == "7k/8/8/B7/R7/8/8/7K b a5 - - 0-0 1.1 0"


def test_c19_after_pass_without_shot_go_ends():
    p = mk("Kh1 Ra4 Na6 kh8", ball="a4", prog="m")
    assert L(p) == ["a4^a6", "end"]
    q = c.apply(p, "a4^a6")   # knight a6: no shot
    assert S(q) == "7k/8/N7/8/R7/8/8/7K b a6 - - 0-0 1.1 0"


def test_c20_defending_go_is_one_move():
    p = mk("Kd1 Ra4 kh8 pg7", side="b", ball="a4")
    q = c.apply(p, "g7g6")
    assert S(q) == "7k/8/6p1/8/R7/8/8/3K4 w a4 - - 0-0 1.1 0"


# ------------------------------------------------------------------ C18: capture and ball

def test_c18_capture_by_defender_wins_ball_but_go_ends():
    p = mk("Kd1 Ra4 Nb5 kh8 pa6", side="b", ball="a4")
    q = c.apply(p, "a6b5")      # takes the knight (not the carrier)
    assert S(q) == "7k/8/8/1p6/R7/8/8/3K4 w b5 - - 0-0 1.1 0"


def test_c18_capture_by_side_with_ball_keeps_ball():
    p = mk("Kd1 Ra4 Pa3 Nc3 kh8 pb5", ball="a4")
    q = c.apply(p, "c3b5")
    assert q.ball == ("c", c.sqparse("a4"))
    assert q.side == "w" and q.progress == "m"


def test_c17_carrier_takes_ball_along():
    p = mk("Kd1 Ra4 Nc3 kh8", ball="a4")
    q = c.apply(p, "a4a1")
    assert q.ball == ("c", c.sqparse("a1"))


# ------------------------------------------------------------------ C22-C24: passes

def test_c23_pass_reach_line_includes_first_piece_and_is_blocked_by_it():
    # rook a4: c4 own pawn reached, e4 bishop behind it blocked; a7 knight reached
    p = mk("Kh1 Ra4 Pc4 Be4 Na7 kh8", ball="a4", prog="m")
    assert L(p) == ["a4^a7", "a4^c4", "end"]


def test_c23_opponent_piece_blocks_a_pass():
    p = mk("Kh1 Ra4 Pc4 Be4 Na7 kh8 ra6", ball="a4", prog="m")
    assert L(p) == ["a4^c4", "end"]


def test_c22_pass_by_receivers_reach_pawn_two_step():
    # knight e4 does not reach e2, but the pawn e2 reaches e4 by its two-step
    p = mk("Kh1 Ne4 Pe2 kh8", ball="e4", prog="m")
    assert L(p) == ["e4^e2", "end"]
    # the square between must be empty (any piece blocks a pass)
    p = mk("Kh1 Ne4 Pe2 kh8 pe3", ball="e4", prog="m")
    assert L(p) == []
    p = mk("Kh1 Ne4 Pe2 Be3 kh8", ball="e4", prog="m")
    assert L(p) == []


def test_c23_pawn_passes_straight_ahead_and_diagonally():
    p = mk("Kh1 Pc3 Nc4 Bb4 Rd4 kh8", ball="c3", prog="m")
    assert L(p) == ["c3^b4", "c3^c4", "c3^d4", "end"]


def test_c23_knight_pass_leaps():
    p = mk("Kh1 Nb1 Pb2 Pc2 Rc3 kh8", ball="b1", prog="m")
    # b2 (pawn b2 reaches? no: b2 pawn reaches b3,a3,c3; knight b1 reaches c3, d2, a3)
    assert L(p) == ["b1^c3", "end"]


def test_c24_no_pass_to_opponent_or_empty_square():
    p = mk("Kh1 Ra4 kh8 na6", ball="a4", prog="m")
    assert L(p) == []


# ------------------------------------------------------------------ C25, C26: shots

def test_c25_own_pieces_do_not_block_a_shot():
    p = mk("Kh1 Rd3 Pd5 kh8", ball="d3", prog="m")
    assert "d3*d8" in c.legal(p)


def test_c25_opponent_pieces_block_a_shot():
    p = mk("Kh1 Rd3 Pd5 kh8 nd6", ball="d3", prog="m")
    assert "d3*d8" not in c.legal(p)


def test_c25_no_shot_at_own_held_goal_square():
    p = mk("Kh1 Rd3 Nd8 kh8", ball="d3", prog="m")
    assert not any("*" in a for a in c.legal(p))


def test_c25_knight_shot_leaps():
    p = mk("Kh1 Nc6 kh8 pc7 pd7 pb7", ball="c6", prog="m")
    # knight c6 reaches e7, d8, b8, a7, a5, b4, d4, e5: shot at d8 only
    assert [a for a in c.legal(p) if "*" in a] == ["c6*d8"]


def test_c25_black_shoots_at_d1_e1():
    p = mk("Kh8 kh1 qe4", side="b", ball="e4", prog="m")
    assert sorted(a for a in c.legal(p) if "*" in a) == ["e4*e1"]


def test_c26_outcomes_save_block_corner():
    p = mk("Kh1 Rd3 Qa1 kd8", ball="d3", prog="m")
    d = c.divide(p, 1)
    assert set(k for k in d if k.startswith("d3*d8")) == {
        "d3*d8=goal", "d3*d8=save", "d3*d8=corner"}
    assert c.apply(p, "d3*d8", "goal") == ("restart", "goal", "w", (1, 0))
    q = c.apply(p, "d3*d8", "save")
    assert S(q) == "3k4/8/8/8/8/3R4/8/Q6K b d8 - - 0-0 1.1 1"
    with pytest.raises(ValueError):
        c.apply(p, "d3*d8", "block")
    with pytest.raises(ValueError):
        c.apply(p, "d3*d8")
    p2 = mk("Kh1 Rd3 kh8 bd8", ball="d3", prog="m")
    q = c.apply(p2, "d3*d8", "block")
    assert S(q) == "3b3k/8/8/8/8/3R4/8/7K b d8 - - 0-0 1.1 1"


def test_c26_shot_at_empty_goal_scores_without_a_draw():
    p = mk("Kh1 Re3 kh8", ball="e3", prog="m", tally="2-3")
    assert c.divide(p, 1)["e3*e8"] == 1
    assert c.apply(p, "e3*e8") == ("restart", "goal", "w", (3, 3))


# ------------------------------------------------------------------ C34-C36: corner

CORNER = dict(ball="flag-h8", prog="c", hg="1.4", shots=1)


def test_c34_corner_puts_ball_at_flag_and_starts_corner_go():
    p = mk("Kh1 Re3 Pe2 kd8 be8", ball="e3", prog="m", ep="-", hg="1.3")
    q = c.apply(p, "e3*e8", "corner")
    assert S(q) == "3kb3/8/8/8/8/4R3/4P3/7K w flag-h8 c - 0-0 1.4 1"
    # black queen a4 -> d1 diagonal (b3, c2 empty), white queen on d1: a block or corner
    p = mk("Kh8 Qd1 kb8 qa4", side="b", ball="a4", prog="m")
    q = c.apply(p, "a4*d1", "corner")
    assert q.ball == ("flag", c.sqparse("a1")) and q.side == "b" and q.progress == "c"


def test_c35_corner_go_first_element_move_or_corner_pass():
    p = mk("Kd1 Rh3 Nf7 kd8", **CORNER)
    acts = c.legal(p)
    assert "h8^h3" in acts and "h8^f7" in acts
    assert "end" not in acts
    assert "h3h5" in acts and "f7h6" in acts


def test_c35_corner_pass_then_move_shot_or_end():
    p = mk("Kd1 Rh3 Nf7 kd8", **CORNER)
    q = c.apply(p, "h8^h3")
    assert S(q) == "3k4/5N2/8/8/8/7R/8/3K4 w h3 cp - 0-0 1.4 1"
    acts = c.legal(q)
    assert "end" in acts and "h3h8" in acts and "f7e5" in acts
    assert not any("^" in a for a in acts)          # the pass is used
    r = c.apply(q, "h3e3")                            # the move; now the rook shoots e8
    assert S(r) == "3k4/5N2/8/8/8/4R3/8/3K4 w e3 cpm - 0-0 1.4 1"
    assert L(r) == ["e3*e8", "end"]
    s = c.apply(q, "end")
    assert S(s) == "3k4/5N2/8/8/8/7R/8/3K4 b h3 - - 0-0 1.5 1"


def test_c35_move_onto_corner_square_takes_ball():
    p = mk("Kd1 Rh3 Nf7 kd8", **CORNER)
    q = c.apply(p, "h3h8")
    assert S(q) == "3k3R/5N2/8/8/8/8/8/3K4 w h8 cm - 0-0 1.4 1"
    # pass to f7 (knight reaches h8), shot at e8 (empty) and d8 (king, save), end
    assert L(q) == ["end", "h8*d8", "h8*e8", "h8^f7"]
    assert set(c.divide(q, 1)) == {"end", "h8*d8=goal", "h8*d8=save", "h8*d8=corner",
                                   "h8*e8", "h8^f7"}


def test_c35_capture_on_corner_square_takes_ball():
    p = mk("Kd1 Rh3 kd8 rh8", **CORNER)
    q = c.apply(p, "h3h8")
    assert q.ball == ("c", c.sqparse("h8")) and q.progress == "cm"


def test_c36_no_end_while_corner_pass_possible():
    p = mk("Kd1 Rh3 Nf7 kd8", **CORNER)
    q = c.apply(p, "h3a3")
    assert S(q) == "3k4/5N2/8/8/8/R7/8/3K4 w flag-h8 cm - 0-0 1.4 1"
    assert L(q) == ["h8^f7"]


def test_c36_goal_kick():
    p = mk("Kd1 Rh3 kd8 pa7", **CORNER)
    assert "h8^h3" in c.legal(p)
    q = c.apply(p, "h3a3")     # ball left at the flag, no corner pass: goal kick
    assert S(q) == "3k4/p7/8/8/8/R7/8/3K4 b d8 - - 0-0 1.5 1"


def test_c36_goal_kick_black_corner():
    p = mk("Kd8 kd1 ra6", side="b", ball="flag-a1", prog="c")
    assert "a1^a6" in c.legal(p)
    q = c.apply(p, "a6b6")
    assert S(q) == "3K4/8/1r6/8/8/8/8/3k4 w d8 - - 0-0 1.1 0"


def test_c35_corner_square_occupied_by_own_piece_is_not_a_receiver():
    # Q6: the rook stands on the corner square: its pass reach does not hold its own square
    p = mk("Kd1 Rh8 kd3", **CORNER)
    assert not any("^" in a for a in c.legal(p))


def test_c32_in_check_no_corner_pass_first():
    base = "Kd1 Ra3 kh6"
    p = mk(base, ball="flag-a8", prog="c")
    assert "a8^a3" in c.legal(p)
    p = mk(base + " rd6", ball="flag-a8", prog="c")
    acts = c.legal(p)
    assert "a8^a3" not in acts
    assert "a3d3" in acts and "d1e1" in acts


def test_c18_q3_capture_in_corner_go_takes_loose_ball():
    # interpretation Q3: the ball at a flag is loose (C17), so any capture takes it (C18)
    p = mk("Kh1 Rd3 kh6 pd6", ball="flag-a8", prog="c")
    q = c.apply(p, "d3d6")
    assert q.ball == ("c", c.sqparse("d6")) and q.progress == "cm"
    assert L(q) == ["d6*d8", "end"]


# ------------------------------------------------------------------ C27-C30: pawns

def test_c27_two_step_by_square_and_blocking():
    p = mk("Kh1 Pe2 Pc3 Pa2 kh8 pa3", ball="e2")
    acts = c.legal(p)
    assert "e2e4" in acts and "e2e3" in acts
    assert "a2a4" not in acts and "a2a3" not in acts
    assert "c3c5" not in acts and "c3c4" in acts


def test_c28_en_passant_window():
    p = mk("Kd1 Pe2 Nc3 kd8 pd4", ball="c3")
    q = c.apply(p, "e2e4")
    assert S(q) == "3k4/8/8/8/3pP3/2N5/8/3K4 w c3 m e3 0-0 1.0 0"
    r = c.apply(q, "end")
    assert S(r) == "3k4/8/8/8/3pP3/2N5/8/3K4 b c3 - e3 0-0 1.1 0"
    assert "d4e3" in c.legal(r)
    s = c.apply(r, "d4e3")
    assert S(s) == "3k4/8/8/8/8/2N1p3/8/3K4 w e3 - - 0-0 1.2 0"
    # another move instead: the right is gone
    s = c.apply(r, "d8d7")
    assert s.ep is None


def test_c28_no_ep_square_without_an_attacking_pawn(opts):
    # Only under the Q5 switch: C53 writes the square after every two-step.
    opts["ep_only_if_attacked"] = True
    p = mk("Kd1 Pe2 Nc3 kd8 pa4", ball="c3")
    q = c.apply(p, "e2e4")
    assert q.ep is None


def test_c28_corner_go_ends_the_right():
    p = mk("Kd1 Pe2 Qh4 ka8 bd8 pd4", ball="h4")
    q = c.apply(p, "e2e4")
    assert q.ep == c.sqparse("e3")
    r = c.apply(q, "h4*d8", "corner")
    assert S(r) == "k2b4/8/8/8/3pP2Q/8/8/3K4 w flag-a8 c - 0-0 1.1 1"


def test_c28_right_survives_a_save():
    p = mk("Kh1 Pe2 Qh4 ka8 bd8 pd4", ball="h4")
    q = c.apply(p, "e2e4")
    r = c.apply(q, "h4*d8", "block")
    assert r.side == "b" and r.ep == c.sqparse("e3") and "d4e3" in c.legal(r)


def test_c29_promotion_four_choices_carrier_keeps_ball():
    p = mk("Kd1 Pb7 kh6", ball="b7")
    acts = c.legal(p)
    assert {"b7b8q", "b7b8r", "b7b8b", "b7b8n"} <= set(acts)
    assert "b7b8" not in acts
    q = c.apply(p, "b7b8n")
    assert S(q) == "1N6/8/7k/8/8/8/8/3K4 b b8 - - 0-0 1.1 0"


def test_c29_promotion_capture():
    p = mk("Kd1 Pb7 kh6 ra8", ball="b7")
    acts = c.legal(p)
    assert {"b7a8q", "b7a8r", "b7a8b", "b7a8n"} <= set(acts)


def test_c30_no_castling():
    p = mk("Ke1 Rh1 Ra1 kd8", ball="a1")
    kings = [a for a in c.legal(p) if a.startswith("e1")]
    assert sorted(kings) == ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]


# ------------------------------------------------------------------ C31-C33: check

def test_c31_no_move_into_check_and_pins():
    # Nd2 is pinned by the rook d7; the rook h2 covers e2 (its ray stops at the knight)
    p = mk("Kd1 Nd2 kh8 rd7 rh2", ball="d2")
    assert L(p) == ["d1c1", "d1c2", "d1e1"]


def test_c32_check_evasion_only():
    p = mk("Kh1 Qd3 kd8 rh5 pa7", side="b", ball="d3")
    assert L(p) == ["d8c7", "d8c8", "d8e7", "d8e8", "h5d5"]


def test_c33_checkmate_restarts_with_two_goals():
    p = mk("Kf6 Qg1 kh8", ball="g1", tally="1-1")
    q = c.apply(p, "g1g7")
    assert q.progress == "m" and L(q) == ["end", "g7^f6"]
    assert c.apply(q, "end") == ("restart", "checkmate", "w", (3, 1))


def test_c33_checkmate_goes_on_after_defending_capture_with_the_ball():
    # a move in a defending go that mates: the mated side's go cannot start
    p = mk("Kd1 Ra4 kh8 qb2 rc2", side="b", ball="a4")
    r = c.apply(p, "b2b1")
    assert r == ("restart", "checkmate", "b", (0, 2))


def test_c33_stalemate():
    p = mk("Kf7 Qg1 kh8", ball="g1")
    q = c.apply(p, "g1g6")
    assert c.apply(q, "end") == ("restart", "stalemate", "b", (0, 0))
    pos = mk("Kf7 Qg6 kh8", side="b", ball="g6")
    assert c.legal(pos) == [] and c.perft(pos, 1) == 0 and c.perft(pos, 0) == 1


def test_c31_q7_king_never_captured_in_corner_go():
    # White's shot left Black in check; the corner go may not take the king
    p = mk("Kh1 Rd3 kd8", ball="flag-a8", prog="c")
    acts = c.legal(p)
    assert "d3d8" not in acts and "d3d7" in acts


def test_c53_rejects_ball_not_fitting_progress():
    with pytest.raises(ValueError):
        c.parse("4k3/8/8/8/8/8/8/3K4 w spot m - 0-0 1.0 0")
    with pytest.raises(ValueError):
        c.parse("4k3/8/8/8/8/8/8/3K4 w e8 m - 0-0 1.0 0")
    with pytest.raises(ValueError):
        c.parse("4k3/8/8/8/8/8/8/3K4 w flag-a8 - - 0-0 1.0 0")


# ------------------------------------------------------------------ C38, C53: counters

def test_goes_and_drawn_shot_counters():
    p = mk("Kh1 Rd3 Qa1 kd8", ball="d3", prog="m", hg="2.17", shots=4)
    q = c.apply(p, "d3*d8", "corner")
    assert q.goes == 18 and q.shots == 5 and q.half == 2


# ------------------------------------------------------------------ C54: perft

def test_c54_perft_kickoff_small_depths():
    p = c.parse(KICKOFF)
    assert [c.perft(p, d) for d in range(4)] == [1, 6, 55, 1450]
    d = c.divide(p, 2)
    assert sum(d.values()) == 55 and d["d2d4"] == 2


def test_c54_divide_counts_outcomes():
    p = mk("Kh1 Rd3 Qa1 kd8", ball="d3", prog="m")
    d = c.divide(p, 1)
    assert sum(d.values()) == c.perft(p, 1)
    assert c.perft(p, 1) == len(c.legal(p)) + 2


def test_cli():
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, os.path.join(here, "c11ref.py"), "legal", KICKOFF],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["c3d5", "c3e4", "d2d4", "e2e4", "f3d4", "f3e5"]
    out = subprocess.run([sys.executable, os.path.join(here, "c11ref.py"), "divide",
                          KICKOFF, "2"], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "55"


# ------------------------------------------------------------------ invariants on random play

def test_random_playouts_invariants():
    import random
    rng = random.Random(11)
    seen = set()
    for game in range(40):
        p = c.parse(KICKOFF)
        for ply in range(120):
            text = c.fmt(p)
            assert c.fmt(c.parse(text)) == text
            acts = c.legal(p)
            if p.progress not in ("-", "c"):
                assert acts, text                      # mid-go decisions always offer one
            if not acts:
                break
            if "end" in acts:
                assert any("^" in a or "*" in a for a in acts) or p.progress == "cp"
            a = rng.choice(acts)
            out = None
            if "*" in a and p.board[c.sqparse(a[-2:])] != ".":
                out = rng.choice(c.shot_outcomes(p, c.sqparse(a[-2:])))
            seen.add(p.progress)
            r = c.apply(p, a, out)
            if c.is_restart(r):
                break
            # a king is never in check at the end of its own side's element
            if r.side == p.side:
                assert not c.in_check(r.board, p.side)
            p = r
    assert {"-", "m"} <= seen


# ------------------------------------------------------------------ interpretation switches

@pytest.fixture
def opts():
    saved = dict(c.OPTIONS)
    yield c.OPTIONS
    c.OPTIONS.clear()
    c.OPTIONS.update(saved)


def test_q3_switch_capture_at_flag_leaves_ball(opts):
    opts["corner_capture_takes_ball"] = False
    p = mk("Kh1 Rd3 Ra2 kh6 pd6", ball="flag-a8", prog="c")
    q = c.apply(p, "d3d6")
    assert q.ball == ("flag", c.sqparse("a8")) and L(q) == ["a8^a2"]


def test_q4_switch_end_at_cp_only_with_shot(opts):
    p = mk("Kd1 Rh3 Nf7 kd8", **CORNER)
    q = c.apply(p, "h8^h3")
    assert "end" in c.legal(q)
    opts["end_at_cp"] = "if_shot"
    q = c.apply(p, "h8^h3")
    assert "end" not in c.legal(q)


def test_q1_switch_kickoff_capture(opts):
    # no circle move for White (bishop a3 cannot reach d4..e5), but a capture
    p = mk("Kh1 Ba3 kh8 nf8", ball="spot")
    assert "a3f8" in c.legal(p)
    assert c.apply(p, "a3f8").ball == ("c", c.sqparse("f8"))
    opts["kickoff_capture_takes_ball"] = False
    assert c.apply(p, "a3f8").ball == ("spot",)


def test_q5_switch_ep_always(opts):
    p = mk("Kd1 Pe2 Nc3 kd8 pa4", ball="c3")
    opts["ep_only_if_attacked"] = False
    assert c.apply(p, "e2e4").ep == c.sqparse("e3")
