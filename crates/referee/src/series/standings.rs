//! The standings of a series: every finished game folded into per-bot totals and, per
//! encounter, the statistics of [`super::stats`]. Folding is order-free (sums only), so a
//! series resumed after a crash ends with the very standings of one never interrupted.

use serde::Serialize;

use crate::record::Termination;
use crate::rules::{GameResult, Side};

use super::conduct::{Conduct, GameConduct};
use super::overload::Replays;
use super::schedule::{encounters, Fixture, Format};
use super::stats::{Report, Score, SprtParams, Tally};

/// What the series keeps of one finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameOutcome {
    pub game: u32,
    pub pair: u32,
    pub round: u32,
    pub leg: u8,
    /// Bot indices.
    #[serde(skip)]
    pub white: usize,
    #[serde(skip)]
    pub black: usize,
    pub seed: u64,
    /// `None` for an unfinished game (`*`), which no statistic counts.
    #[serde(serialize_with = "result_token")]
    pub result: Option<GameResult>,
    #[serde(serialize_with = "termination_code")]
    pub termination: Termination,
    /// Each side's timeouts and illegal replies (index: [`Side::index`]).
    #[serde(skip)]
    pub conduct: [GameConduct; 2],
}

fn result_token<S: serde::Serializer>(r: &Option<GameResult>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.map_or("*", |r| r.pgn()))
}

fn termination_code<S: serde::Serializer>(t: &Termination, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.code())
}

impl GameOutcome {
    pub fn of(fixture: &Fixture, result: Option<GameResult>, termination: Termination) -> Self {
        GameOutcome {
            game: fixture.game,
            pair: fixture.pair,
            round: fixture.round,
            leg: fixture.leg,
            white: fixture.white,
            black: fixture.black,
            seed: fixture.seed,
            result,
            termination,
            conduct: Default::default(),
        }
    }

    /// The same, with each side's counts (White's first).
    pub fn with_conduct(mut self, conduct: [GameConduct; 2]) -> Self {
        self.conduct = conduct;
        self
    }

    /// The score of bot `bot` in this game, if it played and the game has a result.
    pub(crate) fn score_of(&self, bot: usize) -> Option<Score> {
        let side = if bot == self.white {
            Side::White
        } else if bot == self.black {
            Side::Black
        } else {
            return None;
        };
        Some(match self.result? {
            GameResult::Draw => Score::Draw,
            GameResult::Win(w) if w == side => Score::Win,
            GameResult::Win(_) => Score::Loss,
        })
    }
}

/// One bot's line in the standings.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BotLine {
    pub name: String,
    pub games: u64,
    pub points: f64,
    /// The opponents' points in this bot's games.
    pub points_against: f64,
    /// `points / games`; `None` before the first game with a result.
    pub score: Option<f64>,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games it lost by forfeit (crash, rules infraction, handshake; not an adjudication).
    pub forfeits: u64,
}

/// One encounter: bot `a` (the lower index) against bot `b`, from `a`'s point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    pub a: usize,
    pub b: usize,
    pub tally: Tally,
    /// Each pair's two scores for `a`, by pair number, until the pair is complete.
    open_pairs: std::collections::BTreeMap<u32, [Option<Score>; 2]>,
}

/// The standings of a series.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    pub bots: Vec<BotLine>,
    pub encounters: Vec<Encounter>,
    /// Games that ended without a result (`*`): counted nowhere.
    pub unfinished: u64,
    pub finished: u64,
    /// Each bot's timeouts, illegal replies and forfeits, in the order of `bots`.
    pub conduct: Vec<Conduct>,
    /// Voided attempts and suspect games (`--replay-suspect`); set its policy with
    /// [`Standings::replaying`].
    pub replays: Replays,
}

impl Standings {
    pub fn new(format: Format, names: &[String]) -> Standings {
        Standings {
            bots: names
                .iter()
                .map(|n| BotLine {
                    name: n.clone(),
                    ..BotLine::default()
                })
                .collect(),
            encounters: encounters(format, names.len())
                .into_iter()
                .map(|(a, b)| Encounter {
                    a,
                    b,
                    tally: Tally::default(),
                    open_pairs: Default::default(),
                })
                .collect(),
            unfinished: 0,
            finished: 0,
            conduct: names.iter().map(|n| Conduct::named(n)).collect(),
            replays: Replays::new(None),
        }
    }

