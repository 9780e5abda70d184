//! `pbem daemon` in the pipeline bench (benches/pipeline/main.rs): the
//! running daemon, the replies seen landing with inotify, and the
//! latency section (a mail renamed into the inbox to its first reply
//! renamed into the player's Maildir).

use super::*;

/// A running `pbem daemon`, stopped with SIGTERM when dropped.
pub(super) struct Daemon {
    pub(super) child: Child,
}

impl Daemon {
    pub(super) fn start(config: &Path, log: &Path) -> Daemon {
        let child = Command::new(PBEM)
            .args(["daemon", "--config"])
            .arg(config)
            .env("PBEM_LOG", "info")
            .stdout(Stdio::null())
            .stderr(fs::File::create(log).unwrap())
            .spawn()
            .unwrap();
        Daemon { child }
    }

    /// Peak resident set size so far (VmHWM), in MB.
    pub(super) fn peak_rss_mb(&self) -> f64 {
        self.status_mb("VmHWM")
    }

    /// The resident pages now mapped from files (RssFile), in MB: the
    /// program's own code and data among them, which the kernel maps a
    /// whole page-cache folio at a time.
    pub(super) fn file_rss_mb(&self) -> f64 {
        self.status_mb("RssFile")
    }

    /// A figure of /proc/PID/status in kB, in MB.
    fn status_mb(&self, field: &str) -> f64 {
        let status = fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map(|kb| kb / 1024.0)
            .unwrap_or(f64::NAN)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        // Our own child, not yet waited for.
        let pid = rustix::process::Pid::from_child(&self.child);
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
        let _ = self.child.wait();
    }
}

/// Replies as the Maildir transport delivers them: inotify on the `new/`
/// of each recipient's Maildir, each reply known by its In-Reply-To.
pub(super) struct Replies {
    pub(super) inotify: inotify::Inotify,
    pub(super) dirs: HashMap<inotify::WatchDescriptor, PathBuf>,
    pub(super) buffer: Vec<u8>,
}

impl Replies {
    pub(super) fn watch(sent: &Path, addresses: impl IntoIterator<Item = String>) -> Replies {
        let inotify = inotify::Inotify::init().unwrap();
        let mut dirs = HashMap::new();
        for a in addresses {
            let md = Maildir::open(sent.join(pbem::transport::folder_name(&a))).unwrap();
            let new = md.root().join("new");
            let wd = inotify
                .watches()
                .add(&new, inotify::WatchMask::MOVED_TO)
                .unwrap();
            dirs.insert(wd, new);
        }
        Replies {
            inotify,
            dirs,
            buffer: vec![0; 64 * 1024],
        }
    }

    /// The In-Reply-To of every reply delivered since the last call, with
    /// the time it was seen.
    pub(super) fn arrived(&mut self) -> Vec<(String, Instant)> {
        let mut out = Vec::new();
        let Ok(events) = self.inotify.read_events(&mut self.buffer) else {
            return out;
        };
        let now = Instant::now();
        let paths: Vec<PathBuf> = events
            .filter_map(|e| Some(self.dirs.get(&e.wd)?.join(e.name?)))
            .collect();
        for p in paths {
            let Ok(raw) = fs::read_to_string(&p) else {
                continue;
            };
            let irt = raw
                .lines()
                .take_while(|l| !l.is_empty())
                .find_map(|l| l.strip_prefix("In-Reply-To: "))
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            out.push((irt, now));
        }
        out
    }

