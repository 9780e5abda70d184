//! The bot's analyses in a poll: after the bot's moves, with what is
//! left of `[bot] poll_ms`, the games in the analysis queue
//! (`DATA/analysis-queue/`, written in the batch that ended each game)
//! are analysed, the oldest first, a move at a time: a poll thinks at
//! most its budget and one move's search (`[bot] analysis_nodes`) past
//! it. A long game is analysed over several polls, its part done kept in
//! its analysis file; the games still to do wait for the next poll,
//! which the daemon runs at once ([`Report::analyses_waiting`]).
//!
//! Once a game's analysis is whole, each of its players gets their mail
//! of it, committed under the key `analysis:ID:MOVES` like the bot's
//! moves, and the game leaves the queue. Crash safety: the analysis file
//! reaches the disk before the key is committed with the mails, the
//! queue file is removed after. A crash in between leaves the game in
//! the queue with its analysis whole: the next poll commits the mails
//! without thinking again, or (the key committed) only empties the
//! queue. So each player gets the mail once.

use super::{BatchContext, PollError, Poller, Report, panic_message};
use crate::outbox::Hold;
use crate::record::{self, Record};
use crate::store::analysis::{StoredAnalysis, StoredPly, moves_hash};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// What one game's turn in the queue came to.
enum Step {
    /// Its mails committed under the key, and how many moves it was.
    Mailed(String, usize),
    /// Analysed in part, this many moves of so many: the rest next poll.
    Part(usize, usize),
    /// Nothing to do: gone, not over yet, or done before a crash.
    Dropped(&'static str),
}

impl Poller<'_> {
    /// Analyses the queued games within what is left of the bot's think
    /// time after `spent` on its moves; a game that fails (or panics) is
    /// reported and the others go on.
    pub(super) fn analyse_games(
        &self,
        cx: &BatchContext<'_>,
        spent: Duration,
        report: &mut Report,
    ) {
        let Some((limits, seed)) = self.identity.bot.analysis() else {
            return;
        };
        let budget = Duration::from_millis(self.identity.bot.poll_ms).saturating_sub(spent);
        let started = Instant::now();
        let ids = match self.analysis_order() {
            Ok(ids) => ids,
            Err(e) => {
                report.errors.push(format!("analysis queue: {e}"));
                return;
            }
        };
        for (n, id) in ids.iter().enumerate() {
            if started.elapsed() >= budget {
                report.analyses_waiting = ids.len() - n;
                return;
            }
            let left = budget.saturating_sub(started.elapsed());
            let job = Job {
                id,
                limits: &limits,
                seed,
                until: Instant::now() + left,
            };
            let step =
                panic::catch_unwind(AssertUnwindSafe(|| self.analysis_turn(cx, &job, report)));
            match step {
                Ok(Ok(step)) => {
                    report.log.push(step_line(id, &step));
                    if let Step::Part(..) = step {
                        // Its think time spent: this game and the rest
                        // go on next poll.
                        report.analyses_waiting = ids.len() - n;
                        return;
                    }
                }
                Ok(Err(e)) => {
                    let stop = e.is_unwritable();
                    report.errors.push(format!("analysis of {id}: {e}"));
                    if stop {
                        return;
                    }
                }
                Err(payload) => report.errors.push(format!(
                    "analysis of {id}: pbem failed on it ({}); the other games go on",
                    panic_message(payload.as_ref())
                )),
            }
        }
    }

    /// The queued games, the longest waiting first; one whose queue file
    /// does not read, first of all (its turn says what is wrong).
    fn analysis_order(&self) -> Result<Vec<String>, PollError> {
        let mut ids: Vec<(Option<chrono::DateTime<chrono::Utc>>, String)> = self
            .store
            .queued_analysis_ids()?
            .into_iter()
            .map(|id| {
                let since = self
                    .store
                    .queued_analysis(&id)
                    .ok()
                    .flatten()
                    .map(|q| q.queued);
                (since, id)
            })
            .collect();
        ids.sort();
        Ok(ids.into_iter().map(|(_, id)| id).collect())
    }

