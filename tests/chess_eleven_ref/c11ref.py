#!/usr/bin/env python3
"""Chess Eleven: an independent, plain reference of the legal actions.

Written from the rulings alone (protocol/CHESS-ELEVEN.md, edition 1, rulings C1..C54).
Python 3 standard library only.  Its purpose is to cross-check another engine by perft.

Interpretations of places where the rulings are silent or ambiguous are listed in
QUESTIONS.md next to this file; the code marks each with "Q<n>".

API
    parse(text) -> Pos             position text (C53)
    fmt(pos) -> str                canonical position text (round-trips parse)
    legal(pos) -> list[str]        every legal action at this decision (C51 notation)
    apply(pos, action, outcome=None) -> Pos | Restart
    perft(pos, depth) -> int       C54
    divide(pos, depth) -> dict[str, int]

A Restart is a tuple ('restart', reason, side, (white_goals, black_goals)):
    reason 'goal'       side = the scorer
    reason 'checkmate'  side = the mating side (who scored two goals, C33/C37)
    reason 'stalemate'  side = the stalemated side (who kicks off next, C14)

Command line (options, each "--opt name=value", go before the command; see OPTIONS)
    python3 c11ref.py legal  "<pos>"
    python3 c11ref.py apply  "<pos>" <action> [outcome]
    python3 c11ref.py perft  "<pos>" <depth>
    python3 c11ref.py divide "<pos>" <depth>
"""

import sys

# Switches for the interpretations in QUESTIONS.md that change perft counts or texts.
# The defaults are this reference's reading; the others let a disagreement with another
# engine be located quickly (command line: --opt name=value, before the command).
OPTIONS = {
    "kickoff_capture_takes_ball": True,   # Q1: off-circle capture while ball on the spot
    "corner_capture_takes_ball": True,    # Q3: any capture while the ball is at the flag
    "end_at_cp": "always",                # Q4: 'always' or 'if_shot' after the corner pass
    "ep_only_if_attacked": False,         # Q5: print the ep square only when capturable
                                          # (C53 as sharpened: always, as FEN writes it)
    "corner_occupant_receives": False,    # Q6: own piece on the corner square may receive
}

FILES = "abcdefgh"
EMPTY = "."


