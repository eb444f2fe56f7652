//! Every player plays games with each expansion deck (Everfrost, Nethervoid, Etherweave) in both forms:
//! duels against a base deck, Deathmatch melees of three, and team games, strict (every invariant checked),
//! without panicking. The search players play short games with small budgets.

mod common;

use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy_with;
use tk_engine::players::params::ParamValue;
use tk_engine::state::Mode;

const PLAYERS: [&str; 8] = [
    "random", "greedy", "builder", "hunter", "brawler", "planner", "mc", "expert",
];
const EXPANSIONS: [&str; 3] = ["everfrost", "nethervoid", "etherweave"];

/// The player's small-budget parameters and the games' turn limit.
fn setup(name: &str) -> (Vec<(&'static str, ParamValue)>, u32) {
    match name {
        "mc" => (vec![("rollouts", ParamValue::Int(2))], 14),
        "expert" => (vec![("iterations", ParamValue::Int(20))], 14),
        "planner" => (Vec::new(), 60),
        _ => (Vec::new(), 200),
    }
}

fn options(max_turns: u32) -> GameOptions {
    GameOptions {
        strict: true,
        max_turns,
        ..GameOptions::default()
    }
}

#[test]
fn every_player_plays_duels_with_each_expansion_deck_in_both_forms() {
    for (i, name) in PLAYERS.into_iter().enumerate() {
        let (params, turns) = setup(name);
        for (j, deck) in EXPANSIONS.into_iter().enumerate() {
            for (k, mode) in [Mode::HighForm, Mode::Deathmatch].into_iter().enumerate() {
                let seed = (100 * i + 10 * j + k) as u64;
                // the expansion deck in both seats, against a base deck and in a mirror
                let decks = match k {
                    0 => [deck, "imperial"],
                    _ => ["highland", deck],
                };
                let players = [0, 1].map(|s| make_strategy_with(name, s, seed, &params).unwrap());
                Game::new(common::cards(), mode, decks, players, seed, options(turns))
                    .unwrap()
                    .play();
                if name != "mc" && name != "expert" {
                    let players =
                        [0, 1].map(|s| make_strategy_with(name, s, seed, &params).unwrap());
                    Game::new(
                        common::cards(),
                        mode,
                        [deck, deck],
                        players,
                        seed,
                        options(turns),
                    )
                    .unwrap()
                    .play();
                }
            }
        }
    }
}

#[test]
fn every_player_plays_melees_with_each_expansion_deck() {
    for (i, name) in PLAYERS.into_iter().enumerate() {
        let (params, turns) = setup(name);
        for (j, deck) in EXPANSIONS.into_iter().enumerate() {
            let seed = (100 * i + j) as u64;
            let table = [deck, "sylvan", "imperial"];
            let players = (0..3)
                .map(|s| make_strategy_with(name, s, seed, &params).unwrap())
                .collect();
            Game::table(
                common::cards(),
                Mode::Deathmatch,
                &table,
                players,
                seed,
                options(turns),
            )
            .unwrap()
            .play();
        }
        // all three expansions at one table
        let seed = 100 * i as u64 + 50;
        let players = (0..3)
            .map(|s| make_strategy_with(name, s, seed, &params).unwrap())
            .collect();
        Game::table(
            common::cards(),
            Mode::Deathmatch,
            &EXPANSIONS,
            players,
            seed,
            options(turns),
        )
        .unwrap()
        .play();
    }
}

#[test]
fn every_player_plays_team_games_with_the_expansion_decks_in_both_forms() {
    for (i, name) in PLAYERS.into_iter().enumerate() {
        let (params, turns) = setup(name);
        for (k, mode) in [Mode::HighForm, Mode::Deathmatch].into_iter().enumerate() {
            for (j, table) in [
                ["everfrost", "nethervoid", "etherweave", "imperial"],
                ["sylvan", "etherweave", "everfrost", "nethervoid"],
            ]
            .into_iter()
            .enumerate()
            {
                let seed = (100 * i + 10 * j + k) as u64;
                let players = (0..4)
                    .map(|s| make_strategy_with(name, s, seed, &params).unwrap())
                    .collect();
                Game::teams(common::cards(), mode, &table, players, seed, options(turns))
                    .unwrap()
                    .play();
            }
        }
    }
}

/// The evaluation of the expansion state: nothing without it (the base decks' values are unchanged), a
/// frozen effect worth `frozen` (less as the end nears, nothing on its holder's last turn), a pending being
/// costing its share of the causality penalty (all of it on the last turn), a Gateway worth `gateway` and
/// more.
#[test]
fn the_evaluation_values_the_expansion_state() {
    use tk_engine::players::evaluate::{has_expansion_state, nearness, Evaluator};
    use tk_engine::players::params::Params;
    use tk_engine::state::EndTrigger;

    let players = [0, 1].map(|s| make_strategy_with("random", s, 1, &[]).unwrap());
    let mut g = Game::new(
        common::cards(),
        Mode::Deathmatch,
        ["everfrost", "etherweave"],
        players,
        1,
        GameOptions::default(),
    )
    .unwrap();
    g.setup();
    let base = g.state.clone_for(&g.state.rng);
    let w = Params::preset("builder").unwrap();
    let ev = Evaluator::new(w);
    assert!(!has_expansion_state(&base));
    let v0 = ev.static_value(&base, 0);
    let off = Evaluator::new(Params {
        frozen: 0.0,
        pending: 0.0,
        gateway: 0.0,
        stasis: 0.0,
        removed: 0.0,
        free_action: 0.0,
        lost_action: 0.0,
        ..w
    });
    assert_eq!(off.static_value(&base, 0).to_bits(), v0.to_bits());

    let p = base.active;
    let ice = base
        .cards
        .being_by_id("everfrost/ice-queen")
        .expect("Ice Queen");
    let mut s = base.clone_for(&base.rng);
    s.frozen[p] = Some(ice);
    let near = nearness(&s);
    assert!((0.0..1.0).contains(&near));
    let gain = ev.static_value(&s, p) - ev.static_value(&base, p);
    assert!((gain - w.frozen * (1.0 - near)).abs() < 1e-9, "{gain}");
    // the opponent's frozen effect counts against the player
    let loss = ev.static_value(&s, 1 - p) - ev.static_value(&base, 1 - p);
    assert!((loss + w.frozen * (1.0 - near)).abs() < 1e-9, "{loss}");
    // on the holder's last turn it is worth nothing
    (s.turn, s.trigger_turn, s.end_trigger) = (6, 5, Some(EndTrigger::Score));
    let mut last = base.clone_for(&base.rng);
    (last.turn, last.trigger_turn, last.end_trigger) = (s.turn, s.trigger_turn, s.end_trigger);
    assert!(!tk_engine::players::evaluate::later_turn(&last, p, false));
    assert!((ev.static_value(&s, p) - ev.static_value(&last, p)).abs() < 1e-9);

    // a pending being: all of the causality penalty on the last turn, a share of it before
    let worm = base
        .cards
        .being_by_id("etherweave/paradox-worm")
        .expect("Paradox Worm");
    let mut pend = last.clone_for(&base.rng);
    pend.pending[p] = Some(worm);
    let cost = ev.static_value(&last, p) - ev.static_value(&pend, p);
    assert!((cost - w.score * 2.0).abs() < 1e-9, "{cost}");
    let mut early = base.clone_for(&base.rng);
    early.pending[p] = Some(worm);
    let cost = ev.static_value(&base, p) - ev.static_value(&early, p);
    assert!(
        (cost - w.score * 2.0 * w.pending * nearness(&base)).abs() < 1e-9,
        "{cost}"
    );

    // a Gateway is worth at least `gateway`
    let mut gate = base.clone_for(&base.rng);
    gate.gateway[p] = Some(40);
    assert!(ev.static_value(&gate, p) - ev.static_value(&base, p) >= w.gateway - 1e-9);

    // the opponent's next turn cut to one action (Everfrost Sentinel) is worth `lost_action` while that
    // turn is still to come; nothing once it is not
    let o = 1 - p;
    let mut cut = base.clone_for(&base.rng);
    cut.action_loss[o] = 1 << p;
    assert!(has_expansion_state(&cut));
    let gain = ev.static_value(&cut, p) - ev.static_value(&base, p);
    assert!((gain - w.lost_action).abs() < 1e-9, "{gain}");
    let loss = ev.static_value(&cut, o) - ev.static_value(&base, o);
    assert!((loss + w.lost_action).abs() < 1e-9, "{loss}");
    let mut ended = base.clone_for(&base.rng);
    ended.over = true;
    let mut too_late = ended.clone_for(&base.rng);
    too_late.action_loss[o] = 1 << p;
    assert!(!tk_engine::players::evaluate::later_turn(
        &too_late, o, false
    ));
    assert!((ev.static_value(&too_late, p) - ev.static_value(&ended, p)).abs() < 1e-9);
}
