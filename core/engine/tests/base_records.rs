//! The records of base-deck games of every player for fixed seeds, hashed (ignored; run by hand, release
//! build): `cargo test --release -p tk_engine --test base_records -- --ignored --nocapture`. Issue 17's
//! players must leave them byte-identical: compare the output before and after a change of the players.

mod common;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy_with;
use tk_engine::players::params::ParamValue;
use tk_engine::state::Mode;

fn hash(json: &str) -> u64 {
    let mut h = DefaultHasher::new();
    json.hash(&mut h);
    h.finish()
}

#[test]
#[ignore]
fn base_record_hashes() {
    let decks = ["imperial", "sylvan", "highland"];
    for name in [
        "random", "greedy", "builder", "hunter", "brawler", "planner", "mc", "expert",
    ] {
        let params: Vec<(&str, ParamValue)> = match name {
            "mc" => vec![("rollouts", ParamValue::Int(3))],
            "expert" => vec![("iterations", ParamValue::Int(30))],
            _ => Vec::new(),
        };
        let games: u64 = if name == "mc" || name == "expert" {
            1
        } else {
            3
        };
        let mut all = DefaultHasher::new();
        for seed in 0..games {
            let opts = GameOptions::default();
            let make = |seat: usize| make_strategy_with(name, seat, seed, &params).unwrap();
            for mode in [Mode::HighForm, Mode::Deathmatch] {
                let pair = [decks[seed as usize % 3], decks[(seed as usize + 1) % 3]];
                let mut g =
                    Game::new(common::cards(), mode, pair, [make(0), make(1)], seed, opts).unwrap();
                g.play();
                hash(&g.state.record.to_json()).hash(&mut all);
                let table: Vec<&str> = (0..4).map(|i| decks[(seed as usize + i) % 3]).collect();
                let mut g = Game::teams(
                    common::cards(),
                    mode,
                    &table,
                    (0..4).map(make).collect(),
                    seed,
                    opts,
                )
                .unwrap();
                g.play();
                hash(&g.state.record.to_json()).hash(&mut all);
            }
            let table = &decks[..3];
            let mut g = Game::table(
                common::cards(),
                Mode::Deathmatch,
                table,
                (0..3).map(make).collect(),
                seed,
                opts,
            )
            .unwrap();
            g.play();
            hash(&g.state.record.to_json()).hash(&mut all);
        }
        println!("{name}: {:016x}", all.finish());
    }
}
