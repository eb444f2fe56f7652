//! Measurements of team games (ignored; run by hand, release build):
//!
//! `MATCH=planner,builder GAMES=200 cargo test --release -p tk_engine --test teams_measure -- --ignored
//! --nocapture team_match`: team A's player against team B's, GAMES per form, the teams swapping seats
//! every game; `A_PASS=false` forbids A's passing (planner with and without passing:
//! `MATCH=planner,planner B_PASS=false`). `team_speed` prints games per second of random and builder team
//! games (one thread). `PASS_MARGIN=20` sets the planners' `pass_margin`.

mod common;

use std::time::Instant;

use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy_with;
use tk_engine::players::params::ParamValue;
use tk_engine::state::Mode;

const DECKS: [&str; 3] = ["imperial", "sylvan", "highland"];

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// The pass parameters of a player; `PASS_MARGIN` sets the planner's `pass_margin`.
fn params(name: &str, pass: &str) -> Vec<(&'static str, ParamValue)> {
    let mut out = Vec::new();
    if name == "random" {
        return out;
    }
    if !pass.is_empty() {
        out.push(("pass_control", ParamValue::Bool(pass == "true")));
    }
    if let (Ok(margin), "planner") = (std::env::var("PASS_MARGIN"), name) {
        out.push((
            "pass_margin",
            ParamValue::Float(margin.parse().expect("a number")),
        ));
    }
    out
}

/// One team game: `a` plays team A (seats 0 and 2) when `a_first`, else team B. The winner: 1 for a's
/// team, 0 for a tie, -1 for b's; and the passes of a's and b's seats.
fn game(
    mode: Mode,
    (a, a_pass): (&str, &str),
    (b, b_pass): (&str, &str),
    seed: u64,
) -> (i32, usize, usize) {
    let a_side = (seed % 2) as usize;
    let players = (0..4)
        .map(|seat| {
            let (name, pass) = if seat % 2 == a_side {
                (a, a_pass)
            } else {
                (b, b_pass)
            };
            make_strategy_with(name, seat, seed, &params(name, pass)).unwrap()
        })
        .collect();
    let table: Vec<&str> = (0..4).map(|i| DECKS[(seed as usize / 2 + i) % 3]).collect();
    let mut g = Game::teams(
        common::cards(),
        mode,
        &table,
        players,
        seed,
        GameOptions::default(),
    )
    .unwrap();
    g.play();
    let r = &g.state.record;
    let mut passes = [0, 0];
    for e in &r.events {
        if let tk_engine::record::Event::PassControl { seat, .. } = e {
            passes[(*seat as usize % 2 != a_side) as usize] += 1;
        }
    }
    let result = if r.winner < 0 {
        0
    } else if r.winner as usize == a_side {
        1
    } else {
        -1
    };
    (result, passes[0], passes[1])
}

#[test]
#[ignore]
fn team_match() {
    let m = env("MATCH", "builder,random");
    let (a, b) = m.split_once(',').unwrap();
    let (a_pass, b_pass) = (env("A_PASS", ""), env("B_PASS", ""));
    let games: u64 = env("GAMES", "100").parse().unwrap();
    let threads: u64 = env("THREADS", "2").parse().unwrap();
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        let t0 = Instant::now();
        let results: Vec<(i32, usize, usize)> = std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let (a, b, a_pass, b_pass) = (a, b, a_pass.as_str(), b_pass.as_str());
                    sc.spawn(move || {
                        (0..games)
                            .filter(|s| s % threads == k)
                            .map(|seed| game(mode, (a, a_pass), (b, b_pass), seed))
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
        // a tie counts half
        let score = (wins + 0.5 * ties) / n;
        // Wilson's 95% interval of the score (exact enough for a share near 0 or 1)
        let z = 1.96f64;
        let centre = (score + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half =
            z * (score * (1.0 - score) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        let pa: usize = results.iter().map(|r| r.1).sum();
        let pb: usize = results.iter().map(|r| r.2).sum();
        println!(
            "{mode:?}: {a}{} vs {b}{}: {n} games, A won {wins}, tied {ties}: score {:.3} (95%: {:.3}..{:.3}); passes per game A {:.2} B {:.2}; {:.1} s",
            if a_pass.is_empty() { String::new() } else { format!("(pass_control={a_pass})") },
            if b_pass.is_empty() { String::new() } else { format!("(pass_control={b_pass})") },
            score, centre - half, centre + half,
            pa as f64 / n, pb as f64 / n,
            t0.elapsed().as_secs_f64()
        );
    }
}

#[test]
#[ignore]
fn team_speed() {
    let games: u64 = env("GAMES", "200").parse().unwrap();
    for name in ["random", "builder"] {
        for mode in [Mode::HighForm, Mode::Deathmatch] {
            let n = if name == "random" { games * 20 } else { games };
            let t0 = Instant::now();
            for seed in 0..n {
                game(mode, (name, ""), (name, ""), seed);
            }
            let s = t0.elapsed().as_secs_f64();
            println!(
                "{name} team games, {mode:?}: {n} in {s:.2} s: {:.1} games/s",
                n as f64 / s
            );
        }
    }
}
