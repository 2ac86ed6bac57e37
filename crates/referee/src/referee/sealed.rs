//! Sealed decisions: two sides deciding at once, neither told of the other's decision
//! before both are in (Chess Eleven's formations; [`Refereed::sealed`] says when).
//!
//! Both requests go out together and each bot is bound by its own budget from the instant
//! its own request was written; neither is frozen while the pair is open. The replies are
//! then settled one by one in the game's order, exactly as if they had been asked one
//! after the other, so the record does not depend on which bot answered first. A first
//! side asked again (a bad reply that costs nothing) is asked alone; the second side's
//! reply waits until the game comes to it, and if it too must be asked again, it is asked
//! alone then.

use std::time::Duration;

use tokio::time::Instant;

use super::{Next, Referee, Reply};
use crate::bot::Incoming;
use crate::rules::Side;
use zebra_engine::seam::Refereed;

/// The reply to the second decision of a sealed pair, kept until the game comes to it.
pub(super) struct Pending<R: Refereed> {
    pub side: Side,
    pub id: u64,
    pub budget: R::Budget,
    pub reply: Reply<R::Action>,
    /// The CPU time its bot spent on it, when the kernel could tell.
    pub cpu: Option<Duration>,
}

/// One side's request while the pair is open: when it was written and by when its reply is
/// due.
#[derive(Clone, Copy)]
struct Open {
    id: u64,
    sent_at: Instant,
    deadline: Instant,
}

impl<R: Refereed> Referee<'_, R> {
    /// Asks `first` and `second` at once (each a side, a request id and its budget) and
    /// waits for both replies; each comes with the CPU time its bot spent until it replied.
    pub(super) async fn ask_both(
        &mut self,
        first: (Side, u64, &R::Budget),
        second: (Side, u64, &R::Budget),
    ) -> [(Reply<R::Action>, Option<Duration>); 2] {
        let cpu = |r: &Self, side: Side| r.seats[side.index()].bot.as_ref()?.cpu_time();
        // Per side (index: `Side::index`), its CPU time when asked and when its reply came:
        // a bot that answers first is not charged for the other's thinking.
        let before = [cpu(self, Side::White), cpu(self, Side::Black)];
        let mut after: [Option<Duration>; 2] = [None, None];
        // Both requests are queued before either flush is awaited: each bot's time runs
        // from its own request's write, whichever flush is awaited first.
        let mut open: [Option<Open>; 2] = [None, None];
        let mut replies: [Option<Reply<R::Action>>; 2] = [None, None];
        let mut flushes = Vec::with_capacity(2);
        for (side, id, budget) in [first, second] {
            match self.queue(side, id, budget) {
                Ok(flushed) => flushes.push((side, id, budget, flushed)),
                Err(reply) => replies[side.index()] = Some(reply),
            }
        }
        for (side, id, budget, flushed) in flushes {
            let patience = R::limit(budget) + R::grace(&self.cfg.game);
            match self.flushed(flushed, budget).await {
                Ok(sent_at) => {
                    open[side.index()] = Some(Open {
                        id,
                        sent_at,
                        deadline: sent_at + patience,
                    })
                }
                Err(reply) => replies[side.index()] = Some(reply),
            }
        }
        let budgets = [first, second].map(|(side, _, budget)| (side, *budget));
        let budget_of = |side: Side| {
            budgets
                .iter()
                .find(|(s, _)| *s == side)
                .map(|(_, b)| *b)
                .expect("one of the pair")
        };
        while let Some((side, got)) = self.next_of_both(&open).await {
            let Open { id, sent_at, .. } = open[side.index()].expect("open");
            let reply = match got {
                None => Some(self.timed_out(&budget_of(side))),
                Some(incoming) => match self.hear(side, id, sent_at, &incoming) {
                    Next::Wait => None,
                    Next::Reply(reply) => Some(reply),
                    Next::Closed => Some(self.closed(side).await),
                },
            };
            if let Some(reply) = reply {
                open[side.index()] = None;
                after[side.index()] = cpu(self, side);
                replies[side.index()] = Some(self.within_limits(side, reply));
            }
        }
        let spent = |side: Side| {
            let end = after[side.index()].or_else(|| cpu(self, side));
            before[side.index()]
                .zip(end)
                .map(|(a, b)| b.saturating_sub(a))
        };
        let spent = [spent(first.0), spent(second.0)];
        let mut take = |side: Side| replies[side.index()].take().expect("every side replied");
        [(take(first.0), spent[0]), (take(second.0), spent[1])]
    }

    /// The next thing read from either open side (`None` with it: its deadline passed),
    /// or `None` once neither is open.
    async fn next_of_both(&mut self, open: &[Option<Open>; 2]) -> Option<(Side, Option<Incoming>)> {
        let [white, black] = &mut self.seats;
        let white = white.bot.as_mut().expect("spawned");
        let black = black.bot.as_mut().expect("spawned");
        // A closed side's branch is disabled; its deadline is then never used.
        let never = Instant::now();
        let due = |k: usize| open[k].map_or(never, |o| o.deadline);
        tokio::select! {
            got = white.recv_until(due(0)), if open[0].is_some() => Some((Side::White, got)),
            got = black.recv_until(due(1)), if open[1].is_some() => Some((Side::Black, got)),
            else => None,
        }
    }
}
