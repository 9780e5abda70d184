//! The replay section of the pipeline bench (benches/pipeline/main.rs):
//! records of 10, 100 and 1,000 moves, parsed and replayed, and one move
//! mail in each.

use super::*;

pub(super) struct ReplayRow {
    pub(super) plies: usize,
    pub(super) replay_us: f64,
    pub(super) move_ms: Vec<f64>,
}

/// A game kind whose random lines reach 1,000 moves (most games end
/// sooner), with the line.
pub(super) fn long_line(plies: usize) -> Option<(Rules, Vec<String>)> {
    Rules::ALL.iter().find_map(|&r| {
        (0..40)
            .find_map(|s| pbem::with_game!(r, G => line_of::<G>(s, plies)))
            .map(|l| (r, l))
    })
}

pub(super) fn replay_rows(dir: &Path, samples: usize) -> (Rules, Vec<ReplayRow>) {
    let lengths = [10, 100, 1000];
    let (rules, long) = long_line(1000 + samples).expect("a game that lasts 1,000 moves");
    let (_, config) = data_folder(dir);
    let store = Store::open(&config.data).unwrap();
    let now = pbem::clock::now();
    let t0 = now - chrono::Duration::days(30);
    let mut games = Vec::new();
    let mut texts = Vec::new();
    for (k, &plies) in lengths.iter().enumerate() {
        let id = format!("rp-{plies}");
        let (players, who) = players_of(k);
        let first = first_of(rules);
        let lines = long[..plies]
            .iter()
            .enumerate()
            .map(|(i, m)| MoveLine {
                line: 0,
                number: Some(i as u32 + 1),
                side: Some(if i % 2 == 0 { first } else { first.other() }),
                entry: Entry::Move(m.clone()),
                time: Some((t0 + chrono::Duration::minutes(i as i64)).fixed_offset()),
                message_id: Some(format!("<{id}.move{}@example.org>", i + 1)),
            })
            .collect();
        let rec = Record {
            file: format!("{id}.toml"),
            format: Some(1),
            rules,
            id: Some(id.clone()),
            created: Some(t0.fixed_offset()),
            first: Some(first),
            result: Some((pbem::record::Verdict::Unfinished, 0)),
            players: players.map(|_, p| Some(p)),
            match_info: Default::default(),
            lines,
        };
        let text = record::write::to_string(&rec);
        store.write_game(&id, &text).unwrap();
        let tokens = [format!("ka{k}"), format!("kb{k}")];
        let secrets = Secrets {
            tokens: PerSide(tokens.clone().map(Some)),
            ..Secrets::default()
        };
        store.write_secrets(&id, rules, &secrets).unwrap();
        games.push(Played {
            id,
            rules,
            who,
            tokens,
            line: long.clone(),
            next: plies,
        });
        texts.push(text);
    }
    let rows = lengths
        .iter()
        .enumerate()
        .map(|(k, &plies)| {
            let t = Instant::now();
            let mut runs = 0u32;
            while t.elapsed() < Duration::from_millis(300) {
                let rec = Record::parse("x.toml", &texts[k]).unwrap();
                let n =
                    pbem::with_game!(rules, G => record::replay::<G>(&rec).unwrap().moves.len());
                assert_eq!(n, plies);
                runs += 1;
            }
            let replay_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(runs);
            let move_ms = sorted(one_move_polls(&config, &mut games, &vec![k; samples]));
            ReplayRow {
                plies,
                replay_us,
                move_ms,
            }
        })
        .collect();
    (rules, rows)
}
