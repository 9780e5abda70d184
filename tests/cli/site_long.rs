//! prototype
use pbem::game::{self, Game, PerSide, Side};
use pbem::record::{Entry, MoveLine, Record};
use pbem::rules::Rules;
use pbem_engine::notation::Notation;

fn long_moves<G: Game>(plies: usize, seed: u64) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = G::start(G::INFO.fixed_first.unwrap_or(Side::A));
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < plies {
        moves.clear();
        pos.legal_moves(&mut moves);
        rng.shuffle(&mut moves);
        let quiet = |m: &G::Move| !matches!(pos.notation(*m), Notation::Path(ref p) if p.capture);
        let alive = |m: &G::Move| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            game::outcome(&next).is_none()
        };
        let pick = moves.iter().find(|m| quiet(m) && alive(m)).or_else(|| moves.iter().find(|m| alive(m)));
        let Some(&m) = pick else { break };
        out.push(game::canonical(&pos, m));
        pos.play_unchecked(m);
    }
    out
}

#[test]
#[ignore]
fn proto_lengths() {
    for r in Rules::ALL {
        let n = pbem_engine::with_game!(r, G => long_moves::<G>(50_000, 7).len());
        eprintln!("{}: {n}", r.slug());
    }
}

#[test]
#[ignore]
fn proto_write() {
    let data = std::env::var("PBEM_LONG_GAME_DATA").unwrap();
    let store = pbem::store::Store::open(&data).unwrap();
    let rules = Rules::Embed;
    let moves = pbem_engine::with_game!(rules, G => long_moves::<G>(50_000, 7));
    let first = rules.fixed_first().unwrap_or(Side::A);
    let t0 = chrono::DateTime::parse_from_rfc3339("2026-03-01T00:00:00+00:00").unwrap();
    let rec = Record {
        file: "long.toml".into(), format: Some(1), rules, id: Some("em-longlonglong".into()),
        created: Some(t0), first: Some(first), result: Some(("*".into(), 0)),
        players: PerSide::new(Some("Ann <ann@example.org>".into()), Some("Bob <bob@example.org>".into())),
        match_info: Default::default(),
        lines: moves.into_iter().enumerate().map(|(i, m)| MoveLine { line: 0, number: Some(i as u32 + 1), side: None, entry: Entry::Move(m), time: Some(t0 + chrono::Duration::minutes(i as i64)), message_id: None }).collect(),
    };
    store.write_game("em-longlonglong", &pbem::record::write::to_string(&rec)).unwrap();
}
