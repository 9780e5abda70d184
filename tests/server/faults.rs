//! Faults of the world around pbem ("Hold up under crashes,
//! outages, hostile mail and load — and prove it"), run as the real
//! binary over a Maildir:
//!
//! - a game record damaged by hand stops that game only, and the admin
//!   and the players hear of it once, with the line;
//! - a full disk or a read-only data folder leaves the mail in the
//!   mailbox, says why, and the next poll processes it exactly once (these
//!   tests mount a small tmpfs and a read-only bind mount, so they need
//!   root and are ignored by a plain `cargo test`);
//! - a daemon, polls and MTA deliveries at the same moment process each
//!   mail once, and a poll that finds the lock held says so.

use crate::common;

use chrono::{DateTime, Duration, Utc};
use common::files;
use pbem::adjudicate::{Adjudicator, Desk};
use pbem::config::{Config, INIT};
use pbem::demo::example_moves;
use pbem::game::{PerSide, Side};
use pbem::mailbox::Maildir;
use pbem::poll::OsRandom;
use pbem::record::Record;
use pbem::rules::Rules;
use pbem::setup::Server;
use pbem::store::Store;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod disk;

mod concurrency;

/// The clock of the first poll; later polls add hours to it.
const T0: &str = "2026-11-20T10:00:00Z";
const ADMIN: &str = "Ann Admin <admin@example.org>";
/// `pbem poll`'s exit status when another pbem holds the lock, and
/// `pbem deliver`'s when it could not process the mail now (EX_TEMPFAIL).
const EX_TEMPFAIL: i32 = 75;

