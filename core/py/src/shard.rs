//! A shard of a study played in the core between its own players, its tables handed to Python as Arrow
//! record batches (`tables`), through the Arrow C data interface: each batch is a Python object with
//! `__arrow_c_array__` (the Arrow PyCapsule interface), which `pyarrow.record_batch` imports without a copy.

use std::ffi::CString;
use std::sync::Arc;

use arrow_array::ffi::to_ffi;
use arrow_array::{Array, RecordBatch, StructArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

use tk_engine::cards::CardSet;
use tk_engine::decisions::Strategy;
use tk_engine::game::{Game, GameOptions};
use tk_engine::players::params::ParamValue;
use tk_engine::players::strategy_seed;
use tk_engine::rng::PyRandom;
use tk_engine::state::Mode;

use crate::players::{native, param_values, SharedNative};
use crate::python_player::run_catching;
use crate::tables::{GameInfo, ShardTables, TABLES};
use crate::Cards;

/// One record batch, for `pyarrow.record_batch(obj)`.
#[pyclass(frozen, module = "sim._core")]
pub struct ArrowBatch {
    batch: RecordBatch,
}

#[pymethods]
impl ArrowBatch {
    /// The batch as a struct array: (schema capsule, array capsule). pyarrow moves the structs out of the
    /// capsules; a capsule dropped unread releases its own.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema; // the batch goes as it is; a consumer casts if it wants another schema
        let data = StructArray::from(self.batch.clone()).into_data();
        let (array, schema) = to_ffi(&data).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let name = |n: &str| Some(CString::new(n).expect("no NUL in a capsule name"));
        Ok((
            PyCapsule::new(py, schema, name("arrow_schema"))?,
            PyCapsule::new(py, array, name("arrow_array"))?,
        ))
    }
}

/// One game of a shard: (game id, cell, card set (index into the shard's), mode, decks set up by seat,
/// decks named by seat, players by seat (indices into the shard's), seed, players' seed, team game,
/// variant, variant seat). See `pipelines/shard.py`.
#[derive(FromPyObject)]
pub struct ShardGame(
    i64,
    String,
    usize,
    String,
    Vec<String>,
    Vec<String>,
    Vec<usize>,
    u64,
    u64,
    bool,
    String,
    i8,
);

/// A study player the core has: label, strategy name, parameters (as `NativeStrategy` takes them).
struct CorePlayer {
    label: String,
    name: String,
    params: Vec<(String, ParamValue)>,
}

/// Play `games` between core players and return each table of `pipelines/schema.py` as a record batch,
/// by name. `card_sets`: (cards, fingerprint) for the games' index; `players`: (label, strategy name,
/// parameters) for their players' index.
#[pyfunction]
pub fn play_shard(
    py: Python<'_>,
    card_sets: Vec<(PyRef<'_, Cards>, String)>,
    players: Vec<(String, String, Bound<'_, PyDict>)>,
    games: Vec<ShardGame>,
    schema_version: i16,
) -> PyResult<Vec<(&'static str, ArrowBatch)>> {
    let sets: Vec<(Arc<CardSet>, String)> = card_sets
        .iter()
        .map(|(c, fingerprint)| (Arc::clone(&c.inner), fingerprint.clone()))
        .collect();
    let players = players
        .into_iter()
        .map(|(label, name, params)| {
            Ok(CorePlayer {
                label,
                name,
                params: param_values(&params)?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let batches =
        py.allow_threads(|| run_catching(|| play_games(&sets, &players, &games, schema_version)))??;
    Ok(batches
        .into_iter()
        .map(|(name, batch)| (name, ArrowBatch { batch }))
        .collect())
}

fn play_games(
    sets: &[(Arc<CardSet>, String)],
    players: &[CorePlayer],
    games: &[ShardGame],
    schema_version: i16,
) -> PyResult<Vec<(&'static str, RecordBatch)>> {
    let mut tables = ShardTables::new(schema_version);
    for (
        i,
        ShardGame(
            game_id,
            cell,
            set,
            mode,
            decks,
            named_decks,
            seats,
            seed,
            player_seed,
            teams,
            variant,
            variant_seat,
        ),
    ) in games.iter().enumerate()
    {
        if i == 1 {
            tables.reserve(1, games.len() - 1);
        }
        let (cards, fingerprint) = &sets[*set];
        let (mode_name, mode) = (mode, Mode::parse(mode).map_err(PyValueError::new_err)?);
        let strategies = seats
            .iter()
            .enumerate()
            .map(|(seat, &p)| -> PyResult<Box<dyn Strategy>> {
                let player = &players[p];
                let rng = PyRandom::new(strategy_seed(*player_seed, seat));
                Ok(Box::new(SharedNative(native(
                    &player.name,
                    &player.params,
                    rng,
                )?)))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let decks: Vec<&str> = decks.iter().map(String::as_str).collect();
        let (cards, options) = (Arc::clone(cards), GameOptions::default());
        let mut game = if *teams {
            Game::teams(cards, mode, &decks, strategies, *seed, options)
        } else {
            Game::table(cards, mode, &decks, strategies, *seed, options)
        }
        .map_err(PyValueError::new_err)?;
        game.setup();
        tables.deck_order(*game_id, &game.state);
        while !game.state.over {
            game.play_turn();
        }
        let labels: Vec<&str> = seats.iter().map(|&p| players[p].label.as_str()).collect();
        tables.add(
            &GameInfo {
                game_id: *game_id,
                cell,
                mode: mode_name,
                card_set: fingerprint,
                decks: named_decks,
                labels,
                variant,
                variant_seat: *variant_seat,
                teams: *teams,
            },
            &game.state,
        );
    }
    Ok(tables.finish())
}

/// Each table's columns as (name, pyarrow type name), by table (the test that `pipelines/schema.py`
/// declares the same).
#[pyfunction]
pub fn table_columns() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    TABLES
        .iter()
        .map(|&(name, columns)| {
            (
                name,
                columns.iter().map(|&(c, ty)| (c, ty.name())).collect(),
            )
        })
        .collect()
}
