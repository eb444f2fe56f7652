//! Tash-Kalar rules engine: a port of the Python engine in `sim/` that produces identical records.

pub mod board;
pub mod cards;
pub mod decisions;
pub mod effects;
pub mod game;
pub mod patterns;
pub mod players;
pub mod ranks;
pub mod record;
pub mod rng;
pub mod state;
pub mod tasks;