    /// The same standings, with the books of `--replay-suspect` when it is on.
    pub fn replaying(mut self, policy: Option<&super::overload::ReplaySuspect>) -> Standings {
        self.replays = Replays::new(policy);
        self
    }

    /// Takes note of an attempt voided by `--replay-suspect`: it counts nowhere else.
    pub(crate) fn add_voided(&mut self, g: &GameOutcome) {
        self.replays.void(g.game);
    }

    /// Folds one finished game in.
    pub fn add(&mut self, g: &GameOutcome) {
        self.finished += 1;
        self.replays.count(&g.conduct);
        for (bot, side) in [(g.white, Side::White), (g.black, Side::Black)] {
            let lost = g.result.is_some_and(|r| r == GameResult::Win(side.other()));
            let forfeited = lost && g.termination.forfeits();
            if let Some(c) = self.conduct.get_mut(bot) {
                c.add(&g.conduct[side.index()], forfeited);
            }
        }
        let (Some(white), Some(black)) = (g.score_of(g.white), g.score_of(g.black)) else {
            self.unfinished += 1;
            return;
        };
        for (bot, score) in [(g.white, white), (g.black, black)] {
            let line = &mut self.bots[bot];
            line.games += 1;
            line.points += score.points();
            line.points_against += score.flip().points();
            line.score = Some(line.points / line.games as f64);
            match score {
                Score::Win => line.wins += 1,
                Score::Draw => line.draws += 1,
                Score::Loss => {
                    line.losses += 1;
                    if g.termination.forfeits() {
                        line.forfeits += 1;
                    }
                }
            }
        }
        let (a, b) = (g.white.min(g.black), g.white.max(g.black));
        let Some(enc) = self.encounters.iter_mut().find(|e| e.a == a && e.b == b) else {
            return;
        };
        let score = if a == g.white { white } else { black };
        enc.tally.add_game(score);
        let slot = enc.open_pairs.entry(g.pair).or_default();
        slot[usize::from(g.leg.clamp(1, 2) - 1)] = Some(score);
        if let [Some(first), Some(second)] = *slot {
            enc.tally.add_pair(first, second);
            enc.open_pairs.remove(&g.pair);
        }
    }

    /// The head-to-head statistics of the series' only encounter (two bots), without the
    /// SPRT: that is judged by [`SprtGate`], over whole pairs in schedule order.
    pub fn head_to_head(&self) -> Option<Report> {
        match self.encounters.as_slice() {
            [only] => Some(only.tally.report(None)),
            _ => None,
        }
    }

    /// `a`'s points against `b` and the games they played, from either side's view.
    pub fn between(&self, a: usize, b: usize) -> Option<(f64, u64)> {
        let enc = self
            .encounters
            .iter()
            .find(|e| (e.a, e.b) == (a.min(b), a.max(b)))?;
        let t = &enc.tally;
        let points_low = t.points();
        let points = if a == enc.a {
            points_low
        } else {
            t.games() as f64 - points_low
        };
        Some((points, t.games()))
    }

    /// The bots ordered by points, then by name: the crosstable's rows.
    pub(crate) fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.bots.len()).collect();
        order.sort_by(|&x, &y| {
            let (bx, by) = (&self.bots[x], &self.bots[y]);
            by.points
                .total_cmp(&bx.points)
                .then_with(|| bx.name.cmp(&by.name))
        });
        order
    }

    /// A crosstable for people: rank, name, games, points, score, and each row bot's points
    /// against each column bot.
    pub fn crosstable(&self) -> String {
        let order = self.ranking();
        let width = self
            .bots
            .iter()
            .map(|b| b.name.len())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut out = format!(
            "{:>3}  {:<width$}  {:>5}  {:>6}  {:>6}",
            "#", "bot", "games", "points", "score"
        );
        for (col, _) in order.iter().enumerate() {
            out.push_str(&format!("  {:>7}", col + 1));
        }
        out.push('\n');
        for (row, &i) in order.iter().enumerate() {
            let b = &self.bots[i];
            let score = if b.games == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * b.points / b.games as f64)
            };
            out.push_str(&format!(
                "{:>3}  {:<width$}  {:>5}  {:>6}  {:>6}",
                row + 1,
                b.name,
                b.games,
                half(b.points),
                score
            ));
            for &j in &order {
                let cell = if i == j {
                    "·".to_string()
                } else {
                    match self.between(i, j) {
                        Some((points, games)) if games > 0 => format!("{}/{games}", half(points)),
                        Some(_) => "-".to_string(),
                        None => String::new(),
                    }
                };
                out.push_str(&format!("  {cell:>7}"));
            }
            out.push('\n');
        }
        out
    }
}

