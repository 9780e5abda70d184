//! A game's pages: `games/ID.html` with its first [`PLIES_PER_PAGE`]
//! moves, `games/ID_2.html` with the next, and so on; each with the board
//! before its first move and after each of its moves (one `<svg>`, a
//! group per position named by its ply, `p0`, `p1`...: the same name on
//! every page), the moves as links, and links to the other pages.
//!
//! A long game is drawn one page at a time: the positions of a page
//! become boards, SVG and HTML, are written and dropped before the next
//! page's, so a game of fifty thousand moves takes no more memory to draw
//! than its replay. Each page has a fingerprint of all it shows (the
//! moves up to its last, the players, the row of links; how the game
//! stands on the first and last pages only): a page whose fingerprint did
//! not change is not drawn again, so one more move in a long game redraws
//! its last page and its first, not every page.

use super::{Making, Player, SiteError, Summary, pager, player_page, write_page};
use crate::adjudicate::known_name;
use crate::store::analysis::StoredAnalysis;
use minijinja::{Value, context};
use pbem_engine::game::{self, Game};
use pbem_engine::record::{self, Record, Replayed};
use pbem_engine::side::Side;
use serde::Serialize;

/// The most moves on one page of a game: about 250 KB of page for the
/// busiest boards.
pub(crate) const PLIES_PER_PAGE: usize = 200;

/// Why a game has no pages: its record does not replay, or the site.
pub(super) enum GameError {
    Record(String),
    Site(SiteError),
}

impl From<SiteError> for GameError {
    fn from(e: SiteError) -> GameError {
        GameError::Site(e)
    }
}

/// The pages of a game written (their text changed) and left.
#[derive(Debug, Default)]
pub(super) struct Wrote {
    pub written: usize,
    pub unchanged: usize,
}

/// Game `id`'s pages, those that changed since `old` written; its line in
/// the lists (`hash` left to the caller).
pub(super) fn pages(
    m: &Making<'_>,
    id: &str,
    rec: &Record,
    old: Option<&Summary>,
) -> Result<(Summary, Wrote), GameError> {
    pbem_engine::with_game!(rec.rules, G => pages_of::<G>(m, id, rec, old))
}

/// How the game stands, on its first and last pages.
#[derive(Serialize)]
struct State<'a> {
    over: bool,
    text: &'a str,
    plies: usize,
}

/// What one page shows but its board and its moves (which the moves up
/// to its last one give): with them, its fingerprint.
#[derive(Serialize)]
struct Page<'a> {
    id: &'a str,
    game: &'a str,
    slug: &'a str,
    players: &'a [Player],
    series: Option<&'a str>,
    tournament: Option<&'a str>,
    round: Option<u32>,
    series_game: Option<u32>,
    series_of: Option<u32>,
    rated: bool,
    state: Option<State<'a>>,
    /// The positions it shows: `first` (before its first move) to `last`.
    first: usize,
    last: usize,
    page: usize,
    pages: usize,
    pager: Vec<pager::Link>,
    /// The neighbouring pages, at the move next to this page's.
    prev: Option<pager::Link>,
    next: Option<pager::Link>,
    /// Where the links to the start and to the last move go.
    start: String,
    end: String,
}