fn at(hours: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(T0).unwrap().to_utc() + Duration::hours(hours)
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A mail pbem sent, as its reader sees it.
#[derive(Debug)]
struct Sent {
    subject: String,
    text: String,
    message_id: String,
}

/// A pbem installation in a temporary folder: the embedded default
/// settings (Maildir in, Maildirs out), with `settings` changed by the
/// caller.
struct Site {
    dir: tempfile::TempDir,
    config: PathBuf,
    inbox: Maildir,
    /// Names the mails delivered so far, in order.
    delivered: usize,
}

/// A game of a test: its players and the moves it will be sent.
struct Game {
    id: String,
    rules: Rules,
    players: [String; 2],
    keys: [String; 2],
    moves: Vec<String>,
}

impl Game {
    /// The side that plays ply `i` (from 0); every game here starts
    /// with side A, as the bundled example games do.
    fn mover(&self, i: usize) -> Side {
        if i.is_multiple_of(2) {
            Side::A
        } else {
            Side::B
        }
    }
}

impl Site {
    fn new(settings: &str) -> Site {
        let dir = tempfile::tempdir().unwrap();
        Site::in_dir(dir, settings)
    }

    fn in_dir(dir: tempfile::TempDir, settings: &str) -> Site {
        let config = dir.path().join("pbem.toml");
        fs::write(&config, settings).unwrap();
        let inbox = Maildir::open(dir.path().join("mail/inbox")).unwrap();
        Site {
            dir,
            config,
            inbox,
            delivered: 0,
        }
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn store(&self) -> Store {
        Store::open(self.data()).unwrap()
    }

    fn command(&self, now: DateTime<Utc>, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pbem"));
        c.args(args)
            .arg("--config")
            .arg(&self.config)
            .env("PBEM_NOW", stamp(now))
            .env("PBEM_LOG", "info")
            .env_remove("PBEM_CONFIG")
            .env_remove("RUST_LOG");
        c
    }

    fn run(&self, now: DateTime<Utc>, args: &[&str]) -> Output {
        self.command(now, args).output().unwrap()
    }

    fn poll(&self, now: DateTime<Utc>) -> Output {
        self.run(now, &["poll"])
    }

    /// Starts `games` games (at `now`), the rules taken in turn from
    /// `rules`, the players `<id>.a@example.org` and `<id>.b@...`; the
    /// game named in `clock`, if any, with that time control.
    fn start(&self, ids: &[&str], rules: &[Rules], clock: Option<(&str, &str)>) -> Vec<Game> {
        let server = Server::new(Config::load(&self.config).unwrap()).unwrap();
        let adj = Adjudicator {
            desk: Desk::new(&server.store),
            draw: &OsRandom,
            identity: &server.identity,
            templates: &server.templates,
            now: at(0),
            challenges: Default::default(),
        };
        ids.iter()
            .zip(rules.iter().cycle())
            .map(|(id, &rules)| {
                let players = [format!("{id}.a@example.org"), format!("{id}.b@example.org")];
                let control = clock
                    .filter(|(g, _)| g == id)
                    .map(|(_, c)| c.parse().unwrap());
                let map = PerSide::new(players[0].clone(), players[1].clone());
                let ((), effects) = adj
                    .decide(|a| {
                        a.start_game(id, rules, Some(Side::A), map, control, Default::default())
                    })
                    .unwrap();
                server.store.apply_effects(&effects).unwrap();
                let secrets = server.store.secrets(id, rules).unwrap();
                let key = |s: Side| secrets.tokens[s].clone().unwrap();
                Game {
                    id: id.to_string(),
                    rules,
                    players,
                    keys: [key(Side::A), key(Side::B)],
                    moves: example_moves(rules),
                }
            })
            .collect()
    }

    /// A mail from the player of `g` who plays ply `ply` (from 0), with
    /// their key, saying `body`.
    fn mail(&self, g: &Game, ply: usize, message_id: &str, body: &str) -> Vec<u8> {
        let side = g.mover(ply);
        format!(
            "From: {}\r\nTo: pbem+{}.{}@localhost\r\nSubject: Re: [pbem {}] move\r\n\
             Message-ID: {message_id}\r\n\r\n{body}\r\n",
            g.players[side.index()],
            g.id,
            g.keys[side.index()],
            g.id
        )
        .into_bytes()
    }

    /// The move of ply `ply` of `g`, as its player writes it.
    fn move_mail(&self, g: &Game, ply: usize, message_id: &str) -> Vec<u8> {
        self.mail(
            g,
            ply,
            message_id,
            &format!("#{} {}", ply + 1, g.moves[ply]),
        )
    }

    /// Puts `raw` into the inbox, named so that mails are taken in the
    /// order they were delivered.
    fn deliver(&mut self, raw: &[u8]) -> PathBuf {
        self.delivered += 1;
        self.inbox
            .deliver(&format!("{:06}.test", self.delivered), raw)
            .unwrap()
    }

    /// The mails in the inbox's new/.
    fn waiting(&self) -> Vec<PathBuf> {
        files(&self.inbox.root().join("new"))
    }

    /// Every mail pbem sent to `address`.
    fn mails_to(&self, address: &str) -> Vec<Sent> {
        let dir = self.dir.path().join("mail/sent").join(address).join("new");
        files(&dir)
            .iter()
            .map(|f| {
                let raw = fs::read(f).unwrap();
                let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
                Sent {
                    subject: m.subject().unwrap_or("").to_string(),
                    text: m.body_text(0).unwrap_or_default().to_string(),
                    message_id: format!("<{}>", m.message_id().unwrap_or("")),
                }
            })
            .collect()
    }

    fn record_text(&self, id: &str) -> String {
        fs::read_to_string(self.data().join("games").join(format!("{id}.toml"))).unwrap()
    }

    fn played(&self, id: &str) -> Vec<String> {
        let rec = Record::parse(&format!("{id}.toml"), &self.record_text(id)).unwrap();
        pbem::cli::validate_record(&rec).unwrap_or_else(|e| panic!("{id}: {e}"));
        rec.moves()
    }

    /// The keys committed, a key once per commit.
    fn committed(&self) -> Vec<String> {
        common::committed_keys(&self.data())
    }
}

/// Replaces the line of `text` for which `pick` returns a new line; the
/// new text and the (1-based) number of the line changed.
fn edit_line(text: &str, pick: impl Fn(&str) -> Option<String>) -> (String, usize) {
    let mut changed = None;
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| match pick(l).filter(|_| changed.is_none()) {
            Some(new) => {
                changed = Some(i + 1);
                new
            }
            None => l.to_string(),
        })
        .collect();
    (lines.join("\n") + "\n", changed.expect("a line to edit"))
}

/// The mails `who` got about game `id`'s damage: (notices, refusals of
/// their own mails).
fn notices(site: &Site, who: &str, id: &str) -> (usize, usize) {
    let mails = site.mails_to(who);
    let about: Vec<&Sent> = mails
        .iter()
        // The game's thread; what happened is the first line.
        .filter(|m| {
            m.subject.starts_with(&format!("[pbem {id}]"))
                && (m.text.starts_with("Your mail was not carried out")
                    || m.text.starts_with(&format!("Game {id} is paused")))
        })
        .collect();
    let refusals = about
        .iter()
        .filter(|m| m.text.starts_with("Your mail was not carried out"))
        .count();
    (about.len() - refusals, refusals)
}

/// A damaged record's text, and the line of the damage.
type Broken = HashMap<&'static str, (String, usize)>;

/// The admin edits four records by hand, and breaks them: a move that is
/// not legal, TOML that does not parse, a result replay does not give,
/// rules pbem does not know.
fn break_records(site: &Site, games: &[Game]) -> Broken {
    let path = |id: &str| site.data().join("games").join(format!("{id}.toml"));
    let good_bad_move = site.record_text("bad-move");
    let mut broken: Broken = HashMap::new();
    // A move in the middle that is not legal: the first move again.
    let first_move = games[1].moves[0].clone();
    let second_move = games[1].moves[1].clone();
    broken.insert(
        "bad-move",
        edit_line(&good_bad_move, |l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() > 2 && t[0] == "2." && t[2] == second_move)
                .then(|| l.replacen(&second_move, &first_move, 1))
        }),
    );
    // TOML that does not parse: a string left open.
    broken.insert(
        "bad-toml",
        edit_line(&site.record_text("bad-toml"), |l| {
            l.starts_with("id = ")
                .then(|| "id = \"bad-toml".to_string())
        }),
    );
    // A result that replay does not give.
    let winner = games[3].rules.side_name(Side::A);
    broken.insert(
        "bad-result",
        edit_line(&site.record_text("bad-result"), |l| {
            l.starts_with("result = ")
                .then(|| format!("result = \"{winner}\""))
        }),
    );
    // Rules pbem does not know.
    broken.insert(
        "bad-rules",
        edit_line(&site.record_text("bad-rules"), |l| {
            l.starts_with("rules = ")
                .then(|| "rules = \"chess\"".into())
        }),
    );
    for (id, (text, _)) in &broken {
        fs::write(path(id), text).unwrap();
    }
    broken
}