/// The SPRT of one encounter (a two-bot series, or the first bot of a gauntlet against one
/// opponent), judged over the encounter's whole pairs in schedule order: its round 1, then
/// round 2 once both of its games are in, and so on. Games finish in an order that depends
/// on the machine (several run at once, a series may be stopped and resumed), but the
/// pairs' order does not, so the decision and the game it comes at are the same in every
/// run of the same seeds with deterministic bots: a CI gate gives one verdict, whatever
/// `--concurrency`.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtGate {
    params: SprtParams,
    /// The bot whose strength H1 claims (the encounter's first).
    a: usize,
    /// Finished games of pairs not judged yet, by round: each leg's score for `a`, `None`
    /// inside for a game without a result.
    waiting: std::collections::BTreeMap<u32, [Option<Option<Score>>; 2]>,
    /// The next round to judge.
    next: u32,
    /// Whole pairs judged so far, in order (a pair with a game without result is skipped).
    tally: Tally,
    /// The report at the decision, once there is one.
    decided: Option<super::stats::SprtReport>,
}

impl SprtGate {
    /// The gate of a two-bot series: H1 says bot 0 is the stronger.
    pub fn new(params: SprtParams) -> SprtGate {
        SprtGate::of(params, 0)
    }

    /// The gate of an encounter whose bot `a` H1 says is the stronger.
    pub fn of(params: SprtParams, a: usize) -> SprtGate {
        SprtGate {
            params,
            a,
            waiting: Default::default(),
            next: 1,
            tally: Tally::default(),
            decided: None,
        }
    }

    /// Takes one finished game of the series; returns the report if this game completes
    /// the pair at which the SPRT decides.
    pub fn add(&mut self, g: &GameOutcome) -> Option<super::stats::SprtReport> {
        let slot = self.waiting.entry(g.round).or_default();
        slot[usize::from(g.leg.clamp(1, 2) - 1)] = Some(g.score_of(self.a));
        let mut newly = None;
        while let Some([Some(first), Some(second)]) = self.waiting.get(&self.next).copied() {
            self.waiting.remove(&self.next);
            self.next += 1;
            if self.decided.is_some() {
                continue;
            }
            if let (Some(a), Some(b)) = (first, second) {
                self.tally.add_game(a);
                self.tally.add_game(b);
                self.tally.add_pair(a, b);
                let report = self.current();
                if report.decision != super::stats::SprtDecision::Continue {
                    self.decided = Some(report);
                    newly = Some(report);
                }
            }
        }
        newly
    }

    /// The SPRT over the pairs judged so far.
    pub fn current(&self) -> super::stats::SprtReport {
        self.tally
            .report(Some(&self.params))
            .sprt
            .unwrap_or_else(|| super::stats::SprtReport::new(self.params, 0.0))
    }

    /// The decision's report, or the current one.
    pub fn report(&self) -> super::stats::SprtReport {
        self.decided.unwrap_or_else(|| self.current())
    }

    pub fn decided(&self) -> Option<super::stats::SprtReport> {
        self.decided
    }

    /// Games in the pairs judged so far.
    pub fn games(&self) -> u64 {
        self.tally.games()
    }
}

/// The SPRT of every encounter of a series that has one (`--sprt`): one gate for two bots,
/// one per opponent of a gauntlet's first bot, each judged on its own (see [`SprtGate`]).
/// An encounter whose SPRT decided plays no new game; the series ends when every
/// encounter's has, or its games are all played.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtGates {
    /// Each encounter (its bots, lower index first) with its gate, in schedule order.
    gates: Vec<((usize, usize), SprtGate)>,
}

