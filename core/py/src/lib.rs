//! `sim._core`: the compiled engine under the Python API.
//!
//! Python loads and validates the card files and hands the core the resulting card set as JSON
//! (`sim/core_cards.py`); games are played whole inside the core and come back as the record's JSON (the
//! document of `GameRecord.to_dict()`) with each seat's deck order after setup. Players are either the
//! strategies written in Rust, named with their seed and parameters, or any Python object with
//! `choose(view, decision) -> int`, asked through `PyStrategy`.

mod facade;
mod python_player;

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use tk_engine::cards::CardSet;
use tk_engine::decisions::Strategy;
use tk_engine::game::{Game, GameOptions};
use tk_engine::state::Mode;

use python_player::{Converter, PyStrategy};

/// A card set loaded into the core. `python_cards` is the `sim.cards.CardSet` it was made from, whose
/// card and placement objects Python strategies receive as options.
#[pyclass(frozen, module = "sim._core")]
struct Cards {
    pub(crate) inner: Arc<CardSet>,
    pub(crate) converter: Arc<Converter>,
}

#[pymethods]
impl Cards {
    #[new]
    fn new(py: Python<'_>, json: &str, python_cards: PyObject) -> PyResult<Self> {
        let inner = CardSet::from_json(json).map_err(PyValueError::new_err)?;
        let converter = Converter::new(py, python_cards)?;
        Ok(Cards {
            inner: Arc::new(inner),
            converter: Arc::new(converter),
        })
    }
}

/// A player of a core game: a Rust strategy by name, or a Python object.
enum PlayerArg {
    Native {
        name: String,
        seed: u64,
        params: Vec<(String, f64)>,
    },
    Python(PyObject),
}

impl<'py> FromPyObject<'py> for PlayerArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(t) = ob.downcast::<PyTuple>() {
            let (name, seed, params): (String, u64, Bound<'py, PyDict>) = t.extract()?;
            let mut out = Vec::with_capacity(params.len());
            for (k, v) in params.iter() {
                out.push((k.extract::<String>()?, v.extract::<f64>()?));
            }
            return Ok(PlayerArg::Native {
                name,
                seed,
                params: out,
            });
        }
        Ok(PlayerArg::Python(ob.clone().unbind()))
    }
}

fn make_player(
    arg: PlayerArg,
    seat: usize,
    converter: &Arc<Converter>,
) -> PyResult<Box<dyn Strategy>> {
    match arg {
        PlayerArg::Native { name, seed, params } => {
            if !params.is_empty() {
                return Err(PyValueError::new_err(format!(
                    "strategy {name:?}: parameters are not supported by the core yet"
                )));
            }
            tk_engine::players::make_strategy(&name, seat, seed).map_err(PyValueError::new_err)
        }
        PlayerArg::Python(obj) => Ok(Box::new(PyStrategy::new(obj, Arc::clone(converter))?)),
    }
}

/// Each seat's being deck in its order after setup, first drawn first (`pipelines.tables.setup_order`).
fn setup_order(game: &Game) -> [Vec<&'static str>; 2] {
    let s = &game.state;
    let cards = &s.cards;
    [0, 1].map(|p| {
        s.hand[p]
            .iter()
            .chain(s.deck[p].iter().rev())
            .map(|&b| cards.being(b).id)
            .collect()
    })
}

/// Play one game; returns (record JSON, (seat 0 deck order, seat 1 deck order)).
///
/// A Python player's exception ends the game and is raised here; a rule breach found in strict mode
/// raises `AssertionError` with the invariant's message.
#[pyfunction]
#[pyo3(signature = (cards, mode, decks, players, seed, strict=false, max_turns=200, ask_all=false))]
#[allow(clippy::too_many_arguments)]
fn play_game(
    cards: &Cards,
    mode: &str,
    decks: (String, String),
    players: (PlayerArg, PlayerArg),
    seed: u64,
    strict: bool,
    max_turns: u32,
    ask_all: bool,
) -> PyResult<(String, [Vec<&'static str>; 2])> {
    let mode = Mode::parse(mode).map_err(PyValueError::new_err)?;
    let strategies = [
        make_player(players.0, 0, &cards.converter)?,
        make_player(players.1, 1, &cards.converter)?,
    ];
    let options = GameOptions {
        strict,
        max_turns,
        ask_all,
    };
    let mut game = Game::new(
        Arc::clone(&cards.inner),
        mode,
        [&decks.0, &decks.1],
        strategies,
        seed,
        options,
    )
    .map_err(PyValueError::new_err)?;
    python_player::run_catching(|| {
        game.setup();
        let order = setup_order(&game);
        while !game.state.over {
            game.play_turn();
        }
        (game.state.record.to_json(), order)
    })
}

/// Play the games of `seeds` between two Rust strategies without building records for Python; returns
/// the total number of turns (for benchmarks).
#[pyfunction]
#[pyo3(signature = (cards, mode, decks, strategies, seeds, strict=false))]
fn play_many(
    py: Python<'_>,
    cards: &Cards,
    mode: &str,
    decks: (String, String),
    strategies: (String, String),
    seeds: (u64, u64),
    strict: bool,
) -> PyResult<u64> {
    let mode = Mode::parse(mode).map_err(PyValueError::new_err)?;
    let set = Arc::clone(&cards.inner);
    py.allow_threads(move || {
        let mut turns = 0u64;
        for seed in seeds.0..seeds.1 {
            let players = [
                tk_engine::players::make_strategy(&strategies.0, 0, seed)?,
                tk_engine::players::make_strategy(&strategies.1, 1, seed)?,
            ];
            let options = GameOptions {
                strict,
                ..GameOptions::default()
            };
            let mut game = Game::new(
                Arc::clone(&set),
                mode,
                [&decks.0, &decks.1],
                players,
                seed,
                options,
            )?;
            game.play();
            turns += u64::from(game.state.turn);
        }
        Ok::<u64, String>(turns)
    })
    .map_err(PyValueError::new_err)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SOURCE_FINGERPRINT", env!("TK_CORE_SOURCE"))?;
    m.add_class::<Cards>()?;
    m.add_class::<facade::NativeStrategy>()?;
    m.add_function(wrap_pyfunction!(play_game, m)?)?;
    m.add_function(wrap_pyfunction!(play_many, m)?)?;
    m.add_function(wrap_pyfunction!(facade::game_op, m)?)?;
    m.add_function(wrap_pyfunction!(facade::condition_names, m)?)?;
    m.add_function(wrap_pyfunction!(facade::custom_effect_names, m)?)?;
    m.add_function(wrap_pyfunction!(facade::custom_effect_fingerprints, m)?)?;
    Ok(())
}
