//! `tk-play`: play games and print one record JSON per line, exactly like `scripts/py_records.py`.
//!
//! tk-play --cards FILE --mode high-form --decks imperial,sylvan --strategies random,random
//!         --seeds 0:100 [--param SEAT.NAME=VALUE]... [--strict] [--quiet]
//! Three or four decks and strategies play a Deathmatch melee. `--param 0.margin=0` gives the strategy of
//! seat 0 a parameter (its declared type reads the value; an unknown or bad one is the core's message).
//! `--quiet` prints only the number of games and the games per second (to stderr). `--stub-effects` lets
//! custom effects that are not ported yet do nothing (for testing the engine without them).
//! `tk-play --list-effects` prints the names of the custom effects the core has, one a line.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use tk_engine::cards::CardSet;
use tk_engine::effects::context::EffectContext;
use tk_engine::effects::steps::Step;
use tk_engine::effects::{custom_fn, registry};
use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy_with;
use tk_engine::players::params::{declarations, Kind, ParamValue};
use tk_engine::state::Mode;

/// Games allocate many small, short-lived vectors (sandbox copies): mimalloc serves them faster than
/// the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Args {
    cards: String,
    mode: String,
    decks: String,
    strategies: String,
    /// (seat, name, value as written)
    params: Vec<(usize, String, String)>,
    seeds: (u64, u64),
    strict: bool,
    quiet: bool,
    stub_effects: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        cards: String::new(),
        mode: String::new(),
        decks: String::new(),
        strategies: "random,random".into(),
        params: Vec::new(),
        seeds: (0, 10),
        strict: false,
        quiet: false,
        stub_effects: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg}: expected a value"));
        match arg.as_str() {
            "--cards" => a.cards = value()?,
            "--mode" => a.mode = value()?,
            "--decks" => a.decks = value()?,
            "--strategies" => a.strategies = value()?,
            "--seeds" => {
                let v = value()?;
                let (f, e) = v.split_once(':').ok_or("--seeds: expected first:end")?;
                a.seeds = (
                    f.parse().map_err(|_| "--seeds: bad first")?,
                    e.parse().map_err(|_| "--seeds: bad end")?,
                );
            }
            "--param" => {
                let v = value()?;
                let bad =
                    || format!("--param: expected SEAT.NAME=VALUE like 0.margin=0, got {v:?}");
                let (key, text) = v.split_once('=').ok_or_else(bad)?;
                let (seat, name) = key.split_once('.').ok_or_else(bad)?;
                let seat = seat.parse().map_err(|_| bad())?;
                a.params.push((seat, name.to_string(), text.to_string()));
            }
            "--strict" => a.strict = true,
            "--quiet" => a.quiet = true,
            "--stub-effects" => a.stub_effects = true,
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    if a.cards.is_empty() || a.mode.is_empty() || a.decks.is_empty() {
        return Err("--cards, --mode and --decks are required".into());
    }
    Ok(a)
}

fn run() -> Result<(), String> {
    if std::env::args().nth(1).as_deref() == Some("--list-effects") {
        for (name, _) in registry() {
            println!("{name}");
        }
        return Ok(());
    }
    let a = parse_args()?;
    let text = std::fs::read_to_string(&a.cards).map_err(|e| format!("{}: {e}", a.cards))?;
    let cards = Arc::new(if a.stub_effects {
        CardSet::from_json_with(&text, &|name| Some(custom_fn(name).unwrap_or(do_nothing)))?
    } else {
        CardSet::from_json(&text)?
    });
    let mode = Mode::parse(&a.mode)?;
    let decks: Vec<&str> = a.decks.split(',').collect();
    let names: Vec<&str> = a.strategies.split(',').collect();
    if !(2..=4).contains(&decks.len()) || names.len() != decks.len() {
        return Err(
            "--decks and --strategies take 2 to 4 names each, as many of one as of the other"
                .into(),
        );
    }
    let seat_params = (0..names.len())
        .map(|seat| seat_params(&a.params, seat, names[seat]))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(&(seat, ..)) = a.params.iter().find(|p| p.0 >= names.len()) {
        return Err(format!("--param: no seat {seat}"));
    }
    let options = GameOptions {
        strict: a.strict,
        ..GameOptions::default()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut line = String::new();
    let start = Instant::now();
    for seed in a.seeds.0..a.seeds.1 {
        let players = names
            .iter()
            .enumerate()
            .map(|(seat, name)| make_strategy_with(name, seat, seed, &seat_params[seat]))
            .collect::<Result<_, _>>()?;
        let mut game = Game::table(Arc::clone(&cards), mode, &decks, players, seed, options)?;
        game.play();
        if !a.quiet {
            line.clear();
            game.state.record.write_json(&mut line);
            line.push('\n');
            out.write_all(line.as_bytes()).map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    if a.quiet {
        let n = a.seeds.1.saturating_sub(a.seeds.0);
        let secs = start.elapsed().as_secs_f64();
        eprintln!("{n} games in {secs:.3} s: {:.0} games/s", n as f64 / secs);
    }
    Ok(())
}

/// Stands in for custom effects not ported yet (`--stub-effects`): games that use them will differ.
fn do_nothing(_: &mut EffectContext, _: &Step) -> bool {
    false
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

/// The `--param` values of `seat`, read as the parameters of `strategy` are declared (a name the strategy
/// does not declare is passed on as a number, for the core's own message).
fn seat_params(
    given: &[(usize, String, String)],
    seat: usize,
    strategy: &str,
) -> Result<Vec<(&'static str, ParamValue)>, String> {
    let declared = declarations();
    let specs = declared
        .iter()
        .find(|(n, _)| *n == strategy)
        .map(|(_, s)| s);
    let mut out = Vec::new();
    for (_, name, text) in given.iter().filter(|p| p.0 == seat) {
        let kind = specs.and_then(|s| s.iter().find(|(spec, _)| spec.name == name.as_str()));
        let bad = || format!("--param {seat}.{name}: cannot read {text:?}");
        let value = match kind.map(|(spec, _)| spec.kind) {
            Some(Kind::Flag) => ParamValue::Bool(text.parse().map_err(|_| bad())?),
            Some(Kind::Whole) => ParamValue::Int(text.parse().map_err(|_| bad())?),
            Some(Kind::Name) => ParamValue::Text(Box::leak(text.clone().into_boxed_str())),
            Some(Kind::Number) | None => ParamValue::Float(text.parse().map_err(|_| bad())?),
        };
        out.push((&*Box::leak(name.clone().into_boxed_str()), value));
    }
    Ok(out)
}
