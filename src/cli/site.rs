use super::out;
use super::server::ConfigArg;
use crate::site::{self, Options};
use crate::store::Store;
use clap::Args;
use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Write the web archive: a static site of every game in the data folder
/// (in play and finished, by game and by player), pages for each game
/// with its board at every move (200 moves a page), the rules,
/// tournaments and ratings. Lists are 200 games a page; the index shows
/// the newest 200 games in play and finished. Run again, it remakes only
/// the pages whose games changed. On a terminal, a progress bar shows the
/// games done, the games a second and the time left.
///
/// Players are shown by name (or the local part of their address, `bob`),
/// never by address unless --addresses; no file of the site holds a key,
/// an address or a record. A player's page is named with a key kept in
/// the data folder (DATA/secrets/site-key); --new-key names them anew.
///
/// Examples:
///   pbem site /var/www/pbem
///   pbem site public --addresses
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Site {
    /// Where to write the site (made if missing).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Show the players' addresses (default: their names only).
    #[arg(long)]
    addresses: bool,
    /// Name the players' pages with a new key (when the old one is lost:
    /// links to the old names stop working).
    #[arg(long)]
    new_key: bool,
    /// No progress bar, only the summary line.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    config: ConfigArg,
}

impl Site {
    pub fn execute(self) -> anyhow::Result<i32> {
        let config = self.config.load()?;
        let store = Store::open(&config.data)?;
        let options = Options::of(
            &config,
            self.addresses || config.site.as_ref().is_some_and(|s| s.addresses),
        );
        if self.new_key {
            if let Err(e) = site::key::renew(&store) {
                eprintln!("pbem site: {e}");
                return Ok(1);
            }
            eprintln!(
                "pbem site: a new key in {}: the players' pages are named anew, the old names removed",
                site::key::path(&store).display()
            );
        }
        let bar = !self.quiet && std::io::stderr().is_terminal();
        let started = Instant::now();
        let mut bar = Bar::new(bar, "games", started);
        let mut progress = |done: usize, of: usize| bar.show(done, of);
        let built = match site::build(&store, &self.dir, &options, &mut progress) {
            Ok(b) => b,
            Err(e) => {
                bar.end();
                eprintln!("pbem site: {e}");
                return Ok(1);
            }
        };
        bar.end();
        for n in &built.notes {
            eprintln!("pbem site: {n}");
        }
        for s in &built.skipped {
            eprintln!("pbem site: left out: {s}");
        }
        out!(
            "{}: {} games ({} pages remade), {} pages written, {} unchanged, in {:.1} s",
            self.dir.display(),
            built.games,
            built.remade,
            built.written,
            built.unchanged,
            started.elapsed().as_secs_f64()
        );
        Ok(i32::from(!built.skipped.is_empty()))
    }
}

/// The progress bar on a terminal: redrawn at most ten times a second
/// (a site of ten thousand games calls it ten thousand times), with the
/// games a second and the time left.
pub(super) struct Bar {
    on: bool,
    /// What it counts: "games", "positions".
    unit: &'static str,
    started: Instant,
    /// When it was last drawn (whether it was), and the games done then.
    shown: Option<Instant>,
    drawn: usize,
}

impl Bar {
    pub(super) fn new(on: bool, unit: &'static str, started: Instant) -> Bar {
        Bar {
            on,
            unit,
            started,
            shown: None,
            drawn: 0,
        }
    }

    pub(super) fn show(&mut self, done: usize, of: usize) {
        let now = Instant::now();
        let due = self
            .shown
            .is_none_or(|t| now - t >= Duration::from_millis(100));
        let last = done == of && (self.shown.is_none() || self.drawn != done);
        if !self.on || !(due || last) {
            return;
        }
        self.shown = Some(now);
        self.drawn = done;
        eprint!("\r{}", line(done, of, self.unit, now - self.started));
        let _ = std::io::stderr().flush();
    }

    /// Ends the bar's line, if it was drawn.
    pub(super) fn end(&self) {
        if self.shown.is_some() {
            eprintln!();
        }
    }
}

/// The bar's line: `[####    ] 2500/10000 games, 1250/s, 6 s left`.
fn line(done: usize, of: usize, unit: &str, spent: Duration) -> String {
    let width = 40;
    let filled = (done * width).checked_div(of).unwrap_or(width).min(width);
    let secs = spent.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let left = if done < of && rate > 0.0 {
        format!(", {:.0} s left", (of - done) as f64 / rate)
    } else {
        String::new()
    };
    format!(
        "[{}{}] {done}/{of} {unit}, {rate:.0}/s{left}  ",
        "#".repeat(filled),
        " ".repeat(width - filled)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_shows_the_rate_and_the_time_left() {
        let l = line(2500, 10_000, "games", Duration::from_secs(2));
        assert!(
            l.starts_with(&format!("[{}{}]", "#".repeat(10), " ".repeat(30))),
            "{l}"
        );
        assert!(l.contains("2500/10000 games, 1250/s, 6 s left"), "{l}");
        let end = line(10_000, 10_000, "games", Duration::from_secs(8));
        assert!(end.contains("10000/10000 games, 1250/s  "), "{end}");
        assert!(!end.contains("left"), "{end}");
        // An empty data folder.
        assert!(line(0, 0, "games", Duration::ZERO).contains("0/0 games, 0/s"));
    }
}
