//! The `tk-play` binary: parameters per seat (`--param SEAT.NAME=VALUE`) reach the strategies, and a bad
//! one is a one-line error.

use std::process::Command;

fn tk_play(extra: &[&str]) -> std::process::Output {
    let cards = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cards.json");
    Command::new(env!("CARGO_BIN_EXE_tk-play"))
        .args([
            "--cards",
            cards,
            "--mode",
            "high-form",
            "--decks",
            "imperial,sylvan",
        ])
        .args(["--strategies", "swift,builder", "--seeds", "0:2"])
        .args(extra)
        .output()
        .expect("tk-play runs")
}

#[test]
fn parameters_reach_the_seat_they_name() {
    let plain = tk_play(&[]);
    assert!(plain.status.success());
    let defaults = tk_play(&["--param", "0.heroic=2.5", "--param", "1.patterns=1.5"]);
    assert_eq!(
        plain.stdout, defaults.stdout,
        "builder's own weights play the same games"
    );
    let other = tk_play(&["--param", "0.heroic=5", "--param", "0.effect_runs=1"]);
    assert!(other.status.success());
    assert_ne!(plain.stdout, other.stdout);
}

#[test]
fn a_bad_parameter_is_one_line_and_a_failure() {
    for (arg, message) in [
        ("0.depth=2", "strategy 'swift' has no parameter 'depth'"),
        ("3.margin=2", "--param: no seat 3"),
        (
            "0.halving=maybe",
            "--param 0.halving: cannot read \"maybe\"",
        ),
        ("margin=2", "--param: expected SEAT.NAME=VALUE"),
    ] {
        let out = tk_play(&["--param", arg]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            !out.status.success() && err.contains(message),
            "{arg}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