/// The admin got one mail per damaged game, with the line and the cure;
/// each player was told once, and the sender of the refused move also got
/// the answer to that mail.
fn check_told_once(site: &Site, bad: &[&Game], broken: &Broken) {
    let path = |id: &str| site.data().join("games").join(format!("{id}.toml"));
    let admin_mail = site.mails_to("admin@example.org");
    assert_eq!(admin_mail.len(), bad.len(), "{admin_mail:#?}");
    for g in bad {
        let (_, line) = broken[&*g.id];
        let m: Vec<&Sent> = admin_mail
            .iter()
            .filter(|m| m.subject == format!("[pbem {}] the game record is damaged", g.id))
            .collect();
        assert_eq!(m.len(), 1, "{}: {admin_mail:#?}", g.id);
        let text = &m[0].text;
        assert!(text.contains(&format!("{}.toml:{line}:", g.id)), "{text}");
        assert!(
            text.contains(&format!("pbem validate {}", path(&g.id).display())),
            "{text}"
        );
        assert!(text.contains("resumes"), "{text}");
    }
    for g in bad {
        let (_, line) = broken[&*g.id];
        for (i, who) in g.players.iter().enumerate() {
            let sent_move = g.id != "bad-result" && g.mover(2).index() == i;
            assert_eq!(
                notices(site, who, &g.id),
                (1, usize::from(sent_move)),
                "{who} in {}",
                g.id
            );
            for m in site.mails_to(who) {
                if m.text.contains("mended") {
                    assert!(m.text.contains(&format!("{}.toml:{line}:", g.id)), "{m:#?}");
                    assert!(m.text.contains("The admin of pbem has been told"), "{m:#?}");
                }
            }
        }
    }
}