impl SprtGates {
    pub fn new(params: SprtParams, encounters: &[(usize, usize)]) -> SprtGates {
        SprtGates {
            gates: encounters
                .iter()
                .map(|&(a, b)| ((a, b), SprtGate::of(params, a)))
                .collect(),
        }
    }

    /// Takes one finished game; returns its encounter and the report if this game completes
    /// the pair at which that encounter's SPRT decides.
    pub fn add(&mut self, g: &GameOutcome) -> Option<((usize, usize), super::stats::SprtReport)> {
        let key = (g.white.min(g.black), g.white.max(g.black));
        let (_, gate) = self.gates.iter_mut().find(|(e, _)| *e == key)?;
        gate.add(g).map(|report| (key, report))
    }

    /// The gate of `encounter` (its bots, lower index first).
    pub fn get(&self, encounter: (usize, usize)) -> Option<&SprtGate> {
        self.gates
            .iter()
            .find(|(e, _)| *e == encounter)
            .map(|(_, g)| g)
    }

    /// Whether `encounter`'s SPRT has decided (it plays no new game).
    pub fn is_decided(&self, encounter: (usize, usize)) -> bool {
        self.get(encounter).is_some_and(|g| g.decided.is_some())
    }

    /// Whether every encounter's SPRT has decided.
    pub fn all_decided(&self) -> bool {
        self.gates.iter().all(|(_, g)| g.decided.is_some())
    }

    /// The only gate of a two-bot series.
    pub fn only(&self) -> Option<&SprtGate> {
        match self.gates.as_slice() {
            [(_, gate)] => Some(gate),
            _ => None,
        }
    }

    /// Each encounter with its gate, in schedule order.
    pub fn iter(&self) -> impl Iterator<Item = ((usize, usize), &SprtGate)> {
        self.gates.iter().map(|(e, g)| (*e, g))
    }

    /// The series' verdict once it is over (every encounter decided, or its games all
    /// played): H0 as soon as one encounter accepted it (the first bot is not the stronger
    /// against every opponent), else no decision while one encounter has none, else H1.
    pub fn verdict(&self) -> super::stats::SprtDecision {
        use super::stats::SprtDecision;
        let decisions = self
            .gates
            .iter()
            .map(|(_, g)| g.decided.map(|r| r.decision));
        let mut verdict = SprtDecision::AcceptH1;
        for d in decisions {
            match d {
                Some(SprtDecision::AcceptH0) => return SprtDecision::AcceptH0,
                Some(SprtDecision::AcceptH1) => {}
                _ => verdict = SprtDecision::Continue,
            }
        }
        verdict
    }
}