    /// Game `job.id`'s turn: analysed on until `job.until`, and once
    /// whole, mailed and taken out of the queue.
    fn analysis_turn(
        &self,
        cx: &BatchContext<'_>,
        job: &Job<'_>,
        report: &mut Report,
    ) -> Result<Step, PollError> {
        let id = job.id;
        let rec = match self.store.record(id) {
            Ok(Some(rec)) => rec,
            Ok(None) => {
                self.unqueue(id)?;
                return Ok(Step::Dropped("no such game"));
            }
            Err(crate::store::StoreError::Record { .. }) => {
                self.unqueue(id)?;
                return Ok(Step::Dropped("the record does not read"));
            }
            Err(e) => return Err(e.into()),
        };
        let replayed = crate::with_game!(rec.rules, G => {
            record::replay::<G>(&rec).map(|r| (r.end.is_some(), r.moves.len()))
        });
        let total = match replayed {
            Ok((true, total)) => total,
            // A loss on time whose record a crash kept from the disk:
            // the next poll writes it.
            Ok((false, _)) => return Ok(Step::Dropped("the game is not over")),
            // Damaged: its players hear of it from their mail; nothing
            // to analyse, and no failure of every poll from now on.
            Err(_) => {
                self.unqueue(id)?;
                return Ok(Step::Dropped("the record does not replay"));
            }
        };
        let moves = moves_hash(&rec);
        let key = format!("analysis:{id}:{moves:016x}");
        let a = self.analysed(job, &rec, total, report)?;
        if !a.complete() {
            return Ok(Step::Part(a.plies.len(), a.total));
        }
        // Asked for again, its file lost or damaged: made again, not
        // mailed again.
        if cx.processed.contains(&key).unwrap_or(false) {
            self.unqueue(id)?;
            return Ok(Step::Dropped("mailed before"));
        }
        let (replies, effects) = cx.adj.decide(|adj| adj.analysis_mails(id, &rec, &a))?;
        self.store.apply_effects(&effects)?;
        self.commit_as(
            &key,
            &replies,
            None,
            None,
            cx.now,
            Hold::News { urgent: false },
        )?;
        cx.processed.insert(&key);
        self.unqueue(id)?;
        Ok(Step::Mailed(key, a.total))
    }

    /// Game `job.id`'s analysis as far as it goes by `job.until`, from
    /// the part its file holds (when that is of this record and this
    /// budget), written and synced when it grew.
    fn analysed(
        &self,
        job: &Job<'_>,
        rec: &Record,
        total: usize,
        report: &mut Report,
    ) -> Result<StoredAnalysis, PollError> {
        let id = job.id;
        let nodes = match job.limits.think {
            pbem_engine::bot::Budget::Nodes(n) => n,
            pbem_engine::bot::Budget::Time(_) => 0,
        };
        let fresh = StoredAnalysis {
            id: id.to_string(),
            moves: moves_hash(rec),
            nodes,
            seed: job.seed,
            total,
            plies: Vec::new(),
        };
        let mut a = match self
            .store
            .analysis_text(id)?
            .map(|t| StoredAnalysis::parse(&t))
        {
            // A whole analysis stands whatever its budget; one in part
            // goes on only with the searches it began with.
            Some(Ok(a))
                if a.moves == fresh.moves
                    && a.total == total
                    && (a.complete() || (a.nodes, a.seed) == (nodes, job.seed)) =>
            {
                a
            }
            Some(Ok(_)) | None => fresh,
            Some(Err(e)) => {
                // Not the poll's failure: the analysis is made again.
                let error = format!("the file does not read ({e}); analysed again");
                report.log.push(crate::logging::line(
                    "analysis-damaged",
                    &[("game", &id), ("error", &error)],
                ));
                fresh
            }
        };
        if a.complete() {
            return Ok(a);
        }
        let from = a.plies.len();
        let until = job.until;
        let mut more = |_: usize, _: usize| Instant::now() < until;
        let part =
            pbem_engine::bot::analyse::analyse_from(rec, job.limits, job.seed, from, &mut more)
                .map_err(|source| crate::store::StoreError::Record { source })?;
        a.plies.extend(part.plies.iter().map(StoredPly::from));
        if a.plies.len() > from {
            self.store.write_analysis(id, &a)?;
            self.store.sync()?;
        }
        Ok(a)
    }

    /// Game `id` out of the queue, on disk.
    fn unqueue(&self, id: &str) -> Result<(), PollError> {
        self.store.unqueue_analysis(id)?;
        self.store.sync()?;
        Ok(())
    }
}

/// One game's turn: its id, the search of each move, and when to stop.
struct Job<'a> {
    id: &'a str,
    limits: &'a pbem_engine::bot::Limits,
    seed: u64,
    until: Instant,
}

/// The log line of a game's turn.
fn step_line(id: &str, step: &Step) -> String {
    match step {
        Step::Mailed(key, moves) => crate::logging::line(
            "analysis",
            &[("key", key), ("moves", moves), ("fate", &"mailed")],
        ),
        Step::Part(done, of) => crate::logging::line(
            "analysis",
            &[
                ("game", &id),
                ("done", done),
                ("of", of),
                ("fate", &"in part"),
            ],
        ),
        Step::Dropped(why) => crate::logging::line("analysis", &[("game", &id), ("fate", why)]),
    }
}