/// The next poll: the move re-sent to bad-move is refused again, but
/// nobody is told of the damage a second time.
fn the_next_poll_tells_nobody_again(
    site: &mut Site,
    games: &[Game],
    bad: &[&Game],
    broken: &Broken,
) {
    let raw = site.move_mail(&games[1], 2, "<bad-move.2.again@example.org>");
    site.deliver(&raw);
    let o = site.poll(at(21));
    let log = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{log}");
    for id in ["bad-move", "bad-result"] {
        assert!(
            log.contains(&format!("damaged-record game={id}")),
            "warned at every poll: {log}"
        );
    }
    assert_eq!(site.mails_to("admin@example.org").len(), bad.len());
    for g in bad {
        for (i, who) in g.players.iter().enumerate() {
            let refused = match (g.id.as_str(), g.mover(2).index() == i) {
                ("bad-result", _) | (_, false) => 0,
                ("bad-move", true) => 2,
                (_, true) => 1,
            };
            assert_eq!(notices(site, who, &g.id), (1, refused), "{who} in {}", g.id);
        }
    }
    assert_eq!(site.record_text("bad-move"), broken["bad-move"].0);
}

/// "A corrupt record (edited by hand): pbem refuses to touch
/// that game, tells the admin and the players what is wrong with the line
/// number, and goes on with every other game."
#[test]
fn a_damaged_record_stops_its_game_only_and_is_reported_once() {
    let _shared = crate::common::lock::shared();
    let settings = INIT.replace(
        "# admin = \"Your Name <you@example.org>\"",
        &format!("admin = \"{ADMIN}\""),
    );
    assert_ne!(settings, INIT, "the settings name the admin");
    let mut site = Site::new(&settings);
    let ids = ["ok-game", "bad-move", "bad-toml", "bad-result", "bad-rules"];
    // bad-result has a clock: only the clock sweep meets its damage.
    let games = site.start(
        &ids,
        &[
            Rules::BoomAndZoom,
            Rules::DragonsTeeth,
            Rules::MadRooks,
            Rules::Embed,
            Rules::ToroidalCheckers,
        ],
        Some(("bad-result", "1d")),
    );
    // Two moves in every game.
    for ply in 0..2 {
        for g in &games {
            let raw = site.move_mail(g, ply, &format!("<{}.{ply}@example.org>", g.id));
            site.deliver(&raw);
        }
    }
    let o = site.poll(at(0));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for g in &games {
        assert_eq!(site.played(&g.id), g.moves[..2], "{}", g.id);
    }

    // The admin edits four records by hand, and breaks them.
    let games_dir = site.data().join("games");
    let path = |id: &str| games_dir.join(format!("{id}.toml"));
    let good_bad_move = site.record_text("bad-move");
    let broken = break_records(&site, &games);
    let bad: Vec<&Game> = games
        .iter()
        .filter(|g| broken.contains_key(&*g.id))
        .collect();

    // Twenty hours on (bad-result's clock owes a reminder), the third
    // move of every game but bad-result comes in, in one poll.
    for g in games.iter().filter(|g| g.id != "bad-result") {
        let raw = site.move_mail(g, 2, &format!("<{}.2@example.org>", g.id));
        site.deliver(&raw);
    }
    let o = site.poll(at(20));
    let log = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "a damaged game fails no poll: {log}"
    );
    // The healthy game went on, in the same poll.
    assert_eq!(site.played("ok-game"), games[0].moves[..3]);
    assert!(site.waiting().is_empty(), "every mail was answered: {log}");
    for g in &bad {
        let (text, line) = &broken[&*g.id];
        assert_eq!(&site.record_text(&g.id), text, "{}: untouched", g.id);
        assert!(
            log.lines().any(|l| l.contains("WARN")
                && l.contains(&format!("damaged-record game={}", g.id))
                && l.contains(&format!("{}.toml:{line}:", g.id))),
            "{}: a warning naming the line: {log}",
            g.id
        );
    }
    check_told_once(&site, &bad, &broken);

    let mover = games[1].mover(2);
    the_next_poll_tells_nobody_again(&mut site, &games, &bad, &broken);

    // The admin mends bad-move; the move sent again is played.
    fs::write(path("bad-move"), &good_bad_move).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("validate")
        .arg(path("bad-move"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let raw = site.move_mail(&games[1], 2, "<bad-move.2.mended@example.org>");
    site.deliver(&raw);
    let o = site.poll(at(22));
    let log = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{log}");
    assert!(!log.contains("damaged-record game=bad-move"), "{log}");
    assert_eq!(site.played("bad-move"), games[1].moves[..3]);
    let news = site
        .mails_to(&games[1].players[mover.other().index()])
        .into_iter()
        .filter(|m| common::hash_of_reply(&m.message_id) == common::key_hash(&raw))
        .count();
    assert_eq!(news, 1, "the opponent hears of the move");
    assert_eq!(site.mails_to("admin@example.org").len(), bad.len());
}

/// Damages the two games: latin gets a byte that is no UTF-8 at line 3,
/// cut ends inside its second player's address.
fn damage_latin_and_cut(site: &Site, games: &[Game]) {
    let games_dir = site.data().join("games");
    let mut text = site.record_text("latin").into_bytes();
    let third = text
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    text.splice(third + 1..third + 1, b"# caf\xe9\n".iter().copied());
    fs::write(games_dir.join("latin.toml"), &text).unwrap();
    let cut = site.record_text("cut");
    let b = &games[1].players[1];
    let end = cut.find(b.as_str()).unwrap() + b.len() - 2;
    fs::write(games_dir.join("cut.toml"), &cut[..end]).unwrap();
    assert!(
        Record::parse("cut.toml", &cut[..end]).is_err(),
        "the cut record does not read"
    );
}

/// A record that is not UTF-8 is a damaged
/// record (the mail is answered, not left in the inbox for ever); a record
/// cut off inside a player's address never has pbem mail the shortened
/// address; and a stranger whose address is a piece of a player's is
/// answered as a stranger, not told of the damage.
#[test]
fn damage_is_told_to_the_registered_players_only() {
    let _shared = crate::common::lock::shared();
    let settings = INIT.replace(
        "# admin = \"Your Name <you@example.org>\"",
        &format!("admin = \"{ADMIN}\""),
    );
    let mut site = Site::new(&settings);
    let games = site.start(
        &["latin", "cut"],
        &[Rules::BoomAndZoom, Rules::MadRooks],
        None,
    );
    damage_latin_and_cut(&site, &games);

    for (i, g) in games.iter().enumerate() {
        let raw = site.move_mail(g, 0, &format!("<{}.0@example.org>", g.id));
        site.deliver(&raw);
        // A stranger whose address is the tail of a player's.
        let tail = &g.players[0][1..];
        let raw = format!(
            "From: {tail}\r\nTo: pbem@localhost\r\nSubject: Re: [pbem {}] move\r\n\
             Message-ID: <stranger.{i}@example.org>\r\n\r\n#1 {}\r\n",
            g.id, g.moves[0]
        );
        site.deliver(raw.as_bytes());
    }
    let o = site.poll(at(1));
    let log = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "a damaged game fails no poll: {log}"
    );
    assert!(site.waiting().is_empty(), "every mail was answered: {log}");
    assert!(
        log.contains("damaged-record game=latin") && log.contains("not UTF-8"),
        "{log}"
    );
    // The admin: one notice per game, the byte's line named for latin.
    let admin = site.mails_to("admin@example.org");
    assert_eq!(admin.len(), 2, "{admin:#?}");
    assert!(
        admin
            .iter()
            .any(|m| m.text.contains("line 3") && m.text.contains("not UTF-8")),
        "{admin:#?}"
    );
    // Every player, registered when the game was made, is told once (the
    // mover also gets the refusal); nobody else gets a word of the damage.
    for g in &games {
        for (i, who) in g.players.iter().enumerate() {
            assert_eq!(
                notices(&site, who, &g.id),
                (1, usize::from(i == 0)),
                "{who} in {}",
                g.id
            );
        }
        let stranger = site.mails_to(&g.players[0][1..]);
        assert!(
            stranger
                .iter()
                .all(|m| !m.text.contains("damaged") && !m.text.contains(".toml")),
            "a stranger hears nothing of the game: {stranger:#?}"
        );
    }
    let known: HashSet<String> = games
        .iter()
        .flat_map(|g| {
            g.players
                .iter()
                .flat_map(|p| [p.clone(), p[1..].to_string()])
        })
        .chain(["admin@example.org".to_string()])
        .collect();
    for dir in fs::read_dir(site.dir.path().join("mail/sent")).unwrap() {
        let name = dir.unwrap().file_name().to_string_lossy().into_owned();
        assert!(known.contains(&name), "pbem mailed {name}");
    }

    // The next poll: a move again, and nobody is told a second time.
    let raw = site.move_mail(&games[0], 0, "<latin.0.again@example.org>");
    site.deliver(&raw);
    let o = site.poll(at(2));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(site.waiting().is_empty());
    assert_eq!(site.mails_to("admin@example.org").len(), 2);
    assert_eq!(notices(&site, &games[0].players[0], "latin"), (1, 2));
}