def sqname(s):
    return FILES[s % 8] + str(s // 8 + 1)


def sqparse(t):
    if len(t) != 2 or t[0] not in FILES or t[1] not in "12345678":
        raise ValueError("bad square %r" % t)
    return (int(t[1]) - 1) * 8 + FILES.index(t[0])


def on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


# ---------------------------------------------------------------- tables

KNIGHT_D = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING_D = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_D = KING_D[:4]
BISHOP_D = KING_D[4:]


def _leaps(deltas):
    out = []
    for s in range(64):
        f, r = s % 8, s // 8
        out.append([(r + dr) * 8 + f + df for df, dr in deltas if on_board(f + df, r + dr)])
    return out


def _rays(deltas):
    out = []
    for s in range(64):
        f, r = s % 8, s // 8
        rays = []
        for df, dr in deltas:
            ray = []
            ff, rr = f + df, r + dr
            while on_board(ff, rr):
                ray.append(rr * 8 + ff)
                ff += df
                rr += dr
            rays.append(ray)
        out.append(rays)
    return out


KNIGHT_T = _leaps(KNIGHT_D)
KING_T = _leaps(KING_D)
ROOK_R = _rays(ROOK_D)
BISHOP_R = _rays(BISHOP_D)

D1, E1, D8, E8 = sqparse("d1"), sqparse("e1"), sqparse("d8"), sqparse("e8")
A1, H1, A8, H8 = sqparse("a1"), sqparse("h1"), sqparse("a8"), sqparse("h8")
CIRCLE = frozenset(sqparse(t) for t in ("d4", "e4", "d5", "e5"))      # C3
GOAL_OF = {"w": (D1, E1), "b": (D8, E8)}                             # C2: a side's own goal
CORNER_OF_GOAL = {D8: A8, E8: H8, D1: A1, E1: H1}                      # C34
CORNERS = frozenset((A1, H1, A8, H8))


def owner(pc):
    """'w', 'b' or None for an empty square."""
    if pc == EMPTY:
        return None
    return "w" if pc.isupper() else "b"


def other(side):
    return "b" if side == "w" else "w"


# ---------------------------------------------------------------- positions

class Pos:
    """A position between decisions of a go (C53).

    board    list of 64 one-char strings, index = (rank-1)*8 + file; '.' empty.  Never
             mutated after construction (positions share boards freely).
    side     'w' or 'b', whose go it is
    ball     ('c', sq) carried by the piece on sq; ('spot',); ('flag', corner_sq)
    progress '-', 'm', 'mp', 'c', 'cm', 'cp', 'cmp', 'cpm'
    ep       en passant square or None
    tally    (white goals, black goals)
    half, goes, shots  ints
    """

    __slots__ = ("board", "side", "ball", "progress", "ep", "tally", "half", "goes",
                 "shots", "_acts")

    def __init__(self, board, side, ball, progress, ep, tally, half, goes, shots):
        self.board = board
        self.side = side
        self.ball = ball
        self.progress = progress
        self.ep = ep
        self.tally = tally
        self.half = half
        self.goes = goes
        self.shots = shots
        self._acts = None

    def replace(self, **kw):
        d = {k: getattr(self, k) for k in
             ("board", "side", "ball", "progress", "ep", "tally", "half", "goes", "shots")}
        d.update(kw)
        return Pos(**d)

    def __str__(self):
        return fmt(self)

    def __repr__(self):
        return "Pos(%r)" % fmt(self)


PROGRESSES = ("-", "m", "mp", "c", "cm", "cp", "cmp", "cpm")


def parse(text):
    f = text.split()
    if len(f) != 8:
        raise ValueError("position text needs 8 fields, got %d" % len(f))
    rows = f[0].split("/")
    if len(rows) != 8:
        raise ValueError("board needs 8 ranks")
    board = [EMPTY] * 64
    for i, row in enumerate(rows):
        r = 7 - i
        fl = 0
        for ch in row:
            if ch.isdigit():
                fl += int(ch)
            elif ch in "KQRBNPkqrbnp":
                if fl >= 8:
                    raise ValueError("rank too long")
                board[r * 8 + fl] = ch
                fl += 1
            else:
                raise ValueError("bad board char %r" % ch)
        if fl != 8:
            raise ValueError("rank %d has %d files" % (r + 1, fl))
    if board.count("K") != 1 or board.count("k") != 1:
        raise ValueError("each side needs exactly one king")
    side = f[1]
    if side not in ("w", "b"):
        raise ValueError("bad side")
    if f[2] == "spot":
        ball = ("spot",)
    elif f[2].startswith("flag-"):
        c = sqparse(f[2][5:])
        if c not in CORNERS:
            raise ValueError("flag must be a corner")
        ball = ("flag", c)
    else:
        s = sqparse(f[2])
        if board[s] == EMPTY:
            raise ValueError("carrier square is empty")
        ball = ("c", s)
    prog = f[3]
    if prog not in PROGRESSES:
        raise ValueError("bad progress %r" % prog)
    ep = None if f[4] == "-" else sqparse(f[4])
    w, _, b = f[5].partition("-")
    tally = (int(w), int(b))
    h, _, g = f[6].partition(".")
    half, goes = int(h), int(g)
    shots = int(f[7])
    # combinations of ball and progress that a game can reach between decisions
    kind = ball[0]
    ok = {"-": kind in ("c", "spot"),
          "c": kind == "flag",
          "cm": kind == "flag" or (kind == "c" and owner(board[ball[1]]) == side)}
    if not ok.get(prog, kind == "c" and owner(board[ball[1]]) == side):
        raise ValueError("ball %s does not fit progress %s" % (f[2], prog))
    p = Pos(board, side, ball, prog, ep, tally, half, goes, shots)
    if fmt(p) != " ".join(f):
        raise ValueError("position text is not canonical: %r" % fmt(p))
    return p


def fmt(p):
    rows = []
    for r in range(7, -1, -1):
        row = ""
        n = 0
        for fl in range(8):
            pc = p.board[r * 8 + fl]
            if pc == EMPTY:
                n += 1
            else:
                if n:
                    row += str(n)
                    n = 0
                row += pc
        if n:
            row += str(n)
        rows.append(row)
    if p.ball[0] == "spot":
        ball = "spot"
    elif p.ball[0] == "flag":
        ball = "flag-" + sqname(p.ball[1])
    else:
        ball = sqname(p.ball[1])
    return "%s %s %s %s %s %d-%d %d.%d %d" % (
        "/".join(rows), p.side, ball, p.progress,
        "-" if p.ep is None else sqname(p.ep),
        p.tally[0], p.tally[1], p.half, p.goes, p.shots)


def fmt_result(res):
    if isinstance(res, Pos):
        return fmt(res)
    _, reason, side, (w, b) = res
    return "restart %s %s %d-%d" % (reason, side, w, b)


def is_restart(res):
    return not isinstance(res, Pos)


# ---------------------------------------------------------------- chess layer

def attacked(board, s, by):
    """Is square s reached by a move pattern of a piece of side `by` (C31)?"""
    if by == "w":
        n, k, p, r, b, q = "NKPRBQ"
    else:
        n, k, p, r, b, q = "nkprbq"
    for t in KNIGHT_T[s]:
        if board[t] == n:
            return True
    for t in KING_T[s]:
        if board[t] == k:
            return True
    f, rk = s % 8, s // 8
    pr = rk - 1 if by == "w" else rk + 1       # rank a pawn of `by` attacks s from
    if 0 <= pr < 8:
        for df in (-1, 1):
            if 0 <= f + df < 8 and board[pr * 8 + f + df] == p:
                return True
    for ray in ROOK_R[s]:
        for t in ray:
            c = board[t]
            if c != EMPTY:
                if c == r or c == q:
                    return True
                break
    for ray in BISHOP_R[s]:
        for t in ray:
            c = board[t]
            if c != EMPTY:
                if c == b or c == q:
                    return True
                break
    return False


def in_check(board, side):
    return attacked(board, board.index("K" if side == "w" else "k"), other(side))


def pseudo_moves(board, side, ep):
    """Chess moves (C21, C27-C30), ignoring check: (from, to, promo_letter_or_'', is_ep).
    A king is never captured (C31, Q7): in a corner go the side that gave check moves
    again, so a capture of the king would otherwise be generated; it is left out."""
    out = _pseudo_moves(board, side, ep)
    oking = "k" if side == "w" else "K"
    return [m for m in out if board[m[1]] != oking]


def _pseudo_moves(board, side, ep):
    out = []
    white = side == "w"
    fwd = 8 if white else -8
    second = 1 if white else 6
    last = 7 if white else 0
    for s in range(64):
        pc = board[s]
        if pc == EMPTY or owner(pc) != side:
            continue
        u = pc.upper()
        if u == "P":
            r, f = s // 8, s % 8
            t = s + fwd
            if 0 <= t < 64:
                targets = []
                if board[t] == EMPTY:
                    targets.append((t, False))
                    t2 = t + fwd
                    if r == second and board[t2] == EMPTY:         # C27, by square alone
                        targets.append((t2, False))
                for df in (-1, 1):
                    if 0 <= f + df < 8:
                        c = t + df
                        oc = owner(board[c])
                        if oc is not None and oc != side:
                            targets.append((c, False))
                        elif oc is None and ep is not None and c == ep:
                            behind = c - fwd
                            if board[behind] == ("p" if white else "P"):
                                targets.append((c, True))          # C28
                for (tt, isep) in targets:
                    if tt // 8 == last:                            # C29
                        for pl in "qrbn":
                            out.append((s, tt, pl, False))
                    else:
                        out.append((s, tt, "", isep))
        elif u == "N" or u == "K":
            for t in (KNIGHT_T if u == "N" else KING_T)[s]:
                if owner(board[t]) != side:
                    out.append((s, t, "", False))
        else:
            rays = []
            if u in "RQ":
                rays += ROOK_R[s]
            if u in "BQ":
                rays += BISHOP_R[s]
            for ray in rays:
                for t in ray:
                    oc = owner(board[t])
                    if oc is None:
                        out.append((s, t, "", False))
                    else:
                        if oc != side:
                            out.append((s, t, "", False))
                        break
    return out                                                    # C30: no castling


def make_board(board, side, m):
    fr, to, promo, isep = m
    b = board[:]
    pc = b[fr]
    b[fr] = EMPTY
    if isep:
        b[to - 8 if side == "w" else to + 8] = EMPTY
    if promo:
        pc = promo.upper() if side == "w" else promo
    b[to] = pc
    return b


def legal_moves(board, side, ep):
    out = []
    for m in pseudo_moves(board, side, ep):
        if not in_check(make_board(board, side, m), side):        # C31
            out.append(m)
    return out


def move_str(m):
    return sqname(m[0]) + sqname(m[1]) + m[2]


# ---------------------------------------------------------------- reaches (C23, C25)

def reaches(board, s, t, pc, mode):
    """Does the pass reach (mode 'pass', C23) or shot reach (mode 'shot', C25) of the
    piece pc standing on s contain t?  The target's own content never matters."""
    if s == t:
        return False
    side = owner(pc)
    u = pc.upper()
    df = t % 8 - s % 8
    dr = t // 8 - s // 8
    adf, adr = abs(df), abs(dr)

    def blocks(x):
        c = board[x]
        if c == EMPTY:
            return False
        return True if mode == "pass" else owner(c) != side

    if u == "K":
        return max(adf, adr) == 1
    if u == "N":
        return (adf, adr) in ((1, 2), (2, 1))
    if u == "P":
        fwd = 1 if side == "w" else -1
        if dr == fwd and adf <= 1:                  # ahead, or diagonally ahead
            return True
        second = 1 if side == "w" else 6
        if dr == 2 * fwd and df == 0 and s // 8 == second:
            return not blocks(s + 8 * fwd)
        return False
    line = False
    if u in "RQ" and (df == 0 or dr == 0):
        line = True
    if u in "BQ" and adf == adr:
        line = True
    if not line:
        return False
    sf = (df > 0) - (df < 0)
    sr = (dr > 0) - (dr < 0)
    step = sr * 8 + sf
    x = s + step
    while x != t:
        if blocks(x):
            return False
        x += step
    return True


def pass_targets(board, side, carrier):
    """C22-C24: own pieces R != carrier with R in the carrier's pass reach or the
    carrier in R's pass reach."""
    cp = board[carrier]
    out = []
    for r in range(64):
        pc = board[r]
        if r == carrier or owner(pc) != side:
            continue
        if reaches(board, carrier, r, cp, "pass") or reaches(board, r, carrier, pc, "pass"):
            out.append(r)
    return out


def corner_pass_targets(board, side, corner):
    """C35: own pieces whose pass reach contains the corner square (Q6: a piece standing
    on the corner square itself does not qualify)."""
    out = [r for r in range(64)
           if owner(board[r]) == side and reaches(board, r, corner, board[r], "pass")]
    if OPTIONS["corner_occupant_receives"] and owner(board[corner]) == side:
        out.append(corner)
    return sorted(out)


def shot_targets(board, side, carrier):
    """C25: the opponent's goal squares in the carrier's shot reach, not held by own."""
    out = []
    for g in GOAL_OF[other(side)]:
        if owner(board[g]) == side:
            continue
        if reaches(board, carrier, g, board[carrier], "shot"):
            out.append(g)
    return out


# ---------------------------------------------------------------- legal actions

def own_carrier(p):
    return p.ball[0] == "c" and owner(p.board[p.ball[1]]) == p.side


def _first_moves(p):
    moves = legal_moves(p.board, p.side, p.ep)
    if p.ball[0] == "spot":                                        # C15
        circ = [m for m in moves if m[1] in CIRCLE]
        if circ:
            moves = circ
    return [move_str(m) for m in moves]


def legal(p):
    """Every legal action at this decision.  Empty exactly when the side is mated or
    stalemated at the start of its go (C33); mid-go decisions always have an action,
    because apply() ends a go by itself when nothing is left (C19, C36)."""
    if p._acts is not None:
        return p._acts
    b, side, prog = p.board, p.side, p.progress
    acts = []
    if prog == "-":
        # possession go, defending go or kick-off go: the move comes first (C19, C20, C15)
        acts = _first_moves(p)
    elif prog == "c":
        # corner go start: a move or the corner pass (C35); not a pass when in check (C32)
        acts = _first_moves(p)
        if p.ball[0] == "flag" and not in_check(b, side):
            c = p.ball[1]
            acts += [sqname(c) + "^" + sqname(r) for r in corner_pass_targets(b, side, c)]
    elif prog == "cm" and p.ball[0] == "flag":
        # corner go, the move did not take the ball: only the corner pass (C36: no end)
        c = p.ball[1]
        acts = [sqname(c) + "^" + sqname(r) for r in corner_pass_targets(b, side, c)]
    elif own_carrier(p):
        corner = prog[0] == "c"
        move_used = "m" in prog
        pass_used = "p" in prog
        car = p.ball[1]
        mv = []
        if corner and not move_used:                                # 'cp': the move remains
            mv = [move_str(m) for m in legal_moves(b, side, p.ep)]
        ps = [] if pass_used else [sqname(car) + "^" + sqname(r)
                                   for r in pass_targets(b, side, car)]
        sh = [sqname(car) + "*" + sqname(g) for g in shot_targets(b, side, car)]
        acts = mv + ps + sh
        if corner and not move_used:
            if OPTIONS["end_at_cp"] == "always" or sh:
                acts.append("end")                                  # Q4: end at 'cp'
        elif ps or sh:
            acts.append("end")                                      # C19
    p._acts = acts
    return acts


# ---------------------------------------------------------------- applying actions

def _restart(reason, side, tally):
    return ("restart", reason, side, tally)


def _start_go(q):
    """q is the position at the start of a go: mate or stalemate if no first element."""
    if legal(q):
        return q
    w, bk = q.tally
    if in_check(q.board, q.side):                                   # C33
        winner = other(q.side)
        tally = (w + 2, bk) if winner == "w" else (w, bk + 2)
        return _restart("checkmate", winner, tally)
    return _restart("stalemate", q.side, q.tally)


def _finish_go(q):
    """End the go of q.side.  A corner go leaving the ball at the flag ends with a goal
    kick: the ball to the defending king (C36, Q2)."""
    ball = q.ball
    if ball[0] == "flag":
        ball = ("c", q.board.index("k" if q.side == "w" else "K"))
    n = Pos(q.board, other(q.side), ball, "-", q.ep, q.tally, q.half, q.goes + 1, q.shots)
    return _start_go(n)


def _continue(q):
    """Mid-go: if no element is left the go ends by itself (C19, C36)."""
    if legal(q):
        return q
    return _finish_go(q)


def shot_outcomes(p, goal_sq):
    occ = p.board[goal_sq]
    if occ == EMPTY:
        return ["goal"]
    return ["goal", "save" if occ.upper() == "K" else "block", "corner"]


def apply(p, action, outcome=None, check=True):
    if check and action not in legal(p):
        raise ValueError("illegal action %r in %s" % (action, fmt(p)))
    side, b = p.side, p.board
    if action == "end":
        return _finish_go(p)
    if "^" in action:
        fr, to = action.split("^")
        to = sqparse(to)
        prog = p.progress + "p" if p.progress != "-" else "p"
        q = p.replace(ball=("c", to), progress=prog)
        return _continue(q)
    if "*" in action:
        fr, g = action.split("*")
        g = sqparse(g)
        outs = shot_outcomes(p, g)
        if outcome is None:
            if len(outs) != 1:
                raise ValueError("shot at an occupied goal square needs an outcome: %s"
                                 % "/".join(outs))
            outcome = "goal"
        if outcome not in outs:
            raise ValueError("outcome %r not one of %s" % (outcome, outs))
        shots = p.shots + (1 if b[g] != EMPTY else 0)              # C38: drawn shots
        w, bk = p.tally
        if outcome == "goal":                                       # C26, C37
            return _restart("goal", side, (w + 1, bk) if side == "w" else (w, bk + 1))
        if outcome in ("save", "block"):                            # C26
            q = p.replace(ball=("c", g), shots=shots)
            return _finish_go(q)
        # corner (C34): the shooting side's go ends; its corner go starts at once; the
        # en passant right ends (C28)
        q = p.replace(ball=("flag", CORNER_OF_GOAL[g]), progress="c", ep=None,
                      goes=p.goes + 1, shots=shots)
        return _start_go(q)
    # a move
    fr, to, promo = sqparse(action[0:2]), sqparse(action[2:4]), action[4:]
    pc = b[fr]
    isep = (pc.upper() == "P" and p.ep is not None and to == p.ep and fr % 8 != to % 8
            and b[to] == EMPTY)
    captured = b[to] != EMPTY or isep
    nb = make_board(b, side, (fr, to, promo, isep))
    ball = p.ball
    kind = ball[0]
    had_ball = own_carrier(p)
    took_at_kickoff = False
    if kind == "c":
        if had_ball:
            if ball[1] == fr:
                ball = ("c", to)                                    # C17 dribble
            # a capture by the side with the ball leaves the ball (C18)
        elif captured:
            ball = ("c", to)                                        # C18
    elif kind == "spot":
        if to in CIRCLE:
            ball = ("c", to)                                        # C16
            took_at_kickoff = True
        elif captured and OPTIONS["kickoff_capture_takes_ball"]:
            ball = ("c", to)                                        # C18 loose, Q1
    else:  # flag
        if to == ball[1] or (captured and OPTIONS["corner_capture_takes_ball"]):
            ball = ("c", to)                                        # C35; C18 loose, Q3
    # en passant square (C28, Q5): set after a two-step when an opponent pawn attacks it
    ep = None
    if pc.upper() == "P" and abs(to - fr) == 16:
        opp_pawn = "p" if side == "w" else "P"
        tf = to % 8
        for df in (-1, 1):
            if 0 <= tf + df < 8 and nb[to + df] == opp_pawn:
                ep = (fr + to) // 2
        if not OPTIONS["ep_only_if_attacked"]:
            ep = (fr + to) // 2
    prog = (p.progress if p.progress != "-" else "") + "m"
    q = Pos(nb, side, ball, prog, ep, p.tally, p.half, p.goes, p.shots)
    if prog[0] == "c":
        return _continue(q)
    if had_ball or took_at_kickoff:
        return _continue(q)                                          # C19, C16
    return _finish_go(q)                                            # C20 (and C15)


# ---------------------------------------------------------------- perft

def children(p):
    """(key, result) for every child of p in the decision tree (C54)."""
    out = []
    for a in legal(p):
        if "*" in a:
            g = sqparse(a.split("*")[1])
            if p.board[g] != EMPTY:
                for o in shot_outcomes(p, g):
                    out.append((a + "=" + o, apply(p, a, o, check=False)))
                continue
        out.append((a, apply(p, a, check=False)))
    return out


def perft(p, depth):
    if depth == 0:
        return 1
    if is_restart(p):
        return 0
    if depth == 1:
        n = 0
        for a in legal(p):
            if "*" in a and p.board[sqparse(a.split("*")[1])] != EMPTY:
                n += 3
            else:
                n += 1
        return n
    return sum(perft(c, depth - 1) for _, c in children(p))


def divide(p, depth):
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    return {k: perft(c, depth - 1) for k, c in children(p)}


# ---------------------------------------------------------------- command line

def main(argv):
    argv = list(argv)
    while len(argv) > 2 and argv[1] == "--opt":
        k, _, v = argv[2].partition("=")
        if k not in OPTIONS:
            raise SystemExit("unknown option %r; known: %s" % (k, ", ".join(OPTIONS)))
        d = OPTIONS[k]
        OPTIONS[k] = (v.lower() in ("1", "true", "yes")) if isinstance(d, bool) else v
        del argv[1:3]
    if len(argv) == 3 and argv[1] == "batch":
        # One position per stdin line: its children and perft 1..depth, for the Rust
        # engine's cross-check (tests/chess_eleven.rs).
        depth = int(argv[2])
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            pos = parse(line)
            print("position " + fmt(pos))
            for k, c in sorted(children(pos)):
                print("child %s %s" % (k, fmt_result(c)))
            for d in range(1, depth + 1):
                print("perft %d %d" % (d, perft(pos, d)))
        return 0
    if len(argv) < 3:
        print(__doc__)
        return 2
    cmd, pos = argv[1], parse(argv[2])
    if cmd == "legal":
        for a in sorted(legal(pos)):
            print(a)
    elif cmd == "apply":
        print(fmt_result(apply(pos, argv[3], argv[4] if len(argv) > 4 else None)))
    elif cmd == "perft":
        print(perft(pos, int(argv[3])))
    elif cmd == "divide":
        d = divide(pos, int(argv[3]))
        for k in sorted(d):
            print(k, d[k])
        print(sum(d.values()))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        sys.exit(1)
