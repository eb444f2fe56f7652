//! `sim._core`: the compiled engine under the Python API.
//!
//! Python loads and validates the card files and hands the core the resulting card set as JSON
//! (`sim/core_cards.py`). `game::CoreGame` is a game whose state stays in the core, with one method per rule
//! operation (`sim.game.Game` holds one), `fields` the state's fields as Python reads them, `view` a
//! player's view of it and `players` the core's players as Python objects; `play_many` and
//! `record_digests` play whole games between the core's own strategies without handing records to Python
//! (benchmarks, the differential corpus); `shard::play_shard` plays a study's shard between them and hands
//! its tables to Python as Arrow.

mod declarations;
mod fields;
mod game;
mod players;
mod python_player;
mod shard;
mod tables;
mod view;

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use tk_engine::cards::CardSet;
use tk_engine::game::{Game, GameOptions};
use tk_engine::players::params::ParamValue;
use tk_engine::state::Mode;

use python_player::Converter;

/// Games allocate many small, short-lived vectors (sandbox copies): mimalloc serves them faster than
/// the system allocator (it serves the core's own allocations only; Python keeps its allocator).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A card set loaded into the core. `python_cards` is the `sim.cards.CardSet` it was made from, whose
/// card and placement objects Python strategies receive as options.
#[pyclass(frozen, module = "sim._core")]
struct Cards {
    pub(crate) inner: Arc<CardSet>,
    pub(crate) converter: Arc<Converter>,
    pub(crate) python: PyObject,
}

#[pymethods]
impl Cards {
    #[new]
    fn new(py: Python<'_>, json: &str, python_cards: PyObject) -> PyResult<Self> {
        let inner = CardSet::from_json(json).map_err(PyValueError::new_err)?;
        let converter = Converter::new(py, python_cards.clone_ref(py))?;
        Ok(Cards {
            inner: Arc::new(inner),
            converter: Arc::new(converter),
            python: python_cards,
        })
    }
}

/// A seat's strategy: its name and the parameters given (the rest are its defaults).
type Seat = (String, Vec<(String, ParamValue)>);

/// Play the games of `seeds` between Rust strategies (one per deck: 2 for a duel, 3-4 for a melee, 4 by
/// seat for a team game when `teams`), handing each finished game to `each`.
#[allow(clippy::too_many_arguments)]
fn play_seeds(
    cards: &Arc<CardSet>,
    mode: Mode,
    decks: &[String],
    seats: &[Seat],
    seeds: (u64, u64),
    options: GameOptions,
    teams: bool,
    mut each: impl FnMut(u64, &Game),
) -> Result<(), String> {
    let decks: Vec<&str> = decks.iter().map(String::as_str).collect();
    let given: Vec<Vec<(&str, ParamValue)>> = seats
        .iter()
        .map(|(_, params)| params.iter().map(|(k, v)| (k.as_str(), *v)).collect())
        .collect();
    for seed in seeds.0..seeds.1 {
        let players = seats
            .iter()
            .zip(&given)
            .enumerate()
            .map(|(seat, ((name, _), given))| {
                tk_engine::players::make_strategy_with(name, seat, seed, given)
            })
            .collect::<Result<_, _>>()?;
        let mut game = if teams {
            Game::teams(Arc::clone(cards), mode, &decks, players, seed, options)?
        } else {
            Game::table(Arc::clone(cards), mode, &decks, players, seed, options)?
        };
        game.play();
        each(seed, &game);
    }
    Ok(())
}