fn pages_of<G: Game>(
    m: &Making<'_>,
    id: &str,
    rec: &Record,
    old: Option<&Summary>,
) -> Result<(Summary, Wrote), GameError> {
    let replayed = record::replay::<G>(rec).map_err(|e| GameError::Record(e.to_string()))?;
    let summary = summary_of(m, id, rec, &replayed);
    let total = summary.moves;
    let count = pager::count(total, PLIES_PER_PAGE);
    let geometry = G::RULES.geometry();
    // The moves up to a page's last, folded in as the pages go: the
    // positions a page draws follow from them (and the rules and the
    // first side).
    let mut moves_so_far = fold(m.templates, G::RULES.slug().as_bytes());
    moves_so_far = fold(
        moves_so_far,
        G::RULES.side_name(rec.first_side()).as_bytes(),
    );
    // A finished game's analysis, on every page: its marks and graph.
    let analysis = summary
        .over
        .then(|| super::analysis::of(m.store, id, rec))
        .flatten();
    let shown = analysis.as_ref().map(|a| a.to_text()).unwrap_or_default();
    moves_so_far = fold(moves_so_far, shown.as_bytes());
    let mut prints = Vec::with_capacity(count);
    let mut wrote = Wrote::default();
    for k in 1..=count {
        let (from, to) = ((k - 1) * PLIES_PER_PAGE, (k * PLIES_PER_PAGE).min(total));
        let texts: Vec<String> = replayed.moves[from..to]
            .iter()
            .map(|n| n.canonical(geometry))
            .collect();
        for t in &texts {
            moves_so_far = fold(moves_so_far, t.as_bytes());
        }
        let page = page_of(&summary, rec, k, count, from, to);
        let print = fold(moves_so_far, &serde_json::to_vec(&page).unwrap_or_default());
        prints.push(print);
        let path = m.dir.join("games").join(pager::file(id, k));
        if old.and_then(|o| o.prints.get(k - 1)) == Some(&print) && path.exists() {
            wrote.unchanged += 1;
            continue;
        }
        let html = draw(m, &replayed, &page, &texts, analysis.as_ref())?;
        if write_page(&path, &html)? {
            wrote.written += 1;
        } else {
            wrote.unchanged += 1;
        }
    }
    Ok((Summary { prints, ..summary }, wrote))
}

/// Page `k` of `count` of the game `s`, showing positions `from` to `to`.
fn page_of<'a>(
    s: &'a Summary,
    rec: &Record,
    k: usize,
    count: usize,
    from: usize,
    to: usize,
) -> Page<'a> {
    // The last page is named by where it begins alone: its end moves
    // with every move, and the other pages need not.
    let span = |j: usize| {
        let first = (j - 1) * PLIES_PER_PAGE + 1;
        if j == count {
            format!("{first} on")
        } else {
            format!("{first}–{}", j * PLIES_PER_PAGE)
        }
    };
    let neighbour = |j: usize, ply: usize| pager::Link {
        label: format!("moves {}", span(j)),
        href: Some(format!("{}#p{ply}", pager::file(&s.id, j))),
        current: false,
    };
    let here = |j: usize, hash: String| {
        if j == k {
            hash
        } else {
            format!("{}{hash}", pager::file(&s.id, j))
        }
    };
    Page {
        id: &s.id,
        game: &s.game,
        slug: &s.slug,
        players: &s.players,
        series: s.series.as_deref(),
        tournament: s.tournament.as_deref(),
        round: s.round,
        series_game: rec.match_info.game,
        series_of: rec.match_info.of,
        rated: rec.match_info.rated,
        state: (k == 1 || k == count).then_some(State {
            over: s.over,
            text: &s.state,
            plies: s.moves,
        }),
        first: from,
        last: to,
        page: k,
        pages: count,
        pager: pager::links(k, count, |j| pager::file(&s.id, j), span),
        prev: (k > 1).then(|| neighbour(k - 1, from - 1)),
        next: (k < count).then(|| neighbour(k + 1, to + 1)),
        start: here(1, "#p0".into()),
        // The last page shows its last position unless told otherwise: a
        // middle page need not change with every move.
        end: if k == count {
            format!("#p{to}")
        } else {
            pager::file(&s.id, count)
        },
    }
}