/// Left behind by a write that did not finish.
fn leftovers(data: &Path) -> Vec<PathBuf> {
    let mut out = common::temp_files(data);
    out.extend(files(&data.join("outbox/staging")));
    out
}

/// A record path pbem cannot read as a file (a folder stands there, as a
/// slip of an admin's `mkdir` or `cp -r` leaves it) makes a damaged game
/// like any other: the player's mail is answered, the admin and the
/// players are told once, and the mail leaves the inbox; the other game
/// goes on in the same poll.
#[test]
fn a_record_that_is_a_folder_is_a_damaged_game_and_its_mail_is_answered() {
    let _shared = crate::common::lock::shared();
    let settings = INIT.replace(
        "# admin = \"Your Name <you@example.org>\"",
        &format!("admin = \"{ADMIN}\""),
    );
    let mut site = Site::new(&settings);
    let games = site.start(
        &["ok-game", "a-folder"],
        &[Rules::BoomAndZoom, Rules::Embed],
        None,
    );
    let record = site.data().join("games/a-folder.toml");
    fs::remove_file(&record).unwrap();
    fs::create_dir(&record).unwrap();
    for g in &games {
        let raw = site.move_mail(g, 0, &format!("<{}.0@example.org>", g.id));
        site.deliver(&raw);
    }
    let o = site.poll(at(0));
    let log = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{log}");
    assert!(site.waiting().is_empty(), "every mail was answered: {log}");
    assert_eq!(site.played("ok-game"), games[0].moves[..1]);
    let mover = &games[1].players[0];
    assert_eq!(notices(&site, mover, "a-folder").1, 1, "the refusal: {log}");
    assert!(
        site.mails_to("admin@example.org")
            .iter()
            .any(|m| m.subject.contains("a-folder")),
        "the admin is told: {log}"
    );
    // Told once: the next mail for it is answered, nobody told again.
    let raw = site.move_mail(&games[1], 0, "<a-folder.again@example.org>");
    site.deliver(&raw);
    let o = site.poll(at(1));
    assert!(site.waiting().is_empty(), "{}", stderr(&o));
    assert_eq!(
        site.mails_to("admin@example.org")
            .iter()
            .filter(|m| m.subject.contains("a-folder"))
            .count(),
        1
    );
    assert!(
        record.is_dir(),
        "pbem writes nothing over what it cannot read"
    );
}
