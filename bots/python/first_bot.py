"""Your first Zebra bot: legal, clean and a little greedy (docs/src/bots/first-bot.md)."""
import random
import zebra_bot

rng = random.Random()  # seeded by each game's seed: the same seed replays the same game


def gain(side, action):
    """Ranks an action takes a piece toward `side`'s goal (White scores on rank 8)."""
    ranks = [int(c) for c in action if c.isdigit()]  # "e4e5", "e4^e7", "g1e2/f"
    return (ranks[-1] - ranks[0]) * (1 if side == "white" else -1)


def decide(request):
    kind, state, me = request["decision"], request["state"], request["side"]
    legal = [a for a in request["legal"] or [] if a != "timeout"]
    if kind == "formation":
        return zebra_bot.formation(state, me, rng)
    if kind == "motion" and "snap" in legal:
        return "snap"  # a motion can only draw a false start; snap at once
    if kind == "reaction" and "pass" in legal:
        return "pass"  # a shift onto the offense's side is offsides
    if kind == "penalty":  # keep the ball, then gain ground (penalty_options says where)
        def value(o):
            rank = int(o["spot"][1])
            return (o["score"][me], o["offense"] == me, rank if me == "white" else -rank)
        return max(request["penalty_options"], key=value)["action"]
    ball = state["ball"].get("square") or ""
    if kind == "move" and ball:
        mine = state["possession"] == me
        # With the ball: move the carrier forward. Without it: go for the carrier.
        best = [a for a in legal if a.startswith(ball) and gain(me, a) > 0] if mine \
            else [a for a in legal if a.endswith(ball)]
        legal = best or legal
    return rng.choice(legal or request["legal"])


zebra_bot.run(decide, name="mybot", author="me", version="0.1",
              on_game_start=lambda message: rng.seed(message["seed"]))