/// Points as people write them: `3`, `3.5`.
pub fn half(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::schedule::fixtures;
    use crate::series::stats::SprtDecision;

    fn outcome(f: &Fixture, result: Option<GameResult>) -> GameOutcome {
        GameOutcome::of(f, result, Termination::Normal)
    }

    #[test]
    fn pairs_fill_the_pentanomial_in_any_order() {
        let names = ["a".to_string(), "b".to_string()];
        let f = fixtures(Format::RoundRobin, 2, 2, 1);
        // Pair 1: a (White in leg 1) wins both legs; pair 2: White wins each leg (1 point).
        let results = [
            GameResult::Win(Side::White),
            GameResult::Win(Side::Black),
            GameResult::Win(Side::White),
            GameResult::Win(Side::White),
        ];
        let games: Vec<GameOutcome> = f
            .iter()
            .zip(results)
            .map(|(f, r)| outcome(f, Some(r)))
            .collect();
        let mut forward = Standings::new(Format::RoundRobin, &names);
        games.iter().for_each(|g| forward.add(g));
        let mut backward = Standings::new(Format::RoundRobin, &names);
        games.iter().rev().for_each(|g| backward.add(g));
        assert_eq!(forward, backward);
        let t = forward.encounters[0].tally;
        assert_eq!((t.wins, t.draws, t.losses), (3, 0, 1));
        assert_eq!(t.pentanomial, [0, 0, 1, 0, 1]);
        assert_eq!(forward.bots[0].points, 3.0);
        assert_eq!(forward.between(1, 0), Some((1.0, 4)));
        assert!(forward.head_to_head().is_some());
    }

    #[test]
    fn a_gauntlet_s_gates_judge_each_encounter_by_its_own_rounds() {
        // Bot 0 beats bot 1 in every game and loses every game to bot 2. The encounters'
        // pairs interleave in the schedule (pair 1 is 0-1's round 1, pair 2 is 0-2's round
        // 1, ...): each gate must still see its own rounds one after another.
        let f = fixtures(Format::Gauntlet, 3, 20, 1);
        let games: Vec<GameOutcome> = f
            .iter()
            .map(|g| {
                let zero = if g.white == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                let winner = if g.encounter() == (0, 1) {
                    zero
                } else {
                    zero.other()
                };
                outcome(g, Some(GameResult::Win(winner)))
            })
            .collect();
        let params = SprtParams::parse("elo0=0,elo1=100").unwrap();
        let run = |order: &mut dyn Iterator<Item = &GameOutcome>| {
            let mut gates = SprtGates::new(params, &[(0, 1), (0, 2)]);
            let mut decided = Vec::new();
            for g in order {
                if let Some((encounter, report)) = gates.add(g) {
                    decided.push((encounter, report.decision));
                }
            }
            (gates, decided)
        };
        let (gates, decided) = run(&mut games.iter());
        assert!(gates.all_decided());
        assert!(decided.contains(&((0, 1), SprtDecision::AcceptH1)));
        assert!(decided.contains(&((0, 2), SprtDecision::AcceptH0)));
        assert_eq!(gates.verdict(), SprtDecision::AcceptH0);
        assert!(gates.only().is_none());
        // Finishing in reverse order: the same decisions, after the same games.
        let (backward, _) = run(&mut games.iter().rev());
        for e in [(0, 1), (0, 2)] {
            let (a, b) = (gates.get(e).unwrap(), backward.get(e).unwrap());
            assert_eq!((a.decided(), a.games()), (b.decided(), b.games()));
        }
    }

    #[test]
    fn a_gauntlet_s_verdict_is_h1_only_when_every_encounter_accepts_it() {
        let params = SprtParams::parse("elo0=0,elo1=100").unwrap();
        let f = fixtures(Format::Gauntlet, 3, 20, 1);
        let win = |g: &Fixture| {
            let zero = if g.white == 0 {
                Side::White
            } else {
                Side::Black
            };
            outcome(g, Some(GameResult::Win(zero)))
        };
        // Bot 0 wins every game against bot 1; against bot 2 nothing is in yet.
        let mut gates = SprtGates::new(params, &[(0, 1), (0, 2)]);
        for g in f.iter().filter(|g| g.encounter() == (0, 1)) {
            gates.add(&win(g));
        }
        assert!(gates.is_decided((0, 1)) && !gates.is_decided((0, 2)));
        assert!(!gates.all_decided());
        assert_eq!(gates.verdict(), SprtDecision::Continue);
        // It wins every game against bot 2 too: H1 against each, so H1 for the series.
        for g in f.iter().filter(|g| g.encounter() == (0, 2)) {
            gates.add(&win(g));
        }
        assert!(gates.all_decided());
        assert_eq!(gates.verdict(), SprtDecision::AcceptH1);
    }

    #[test]
    fn the_sprt_gate_decides_at_the_same_pair_whatever_the_finishing_order() {
        let f = fixtures(Format::RoundRobin, 2, 20, 1);
        // Bot 0 wins every game: whoever is White in a leg, bot 0 is the winner.
        let wins: Vec<GameOutcome> = f
            .iter()
            .map(|g| {
                let winner = if g.white == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                outcome(g, Some(GameResult::Win(winner)))
            })
            .collect();
        let params = SprtParams::parse("elo0=0,elo1=50").unwrap();
        let decide = |order: &[usize]| {
            let mut gate = SprtGate::new(params);
            for &i in order {
                if let Some(r) = gate.add(&wins[i]) {
                    return (i, r, gate.games());
                }
            }
            panic!("no decision");
        };
        let in_order: Vec<usize> = (0..wins.len()).collect();
        // Legs swapped within pairs, and pairs finishing two at a time out of order.
        let shuffled: Vec<usize> = (0..wins.len()).map(|i| i ^ 1).collect();
        let (_, first, games_a) = decide(&in_order);
        let (_, second, games_b) = decide(&shuffled);
        assert_eq!(first, second);
        assert_eq!(games_a, games_b);
        assert_eq!(first.decision, crate::series::stats::SprtDecision::AcceptH1);
    }

    #[test]
    fn unfinished_games_count_nowhere_and_forfeits_are_marked() {
        let names = ["a".to_string(), "b".to_string(), "c".to_string()];
        let f = fixtures(Format::RoundRobin, 3, 1, 1);
        let mut s = Standings::new(Format::RoundRobin, &names);
        s.add(&outcome(&f[0], None));
        s.add(&GameOutcome::of(
            &f[1],
            Some(GameResult::Win(Side::White)),
            Termination::Abandoned,
        ));
        assert_eq!((s.finished, s.unfinished), (2, 1));
        // f[1] is the return game: b White against a.
        assert_eq!(s.bots[0].forfeits, 1);
        assert_eq!(s.bots[1].points, 1.0);
        assert!(
            s.head_to_head().is_none(),
            "three bots: no single encounter"
        );
        let table = s.crosstable();
        assert!(table.lines().nth(1).unwrap().contains('b'), "{table}");
        assert!(table.contains("1/1"), "{table}");
    }

    #[test]
    fn an_adjudicated_game_counts_like_any_finished_game_and_is_no_forfeit() {
        let names = ["a".to_string(), "b".to_string()];
        let f = fixtures(Format::RoundRobin, 2, 1, 1);
        let mut s = Standings::new(Format::RoundRobin, &names);
        s.add(&GameOutcome::of(
            &f[0],
            Some(GameResult::Win(Side::White)),
            Termination::Adjudication,
        ));
        s.add(&GameOutcome::of(
            &f[1],
            Some(GameResult::Draw),
            Termination::Adjudication,
        ));
        assert_eq!((s.finished, s.unfinished), (2, 0));
        let (a, b) = (&s.bots[0], &s.bots[1]);
        assert_eq!((a.wins, a.draws, a.losses, a.points), (1, 1, 0, 1.5));
        assert_eq!((b.wins, b.draws, b.losses, b.forfeits), (0, 1, 1, 0));
        assert_eq!(s.conduct[1].forfeits, 0);
        let h2h = s.head_to_head().unwrap();
        assert_eq!((h2h.wins, h2h.draws, h2h.losses), (1, 1, 0));
    }

    #[test]
    fn each_bot_s_conduct_sums_its_counted_games() {
        let names = ["a".to_string(), "b".to_string()];
        let f = fixtures(Format::RoundRobin, 2, 1, 1);
        let slow = GameConduct {
            timeouts: 3,
            suspect_timeouts: 2,
            illegal: 1,
            verdict: None,
        };
        let mut s = Standings::new(Format::RoundRobin, &names);
        // Game 1: a (White) loses on time; game 2: b (White) is clean, a slow again.
        s.add(
            &GameOutcome::of(
                &f[0],
                Some(GameResult::Win(Side::Black)),
                Termination::TimeForfeit,
            )
            .with_conduct([slow.clone(), GameConduct::default()]),
        );
        s.add(
            &GameOutcome::of(&f[1], Some(GameResult::Draw), Termination::Normal)
                .with_conduct([GameConduct::default(), slow.clone()]),
        );
        let a = &s.conduct[0];
        assert_eq!(
            (
                a.name.as_str(),
                a.timeouts,
                a.suspect_timeouts,
                a.illegal,
                a.forfeits
            ),
            ("a", 6, 4, 2, 1)
        );
        assert_eq!(a.forfeits, s.bots[0].forfeits);
        assert_eq!(s.conduct[1], Conduct::named("b"));
        // Without --replay-suspect, both suspect games count and are reported.
        assert_eq!(s.replays.counted_suspect, 2);
        assert_eq!(s.replays.voided, 0);
    }
}
