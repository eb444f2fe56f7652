//! Measurements of the players on the expansion decks (ignored; run by hand, release build):
//!
//! `MATCH=builder,builder A_PARAMS=on B_PARAMS=off DECKS=everfrost,everfrost GAMES=400 cargo test --release
//! -p tk_engine --test expansion_measure -- --ignored --nocapture expansion_match`: player A against player
//! B, GAMES duels per form; A takes seat 0 in even games and seat 1 in odd ones, and with two different decks
//! A holds the first deck in half of the deals and the second in the other half. `A_PARAMS` / `B_PARAMS`:
//! `off` sets the lookahead's expansion parameters (`frozen`, `pending`, `gateway`, `stasis`, `removed`,
//! `free_action`, `lost_action`) to 0 (the players before issue 17's valuation), `on` or empty keeps the defaults, or a
//! list `name=value,...` (numbers). Prints A's score (a tie counts half) with its Wilson 95% interval, and
//! per game and side holding an expansion deck: thaws, warps, and games ended with a pending being (the
//! causality penalty) or an unused frozen effect.

mod common;

use std::time::Instant;

use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy_with;
use tk_engine::players::params::ParamValue;
use tk_engine::record::Event;
use tk_engine::state::Mode;

/// The lookahead's expansion parameters (docs/strategies.md, "The expansion mechanics").
const EXPANSION_PARAMS: [&str; 7] = [
    "frozen",
    "pending",
    "gateway",
    "stasis",
    "removed",
    "free_action",
    "lost_action",
];

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// `spec` (`off`, `on`, or `name=value,...`) as the parameters of player `name`.
fn params(name: &str, spec: &str) -> Vec<(&'static str, ParamValue)> {
    let lookahead = ["greedy", "builder", "hunter", "brawler"].contains(&name);
    match spec {
        "" | "on" => Vec::new(),
        "off" if lookahead => EXPANSION_PARAMS
            .iter()
            .map(|&n| (n, ParamValue::Float(0.0)))
            .collect(),
        "off" => Vec::new(),
        list => list
            .split(',')
            .map(|kv| {
                let (k, v) = kv.split_once('=').expect("name=value");
                let k: &'static str = Box::leak(k.trim().to_string().into_boxed_str());
                (k, ParamValue::Float(v.trim().parse().expect("a number")))
            })
            .collect(),
    }
}

/// What one side did in a game: [thaws, warps, ended with a pending being, ended with a frozen effect].
type Usage = [u32; 4];

/// One duel: A's result (1 win, 0 tie, -1 loss) and each side's usage, with whether it held an expansion
/// deck.
fn game(
    mode: Mode,
    (a, a_spec): (&str, &str),
    (b, b_spec): (&str, &str),
    decks: (&str, &str),
    seed: u64,
) -> (i32, [(bool, Usage); 2]) {
    let a_seat = (seed % 2) as usize;
    let a_deck_first = (seed / 2).is_multiple_of(2);
    let (a_deck, b_deck) = if a_deck_first {
        (decks.0, decks.1)
    } else {
        (decks.1, decks.0)
    };
    let mut seat_decks = ["", ""];
    seat_decks[a_seat] = a_deck;
    seat_decks[1 - a_seat] = b_deck;
    let players = [0, 1].map(|seat| {
        let (name, spec) = if seat == a_seat {
            (a, a_spec)
        } else {
            (b, b_spec)
        };
        make_strategy_with(name, seat, seed, &params(name, spec)).unwrap()
    });
    let mut g = Game::new(
        common::cards(),
        mode,
        seat_decks,
        players,
        seed,
        GameOptions::default(),
    )
    .unwrap();
    g.play();
    let r = &g.state.record;
    let mut usage = [[0u32; 4]; 2];
    for e in &r.events {
        match e {
            Event::Thaw { seat, .. } => usage[*seat as usize][0] += 1,
            Event::Warp { seat, .. } => usage[*seat as usize][1] += 1,
            Event::Points { seat, source, .. } if *source == "causality" => {
                usage[*seat as usize][2] += 1
            }
            _ => {}
        }
    }
    for (seat, u) in usage.iter_mut().enumerate() {
        u[3] = g.state.frozen[seat].is_some() as u32;
    }
    let expansion = |d: &str| ["everfrost", "nethervoid", "etherweave"].contains(&d);
    let result = if r.winner < 0 {
        0
    } else if r.winner as usize == a_seat {
        1
    } else {
        -1
    };
    (
        result,
        [
            (expansion(a_deck), usage[a_seat]),
            (expansion(b_deck), usage[1 - a_seat]),
        ],
    )
}

/// Wilson's 95% interval of a share `score` of `n`.
fn wilson(score: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let centre = (score + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (score * (1.0 - score) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

#[test]
#[ignore]
fn expansion_match() {
    let m = env("MATCH", "builder,builder");
    let (a, b) = m.split_once(',').unwrap();
    let (a_spec, b_spec) = (env("A_PARAMS", "on"), env("B_PARAMS", "off"));
    let d = env("DECKS", "everfrost,everfrost");
    let decks = d.split_once(',').unwrap();
    let games: u64 = env("GAMES", "100").parse().unwrap();
    let threads: u64 = env("THREADS", "2").parse().unwrap();
    let first: u64 = env("SEED", "0").parse().unwrap();
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        let t0 = Instant::now();
        let results: Vec<(i32, [(bool, Usage); 2])> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let (a_spec, b_spec) = (a_spec.as_str(), b_spec.as_str());
                    sc.spawn(move || {
                        (first..first + games)
                            .filter(|s| s % threads == k)
                            .map(|seed| game(mode, (a, a_spec), (b, b_spec), decks, seed))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        let n = results.len() as f64;
        let wins = results.iter().filter(|r| r.0 == 1).count() as f64;
        let ties = results.iter().filter(|r| r.0 == 0).count() as f64;
        let score = (wins + 0.5 * ties) / n;
        let (lo, hi) = wilson(score, n);
        let usage = |side: usize| {
            let held: Vec<&Usage> = results
                .iter()
                .filter(|r| r.1[side].0)
                .map(|r| &r.1[side].1)
                .collect();
            let k = held.len().max(1) as f64;
            let per = |i: usize| held.iter().map(|u| u[i] as f64).sum::<f64>() / k;
            format!(
                "{} games: thaws {:.2}, warps {:.2}, pending at end {:.1}%, frozen unused {:.1}%",
                held.len(),
                per(0),
                per(1),
                100.0 * per(2),
                100.0 * per(3)
            )
        };
        println!(
            "{mode:?} {}: A {a}({a_spec}) vs B {b}({b_spec}): {n} games, A won {wins}, tied {ties}: \
             score {score:.3} (95%: {lo:.3}..{hi:.3}); {:.1} s\n  A per game with an expansion deck, {}\n  \
             B per game with an expansion deck, {}",
            d,
            t0.elapsed().as_secs_f64(),
            usage(0),
            usage(1),
        );
    }
}