/// The page's HTML: its positions drawn, each with its caption, its
/// moves listed.
fn draw<G: Game>(
    m: &Making<'_>,
    replayed: &Replayed<G>,
    page: &Page<'_>,
    texts: &[String],
    analysis: Option<&StoredAnalysis>,
) -> Result<String, SiteError> {
    let first = replayed.positions[0].turn();
    let side_of = |ply: usize| {
        let s = if ply % 2 == 1 { first } else { first.other() };
        G::RULES.side_name(s)
    };
    let caption = m.env.get_template("caption.txt")?;
    // A move's text: the page's own, or (the position a later page
    // begins with) the move before the page.
    let text = |ply: usize| match ply.checked_sub(page.first + 1) {
        Some(i) => texts[i].clone(),
        None => replayed.moves[ply - 1].canonical(G::RULES.geometry()),
    };
    let captions = (page.first..=page.last)
        .map(|ply| {
            let ctx = match ply {
                0 => context! { ply, side => G::RULES.side_name(first) },
                _ => context! { ply, side => side_of(ply), text => text(ply) },
            };
            caption.render(ctx)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let boards: Vec<_> = (page.first..=page.last)
        .map(|ply| replayed.positions[ply].board(&replayed.view(ply, None)))
        .collect();
    let frames = pbem_engine::board::svg_frames_captioned(&boards, "p", page.first, &captions);
    drop(boards);
    let moves: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let ply = page.first + i + 1;
            context! { ply, side => side_of(ply), text, mark => super::analysis::mark(analysis, ply) }
        })
        .collect();
    let sides = [G::RULES.side_name(first), G::RULES.side_name(first.other())];
    let graph = analysis.map(|a| super::analysis::graph(a, page.first, page.last, sides));
    let ctx = context! {
        root => "../", page => minijinja::value::Serde(page),
        board => Value::from_safe_string(frames), moves, graph,
    };
    Ok(m.env.get_template("game.html")?.render(ctx)?)
}

/// The game's line in the lists, and what its pages say of it.
fn summary_of<G: Game>(m: &Making<'_>, id: &str, rec: &Record, r: &Replayed<G>) -> Summary {
    let rules = G::RULES;
    let (over, state) = match &r.end {
        Some(end) => (
            true,
            match end.outcome {
                game::Outcome::Win(s) => {
                    outcome(&format!("{} won", rules.side_name(s)), &end.reason)
                }
                game::Outcome::Draw => outcome("drawn", &end.reason),
            },
        ),
        None => (
            false,
            format!("{} to play", rules.side_name(r.position().turn())),
        ),
    };
    let last = rec.lines.iter().rev().find_map(|l| l.time).or(rec.created);
    let when = last.map(|t| t.to_rfc3339()).unwrap_or_default();
    let at = last
        .map(|t| crate::timecontrol::format_deadline(t.to_utc(), None))
        .unwrap_or_default();
    Summary {
        hash: 0,
        id: id.to_string(),
        slug: rules.slug().to_string(),
        game: rules.name().to_string(),
        players: players_of(m, rec),
        over,
        state,
        moves: r.moves.len(),
        when,
        at,
        series: rec.match_info.series.clone(),
        tournament: rec.match_info.tournament.clone(),
        round: rec.match_info.round,
        prints: Vec::new(),
    }
}

/// A game's outcome and why (`black won: red resigned`); the reason
/// alone when it says the outcome already (`drawn by agreement`, never
/// `drawn: drawn by agreement`).
pub(super) fn outcome(what: &str, reason: &str) -> String {
    let said = reason
        .get(..what.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(what));
    if said || reason.is_empty() {
        if reason.is_empty() { what } else { reason }.to_string()
    } else {
        format!("{what}: {reason}")
    }
}

/// The players of `rec`, as the site shows them, side A's first.
fn players_of(m: &Making<'_>, rec: &Record) -> Vec<Player> {
    Side::BOTH
        .into_iter()
        .filter_map(|side| {
            let mailbox = rec.players[side].as_deref()?;
            Some(Player {
                name: shown(m.store, mailbox, m.options),
                page: player_page(&m.key, mailbox),
                side: rec.rules.side_name(side).to_string(),
            })
        })
        .collect()
}

/// A player's name on the site: their address only if the admin allows.
pub(super) fn shown(
    store: &crate::store::Store,
    mailbox: &str,
    options: &super::Options,
) -> String {
    if options.addresses {
        mailbox.to_string()
    } else {
        let me = crate::reply::Identity {
            name: options.pbem_name.clone(),
            ..crate::reply::Identity::at(options.pbem.clone())
        };
        known_name(store, &me, mailbox)
    }
}

/// `bytes` folded into the running hash `h` (FNV-1a, as
/// [`crate::store::stable_hash`], from `h` on; with a separator, so that
/// `ab`,`c` and `a`,`bc` differ).
pub(super) fn fold(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes.iter().chain([&0xff]) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}
