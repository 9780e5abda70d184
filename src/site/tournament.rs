//! A tournament's pages: its standings, then its rounds, each game
//! linked when it is on the site; at most [`ROWS_PER_PAGE`] rows a page
//! (the standings' and the games'), so that a round robin of many
//! players goes on over `NAME_2.html`, `NAME_3.html`... A round that
//! does not fit the rest of a page is cut and goes on at the top of the
//! next.

use super::game::shown;
use super::pager::{self, ROWS_PER_PAGE};
use super::{Options, SiteError, Summary};
use crate::adjudicate::league_state;
use crate::store::Store;
use minijinja::value::Serde;
use minijinja::{Environment, Value, context};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

/// The pages of tournament `t`.
pub(super) fn pages(
    env: &Environment<'_>,
    store: &Store,
    t: &crate::store::league::TournamentFile,
    games: &BTreeMap<String, Summary>,
    options: &Options,
) -> Result<Vec<(PathBuf, String)>, SiteError> {
    let name = |seat: usize| t.players.get(seat).map(|p| shown(store, p, options));
    let state = league_state(t);
    let standings: Vec<Value> = state
        .standings()
        .iter()
        .map(|l| {
            context! {
                place => l.place, name => name(l.seat),
                points => l.points.to_string(), tie_break => l.tie_break.to_string(),
                won => l.won, drawn => l.drawn, lost => l.lost,
                dropped => t.dropped.contains(&l.seat),
            }
        })
        .collect();
    let rounds: Vec<Vec<Value>> = t
        .played
        .iter()
        .map(|r| {
            r.games
                .iter()
                .map(|g| {
                    context! {
                        first => name(g.first), second => name(g.second),
                        game => g.game.as_ref().filter(|id| games.contains_key(*id)),
                        outcome => g.outcome.zip(name(g.first).zip(name(g.second)))
                            .map(|(o, (first, second))| o.words(&first, &second)),
                    }
                })
                .collect()
        })
        .collect();
    // A round's rows: its games, then its bye.
    let sizes: Vec<usize> = (t.played.iter().zip(&rounds))
        .map(|(r, games)| games.len() + usize::from(r.bye.is_some()))
        .collect();
    let laid = lay_out(standings.len(), &sizes, ROWS_PER_PAGE);
    let count = laid.len();
    let stem = format!("tournaments/{}", t.name);
    let mut out = Vec::with_capacity(count);
    for (i, page) in laid.iter().enumerate() {
        let k = i + 1;
        let shown_rounds: Vec<Value> = page
            .rounds
            .iter()
            .map(|(r, span)| {
                let games = &rounds[*r];
                let shown = span.start.min(games.len())..span.end.min(games.len());
                let bye = (span.end > games.len())
                    .then(|| t.played[*r].bye.and_then(name))
                    .flatten();
                context! {
                    number => r + 1, continued => span.start > 0,
                    games => &games[shown], bye,
                }
            })
            .collect();
        let file = |j: usize| pager::file(&t.name, j);
        let ctx = context! {
            root => "../", name => &t.name, game => t.rules.name(), format => t.format.name(),
            over => t.over,
            tie_break => pbem_league::standings::TieBreak::of(t.format).name(),
            standings => &standings[page.standings.clone()], rounds => shown_rounds,
            page => k, pages => count,
            pager => Serde(pager::links(k, count, file, |j| j.to_string())),
        };
        out.push((
            PathBuf::from(pager::file(&stem, k)),
            env.get_template("tournament.html")?.render(ctx)?,
        ));
    }
    Ok(out)
}

/// What one page shows: rows of the standings, and stretches of rounds
/// (a round's number from 0, its rows shown: its games, then its bye).
#[derive(Debug, Default, PartialEq, Eq)]
struct Laid {
    standings: Range<usize>,
    rounds: Vec<(usize, Range<usize>)>,
}

/// The standings' `players` rows, then the rounds of `sizes` rows (games
/// and bye), laid on pages of at most `per` rows: at least one page.
fn lay_out(players: usize, sizes: &[usize], per: usize) -> Vec<Laid> {
    let per = per.max(1);
    let mut pages = vec![Laid::default()];
    let mut room = per;
    let mut at = 0;
    while at < players {
        if room == 0 {
            pages.push(Laid::default());
            room = per;
        }
        let take = room.min(players - at);
        pages.last_mut().expect("a page").standings = at..at + take;
        at += take;
        room -= take;
    }
    for (r, &n) in sizes.iter().enumerate() {
        // A round with no games (a bye alone) still has its heading.
        let mut from = 0;
        loop {
            if room == 0 {
                pages.push(Laid::default());
                room = per;
            }
            let take = room.min(n - from);
            let page = pages.last_mut().expect("a page");
            page.rounds.push((r, from..from + take));
            from += take;
            room -= take;
            if from >= n {
                break;
            }
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(players: usize, sizes: &[usize], per: usize) -> Vec<String> {
        lay_out(players, sizes, per)
            .iter()
            .map(|p| {
                let mut s = format!("{:?}", p.standings);
                for (r, span) in &p.rounds {
                    s.push_str(&format!(" r{}:{span:?}", r + 1));
                }
                s
            })
            .collect()
    }

    #[test]
    fn a_tournament_goes_on_over_pages_of_at_most_so_many_rows() {
        // All on one page.
        assert_eq!(shown(4, &[2, 2, 2], 200), ["0..4 r1:0..2 r2:0..2 r3:0..2"]);
        // Rounds cut where a page is full, and going on on the next.
        assert_eq!(
            shown(3, &[2, 2], 4),
            ["0..3 r1:0..1", "0..0 r1:1..2 r2:0..2"]
        );
        // Standings longer than a page go on too, then the rounds.
        assert_eq!(shown(5, &[1], 2), ["0..2", "2..4", "4..5 r1:0..1"]);
        // No round yet; a round of a bye alone.
        assert_eq!(shown(3, &[], 200), ["0..3"]);
        assert_eq!(shown(1, &[0], 200), ["0..1 r1:0..0"]);
        // Never more rows than a page holds.
        for laid in lay_out(64, &vec![32; 63], 200) {
            let rows =
                laid.standings.len() + laid.rounds.iter().map(|(_, s)| s.len()).sum::<usize>();
            assert!(rows <= 200, "{laid:?}");
        }
    }
}
