use super::out;
use super::server::ConfigArg;
use crate::site::{self, Options};
use crate::store::Store;
use clap::Args;
use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;

/// Write the web archive: a static site of every game in the data folder
/// (in play and finished, by game and by player), one page per game with
/// its board at every move, the rules, tournaments and ratings. Run again,
/// it rewrites only the pages whose games changed.
///
/// Players are shown by name (or their address cut short, `bob@e…`), never
/// by address unless --addresses; no page shows a key or a record.
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
        let options = Options {
            addresses: self.addresses || config.site.as_ref().is_some_and(|s| s.addresses),
        };
        let bar = !self.quiet && std::io::stderr().is_terminal();
        let started = std::time::Instant::now();
        let mut progress = |done: usize, of: usize| {
            if bar && (done.is_multiple_of(64) || done == of) {
                let width = 40;
                let filled = (done * width).checked_div(of).unwrap_or(width);
                eprint!(
                    "\r[{}{}] {done}/{of} games",
                    "#".repeat(filled),
                    " ".repeat(width - filled)
                );
                let _ = std::io::stderr().flush();
            }
        };
        let built = match site::build(&store, &self.dir, &options, &mut progress) {
            Ok(b) => b,
            Err(e) => {
                if bar {
                    eprintln!();
                }
                eprintln!("pbem site: {e}");
                return Ok(1);
            }
        };
        if bar {
            eprintln!();
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
