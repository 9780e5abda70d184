//! Long lists and long games on numbered pages: no page of the site grows
//! with the number of games or the length of a game. A list shows at most
//! [`ROWS_PER_PAGE`] rows a page, a game at most
//! [`super::game::PLIES_PER_PAGE`] moves; each page links to the first,
//! the last and its neighbours (a bounded row of links, whatever the
//! number of pages).

use serde::Serialize;

/// The most rows of a list page (games of a kind, of a player, in play,
/// finished; a ratings table).
pub(crate) const ROWS_PER_PAGE: usize = 200;

/// How many neighbours of the page shown, on each side, the row of links
/// names; the others are a gap (`…`).
const AROUND: usize = 2;

/// The file of page `k` (from 1) of the pages named `stem`: `stem.html`,
/// then `stem_2.html`, `stem_3.html`... An underscore, which no game id,
/// tournament name, game slug or player page name holds, so that no page
/// of one thing can be taken for another thing's (`games/x_2.html` is
/// never game `x_2`, where `games/x-2.html` could be).
pub(crate) fn file(stem: &str, k: usize) -> String {
    if k <= 1 {
        format!("{stem}.html")
    } else {
        format!("{stem}_{k}.html")
    }
}

/// How many pages `n` items make at `per` a page: at least one.
pub(crate) fn count(n: usize, per: usize) -> usize {
    n.div_ceil(per.max(1)).max(1)
}

/// One link of the row: the page shown (no link), another page, or a gap.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub(crate) struct Link {
    pub label: String,
    /// None: the page shown, or a gap.
    pub href: Option<String>,
    pub current: bool,
}

/// The row of links of page `k` of `pages`: the first, the last, and the
/// [`AROUND`] pages each side of `k`, gaps between; empty for one page.
/// `href(j)` and `label(j)` name page `j`.
pub(crate) fn links(
    k: usize,
    pages: usize,
    href: impl Fn(usize) -> String,
    label: impl Fn(usize) -> String,
) -> Vec<Link> {
    if pages <= 1 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut last_shown = 0;
    for j in 1..=pages {
        let near = j.abs_diff(k) <= AROUND;
        if !(j == 1 || j == pages || near) {
            continue;
        }
        if j > last_shown + 1 {
            out.push(Link {
                label: "…".into(),
                href: None,
                current: false,
            });
        }
        out.push(Link {
            label: label(j),
            href: (j != k).then(|| href(j)),
            current: j == k,
        });
        last_shown = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(k: usize, pages: usize) -> String {
        links(k, pages, |j| file("x", j), |j| j.to_string())
            .iter()
            .map(|l| match (&l.href, l.current) {
                (_, true) => format!("[{}]", l.label),
                (Some(h), _) => format!("{}={h}", l.label),
                (None, _) => l.label.clone(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_page_links_to_the_ends_and_its_neighbours_only() {
        assert_eq!(shown(1, 1), "");
        assert_eq!(shown(1, 2), "[1] 2=x_2.html");
        assert_eq!(
            shown(6, 250),
            "1=x.html … 4=x_4.html 5=x_5.html [6] 7=x_7.html 8=x_8.html … 250=x_250.html"
        );
        assert_eq!(
            shown(250, 250),
            "1=x.html … 248=x_248.html 249=x_249.html [250]"
        );
        // Bounded whatever the number of pages.
        assert!(links(5_000, 10_000, |j| file("x", j), |j| j.to_string()).len() <= 9);
        assert_eq!((count(0, 200), count(200, 200), count(201, 200)), (1, 1, 2));
    }
}
