//! The scripted players (builder, greedy, hunter, brawler) against the Python engine: each game's record
//! JSON must be the Python record's, checked by an FNV-1a digest of the line `scripts/py_records.py` prints
//! (digests printed by the Python engine with every custom effect; regenerate them when cards or rules
//! change). The full differential test is `scripts/differential.py --strategies builder,builder`.

use std::sync::Arc;

use tk_engine::cards::CardSet;
use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy;
use tk_engine::state::Mode;

/// (mode, decks, strategies, seed, digest of the Python record)
type Case = (&'static str, [&'static str; 2], [&'static str; 2], u64, u64);

const CASES: &[Case] = &[
    (
        "high-form",
        ["imperial", "sylvan"],
        ["builder", "builder"],
        0,
        0xb7d8d60d3e36b6c5,
    ),
    (
        "high-form",
        ["imperial", "sylvan"],
        ["builder", "builder"],
        1,
        0x2fc81760901c8e84,
    ),
    (
        "high-form",
        ["imperial", "sylvan"],
        ["builder", "random"],
        0,
        0xc37460ab0b645abd,
    ),
    (
        "high-form",
        ["imperial", "sylvan"],
        ["builder", "random"],
        1,
        0x6d497ac69062fe4b,
    ),
    (
        "high-form",
        ["imperial", "sylvan"],
        ["greedy", "hunter"],
        0,
        0xa4307869e66f0fd1,
    ),
    (
        "high-form",
        ["imperial", "sylvan"],
        ["greedy", "hunter"],
        1,
        0x171dc59d910422fc,
    ),
    (
        "high-form",
        ["imperial", "sylvan"],
        ["brawler", "builder"],
        0,
        0xc7b12505076d1749,
    ),
    (
        "high-form",
        ["imperial", "sylvan"],
        ["brawler", "builder"],
        1,
        0xa692f3eac76043ae,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["builder", "builder"],
        0,
        0xb00ff3edcb2871fe,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["builder", "builder"],
        1,
        0xd35abd1f253fda5f,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["builder", "random"],
        0,
        0x4b7e0737bb6b6bc0,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["builder", "random"],
        1,
        0x75067b17f0f3d48d,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["greedy", "hunter"],
        0,
        0x1d4bc1e9e0de5dc5,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["greedy", "hunter"],
        1,
        0x41601a6440e8551b,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["brawler", "builder"],
        0,
        0xc63accaecfdc8d88,
    ),
    (
        "high-form",
        ["highland", "imperial"],
        ["brawler", "builder"],
        1,
        0x7aa174624931e713,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["builder", "builder"],
        0,
        0x38fdd3bf55e6d61b,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["builder", "builder"],
        1,
        0x45473b2f3d2f322c,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["builder", "random"],
        0,
        0xb1c998cc5be3f1c5,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["builder", "random"],
        1,
        0xb179db2201e9f5a0,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["greedy", "hunter"],
        0,
        0x509a306fc98f88a7,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["greedy", "hunter"],
        1,
        0xaeb86bbc7941ecef,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["brawler", "builder"],
        0,
        0xcbce408dab5d5909,
    ),
    (
        "high-form",
        ["sylvan", "highland"],
        ["brawler", "builder"],
        1,
        0xa235e11b4808040c,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["builder", "builder"],
        0,
        0xbdc1b7052047ecaf,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["builder", "builder"],
        1,
        0xa2b2f72d83468cf4,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["builder", "random"],
        0,
        0x5ebe225b9ff2f021,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["builder", "random"],
        1,
        0x6168dbb4b188bcf5,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["greedy", "hunter"],
        0,
        0xc51fdd5a0b9fa1a2,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["greedy", "hunter"],
        1,
        0xc2dc608366f17bde,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["brawler", "builder"],
        0,
        0x32887d0b0fc89fab,
    ),
    (
        "deathmatch",
        ["imperial", "sylvan"],
        ["brawler", "builder"],
        1,
        0xecc25d77d4f16751,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["builder", "builder"],
        0,
        0x5a15234859a2fbfb,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["builder", "builder"],
        1,
        0xbd908b3014dbe02a,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["builder", "random"],
        0,
        0xb3553009a4db8b81,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["builder", "random"],
        1,
        0x36c9b59665fc3970,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["greedy", "hunter"],
        0,
        0x9e6424c77ffeee30,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["greedy", "hunter"],
        1,
        0x4d0104e50d485ea0,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["brawler", "builder"],
        0,
        0xba0720350a6d546f,
    ),
    (
        "deathmatch",
        ["highland", "imperial"],
        ["brawler", "builder"],
        1,
        0x6c0f0de45eddba0e,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["builder", "builder"],
        0,
        0xf00dac2d10f8facc,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["builder", "builder"],
        1,
        0x20d7e72ab810063b,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["builder", "random"],
        0,
        0x4ad38c9e556cdc07,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["builder", "random"],
        1,
        0x82bb6fe64fb510b2,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["greedy", "hunter"],
        0,
        0x7e370c9a51fcc0b8,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["greedy", "hunter"],
        1,
        0xe35ae63383b4480f,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["brawler", "builder"],
        0,
        0x21d7b3e03fd00af0,
    ),
    (
        "deathmatch",
        ["sylvan", "highland"],
        ["brawler", "builder"],
        1,
        0x27224224cff42347,
    ),
];

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[test]
fn scripted_games_match_python_records() {
    let cards = Arc::new(CardSet::from_json(include_str!("data/cards.json")).expect("card set"));
    let mut wrong = Vec::new();
    for &(mode, decks, names, seed, digest) in CASES {
        let players = [
            make_strategy(names[0], 0, seed).expect("strategy"),
            make_strategy(names[1], 1, seed).expect("strategy"),
        ];
        let mode = Mode::parse(mode).expect("mode");
        let mut game = Game::new(
            Arc::clone(&cards),
            mode,
            decks,
            players,
            seed,
            GameOptions::default(),
        )
        .expect("game");
        game.play();
        let mut line = String::new();
        game.state.record.write_json(&mut line);
        if fnv1a(line.as_bytes()) != digest {
            wrong.push(format!("{} {decks:?} {names:?} seed {seed}", mode.as_str()));
        }
    }
    assert!(wrong.is_empty(), "records differ from Python's: {wrong:#?}");
}