/// Play the games of `seeds` between Rust strategies without building records for Python (a team game of
/// 4 seats when `teams`); `params`, one dict per seat when given, are the strategies' parameters. Returns
/// the total number of turns (for benchmarks).
#[pyfunction]
#[pyo3(signature = (cards, mode, decks, strategies, seeds, strict=false, teams=false, params=None))]
#[allow(clippy::too_many_arguments)]
fn play_many(
    py: Python<'_>,
    cards: &Cards,
    mode: &str,
    decks: Vec<String>,
    strategies: Vec<String>,
    seeds: (u64, u64),
    strict: bool,
    teams: bool,
    params: Option<Vec<Bound<'_, PyDict>>>,
) -> PyResult<u64> {
    let mode = Mode::parse(mode).map_err(PyValueError::new_err)?;
    let params = match params {
        Some(dicts) if dicts.len() != strategies.len() => {
            return Err(PyValueError::new_err(
                "params: expected one dict per strategy",
            ))
        }
        Some(dicts) => dicts
            .iter()
            .map(players::param_values)
            .collect::<PyResult<Vec<_>>>()?,
        None => vec![Vec::new(); strategies.len()],
    };
    let strategies: Vec<Seat> = strategies.into_iter().zip(params).collect();
    let set = Arc::clone(&cards.inner);
    let options = GameOptions {
        strict,
        ..GameOptions::default()
    };
    py.allow_threads(move || {
        let mut turns = 0u64;
        play_seeds(
            &set,
            mode,
            &decks,
            &strategies,
            seeds,
            options,
            teams,
            |_, game| {
                turns += u64::from(game.state.turn);
            },
        )?;
        Ok::<u64, String>(turns)
    })
    .map_err(PyValueError::new_err)
}

/// SHA-256 digests (hex, first 32 digits) of the records of the games of `seeds` between two Rust
/// strategies, one digest per `block` consecutive seeds: each record is hashed as its JSON line
/// (`GameRecord.to_dict()` dumped compactly), as `scripts/golden_records.py` does.
#[pyfunction]
#[pyo3(signature = (cards, mode, decks, strategies, seeds, block, teams=false))]
#[allow(clippy::too_many_arguments)]
fn record_digests(
    py: Python<'_>,
    cards: &Cards,
    mode: &str,
    decks: Vec<String>,
    strategies: Vec<String>,
    seeds: (u64, u64),
    block: u64,
    teams: bool,
) -> PyResult<Vec<String>> {
    use sha2::{Digest, Sha256};

    let mode = Mode::parse(mode).map_err(PyValueError::new_err)?;
    if block == 0 {
        return Err(PyValueError::new_err("block must be at least 1"));
    }
    let set = Arc::clone(&cards.inner);
    let strategies: Vec<Seat> = strategies.into_iter().map(|s| (s, Vec::new())).collect();
    py.allow_threads(move || {
        let mut out = Vec::new();
        let mut hasher = Sha256::new();
        let mut line = String::new();
        play_seeds(
            &set,
            mode,
            &decks,
            &strategies,
            seeds,
            GameOptions::default(),
            teams,
            |seed, game| {
                line.clear();
                game.state.record.write_json(&mut line);
                hasher.update(line.as_bytes());
                if (seed - seeds.0 + 1).is_multiple_of(block) || seed + 1 == seeds.1 {
                    let digest = hasher.finalize_reset();
                    out.push(digest[..16].iter().map(|b| format!("{b:02x}")).collect());
                }
            },
        )?;
        Ok::<Vec<String>, String>(out)
    })
    .map_err(PyValueError::new_err)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SOURCE_FINGERPRINT", env!("TK_CORE_SOURCE"))?;
    m.add_class::<Cards>()?;
    m.add_class::<game::CoreGame>()?;
    m.add_class::<view::PyPlayerView>()?;
    m.add_class::<players::NativeStrategy>()?;
    m.add_function(wrap_pyfunction!(play_many, m)?)?;
    m.add_function(wrap_pyfunction!(record_digests, m)?)?;
    m.add_class::<shard::ArrowBatch>()?;
    m.add_function(wrap_pyfunction!(shard::play_shard, m)?)?;
    m.add_function(wrap_pyfunction!(shard::table_columns, m)?)?;
    m.add_function(wrap_pyfunction!(declarations::condition_names, m)?)?;
    m.add_function(wrap_pyfunction!(declarations::custom_effect_names, m)?)?;
    m.add_function(wrap_pyfunction!(
        declarations::custom_effect_fingerprints,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(declarations::strategy_params, m)?)?;
    m.add_function(wrap_pyfunction!(declarations::presets, m)?)?;
    m.add_function(wrap_pyfunction!(declarations::step_vocabulary, m)?)?;
    Ok(())
}