    /// Waits for the replies to `ids`, at most `limit`; the time of the
    /// first reply to each.
    pub(super) fn wait_for(&mut self, ids: &[String], limit: Duration) -> HashMap<String, Instant> {
        let mut got = HashMap::new();
        let t = Instant::now();
        while got.len() < ids.len() && t.elapsed() < limit {
            for (irt, at) in self.arrived() {
                if ids.contains(&irt) {
                    got.entry(irt).or_insert(at);
                }
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        got
    }
}

/// Delivers a mail the way an MTA does: written and synced in `tmp/`,
/// then renamed into `new/`; returns the time of the rename.
pub(super) fn land(inbox: &Path, name: &str, raw: &str) -> Instant {
    let tmp = inbox.join("tmp").join(name);
    let mut f = fs::File::create(&tmp).unwrap();
    f.write_all(raw.as_bytes()).unwrap();
    f.sync_all().unwrap();
    let at = Instant::now();
    fs::rename(&tmp, inbox.join("new").join(name)).unwrap();
    at
}

/// Starts the daemon and waits for its first sweep: a `help` mail from
/// a stranger answered. Returns the daemon and the time to that answer.
pub(super) fn start_daemon(
    config_path: &Path,
    config: &Config,
    replies: &mut Replies,
) -> (Daemon, f64) {
    let inbox = config.inbox.maildir.clone().unwrap();
    // Made as a mail server would have it: the first mail lands before
    // the daemon has opened it.
    Maildir::open(&inbox).unwrap();
    let log = config_path.with_file_name("daemon.log");
    let t = Instant::now();
    let daemon = Daemon::start(config_path, &log);
    help_answered(&inbox, replies, "warmup", &log);
    (daemon, t.elapsed().as_secs_f64())
}

/// Lands a `help` mail from `warmup@example.org` (a Message-ID no data
/// folder has seen, a kept one included) and waits for its answer; the
/// seconds from the landing to the answer.
pub(super) fn help_answered(inbox: &Path, replies: &mut Replies, name: &str, log: &Path) -> f64 {
    let stamp = pbem::clock::now().timestamp_nanos_opt().unwrap_or_default();
    let mid = format!("<{name}.{stamp}@example.org>");
    let raw = format!(
        "From: warmup@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: {mid}\r\n\r\nhelp\r\n"
    );
    let at = land(inbox, &format!("{name}.{stamp}"), &raw);
    let got = replies.wait_for(std::slice::from_ref(&mid), Duration::from_secs(600));
    let Some(answered) = got.get(&mid) else {
        panic!("the daemon did not answer (see {})", log.display());
    };
    answered.duration_since(at).as_secs_f64()
}

pub(super) struct Latency {
    pub(super) ms: Vec<f64>,
    pub(super) lost: usize,
    pub(super) rss_mb: f64,
}

/// Feeds the daemon `n` move mails at `rate` per second, round-robin over
/// the games, and times each one's first reply.
pub(super) fn latency(
    config_path: &Path,
    config: &Config,
    games: &mut [Played],
    n: usize,
    rate: f64,
) -> Latency {
    let inbox = config.inbox.maildir.clone().unwrap();
    let sent = match &config.send {
        pbem::transport::SendConfig::Maildir { folder } => folder.clone(),
        other => panic!("the bench needs the Maildir transport, not {other:?}"),
    };
    let mut addresses: Vec<String> = games.iter().flat_map(|p| p.who.clone()).collect();
    addresses.push("warmup@example.org".into());
    let mut replies = Replies::watch(&sent, addresses);
    let (daemon, _) = start_daemon(config_path, config, &mut replies);
    // The mails, made before the clock starts.
    let mut mails = Vec::with_capacity(n);
    let mut g = 0;
    while mails.len() < n {
        let k = games.len();
        if let Some(m) = games[g % k].next_mail() {
            mails.push((format!("lat{:06}.{}", mails.len(), g % k), m));
        }
        g += 1;
        assert!(g < n * 2 + k * 1000, "the games' lines are too short");
    }
    let ids: Vec<String> = mails.iter().map(|(_, (mid, _))| mid.clone()).collect();
    let gap = Duration::from_secs_f64(1.0 / rate);
    let sender = {
        let inbox = inbox.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            let mut landed = HashMap::new();
            for (i, (name, (mid, raw))) in mails.into_iter().enumerate() {
                let due = start + gap * i as u32;
                if let Some(wait) = due.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
                landed.insert(mid, land(&inbox, &name, &raw));
            }
            landed
        })
    };
    // Only the replies to these mails count. A game's first move also
    // tells the opponent, in a mail that answers none of theirs (no
    // In-Reply-To): counted, it ended the wait one reply short.
    let wanted: std::collections::HashSet<&String> = ids.iter().collect();
    let mut got = HashMap::new();
    let deadline = Duration::from_secs_f64(n as f64 / rate + 60.0);
    let t = Instant::now();
    while got.len() < ids.len() && t.elapsed() < deadline {
        for (irt, at) in replies.arrived() {
            if wanted.contains(&irt) {
                got.entry(irt).or_insert(at);
            }
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let landed = sender.join().unwrap();
    let ms: Vec<f64> = ids
        .iter()
        .filter_map(|id| Some(got.get(id)?.duration_since(landed[id]).as_secs_f64() * 1000.0))
        .collect();
    Latency {
        lost: ids.len() - ms.len(),
        ms: sorted(ms),
        rss_mb: daemon.peak_rss_mb(),
    }
}

// ---------------------------------------------------------------------------
