//! `sim._core.CoreGame`: a game whose state stays in the core. `sim.game.Game` holds one (through its
//! `sim.state.GameState`) and calls one typed method per rule operation; Python reads the state's fields
//! through it (fields.rs) and edits a position only through a builder (`load`).
//!
//! An operation that may ask the players takes the seats first (`SeatArg`: a Python asker, or a player the
//! core has). While a Python strategy chooses, the state is the running operation's, and every read of this
//! game (its fields, its `PlayerView`s, its queries) answers from it in place: a strategy gets a handle, not
//! a copy. Changing the game then is refused (the operation owns it).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use pyo3::exceptions::{PyAssertionError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use tk_engine::cards::{intern, BeingId, CardSet, FlareId};
use tk_engine::decisions::{Action, Decision, Opt, PlayerView, Strategy};
use tk_engine::game::{team_state, Game, Players};
use tk_engine::state::{GameState, Mode, Piece, SharedRng};

use crate::fields::{self, random_from_py, random_into_py, Ctx, Value};
use crate::players::{native, SeatArg, SharedNative};
use crate::python_player::{raise_in_game, run_catching, Converter};
use crate::Cards;

/// A game whose state lives in the core.
#[pyclass(unsendable, module = "sim._core")]
pub struct CoreGame {
    cards: Py<Cards>,
    /// None while an operation runs (the operation's `Game` owns the state then).
    state: RefCell<Option<Box<GameState>>>,
    /// The running operation's state while a Python strategy chooses (null otherwise).
    live: Cell<*const GameState>,
    /// The decision being asked: its options as handed to Python, and as the core has them.
    offered: RefCell<Option<(Py<PyList>, Vec<Opt>)>>,
    ask_all: Cell<bool>,
}

impl CoreGame {
    pub(crate) fn over(cards: Py<Cards>, state: impl Into<Box<GameState>>) -> CoreGame {
        CoreGame {
            cards,
            state: RefCell::new(Some(state.into())),
            live: Cell::new(std::ptr::null()),
            offered: RefCell::new(None),
            ask_all: Cell::new(false),
        }
    }

    fn set(&self) -> &Cards {
        self.cards.get()
    }

    pub(crate) fn converter(&self) -> &Converter {
        &self.set().converter
    }

    /// Another game over `state`, with this game's cards.
    pub(crate) fn copy_over(&self, py: Python<'_>, state: impl Into<Box<GameState>>) -> CoreGame {
        CoreGame::over(self.cards.clone_ref(py), state)
    }

    /// `f` of the state: the game's, or the running operation's while a Python strategy chooses.
    pub(crate) fn with_state<T>(&self, f: impl FnOnce(&GameState) -> T) -> PyResult<T> {
        if let Some(s) = self.state.borrow().as_ref() {
            return Ok(f(s));
        }
        let ptr = self.live.get();
        if ptr.is_null() {
            return Err(PyRuntimeError::new_err(
                "the game is inside an operation that is not asking a Python strategy",
            ));
        }
        // SAFETY: non-null only while `Asker::ask` calls Python, whose frame borrows the operation's state
        // (the class is unsendable, and the state does not change during the call)
        Ok(f(unsafe { &*ptr }))
    }

    /// The options of the decision being asked, as the core has them.
    pub(crate) fn offered(&self) -> PyResult<Vec<Opt>> {
        self.offered
            .borrow()
            .as_ref()
            .map(|(_, opts)| opts.clone())
            .ok_or_else(|| PyValueError::new_err("options missing: no decision is being asked"))
    }

    /// The conversion context for `s`: read-only values (`frozen`) or a builder's.
    fn ctx<'a, 'py>(
        &'a self,
        py: Python<'py>,
        s: &GameState,
        frozen: bool,
    ) -> PyResult<Ctx<'a, 'py>> {
        let cards = self.set();
        Ok(Ctx {
            py,
            conv: &cards.converter,
            cards: &cards.inner,
            seats: s.seats,
            frozen: if frozen {
                Some(fields::frozen_list(py)?)
            } else {
                None
            },
        })
    }

    /// A rule query: the state is neither changed nor copied (copied only while a Python strategy chooses).
    fn query<T>(&self, py: Python<'_>, q: impl FnOnce(&Game) -> T) -> PyResult<T> {
        let taken = self.state.borrow_mut().take();
        let owned = taken.is_some();
        let state = match taken {
            Some(state) => state,
            None => Box::new(self.with_state(|s| s.clone())?),
        };
        let game = Game::around(state, Players::Nobody);
        let out = run_catching(|| q(&game));
        if owned {
            *self.state.borrow_mut() = Some(game.state);
        }
        out.map_err(|e| game_error(py, e))
    }

    /// A rule operation: the players of `seats` answer its decisions; the state after it stays here.
    fn operate<T>(
        slf: &Bound<'_, Self>,
        seats: Vec<SeatArg>,
        op: impl FnOnce(&mut Game) -> T,
    ) -> PyResult<T> {
        let py = slf.py();
        let this = slf.borrow();
        let Some(state) = this.state.borrow_mut().take() else {
            return Err(PyRuntimeError::new_err(
                "the game is in an operation: it can be read while a strategy chooses, not changed",
            ));
        };
        let mut streams = Vec::new();
        let mut players: Vec<Box<dyn Strategy>> = Vec::with_capacity(seats.len());
        let mut failed = None;
        for seat in seats {
            players.push(match seat {
                SeatArg::Asker(asker) => Box::new(Asker {
                    asker,
                    game: slf.clone().unbind(),
                    conv: Arc::clone(&this.set().converter),
                }),
                SeatArg::Kept(player) => Box::new(SharedNative(player)),
                SeatArg::Native(name, params, rng) => {
                    match random_from_py(rng.bind(py)).and_then(|r| native(&name, &params, r)) {
                        Ok(player) => {
                            streams.push((Rc::clone(&player), rng));
                            Box::new(SharedNative(player))
                        }
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    }
                }
            });
        }
        if let Some(e) = failed {
            *this.state.borrow_mut() = Some(state);
            return Err(e);
        }
        let mut game = Game::around(state, Players::Seats(players));
        game.ask_all = this.ask_all.get();
        let out = run_catching(|| op(&mut game));
        *this.state.borrow_mut() = Some(game.state);
        for (player, rng) in streams {
            random_into_py(&player.borrow().stream(), rng.bind(py))?;
        }
        out.map_err(|e| game_error(py, e))
    }

    /// A change of the state that asks nobody (a piece operation).
    fn change<T>(&self, py: Python<'_>, f: impl FnOnce(&mut GameState) -> T) -> PyResult<T> {
        let mut guard = self.state.borrow_mut();
        let Some(state) = guard.as_mut() else {
            return Err(PyRuntimeError::new_err(
                "the game is in an operation: it can be read while a strategy chooses, not changed",
            ));
        };
        run_catching(|| f(state)).map_err(|e| game_error(py, e))
    }
}

/// The core's panics as the Python API's errors: a broken invariant is `sim.state.InvariantError`, a
/// decision without options `sim.decisions.IllegalChoice`; a Python strategy's exception stays itself.
fn game_error(py: Python<'_>, e: PyErr) -> PyErr {
    let message = e.value(py).to_string();
    let (module, class, text) = if e.is_instance_of::<PyAssertionError>(py) {
        match message.strip_prefix("invariant broken: ") {
            Some(rest) => ("sim.state", "InvariantError", rest.to_string()),
            None => return e,
        }
    } else if e.is_instance_of::<PyRuntimeError>(py)
        && message.starts_with("no options for decision ")
    {
        ("sim.decisions", "IllegalChoice", message)
    } else {
        return e;
    };
    match py
        .import(module)
        .and_then(|m| m.getattr(class)?.call1((text,)))
    {
        Ok(error) => PyErr::from_value(error),
        Err(err) => err,
    }
}

fn being(card: u16) -> BeingId {
    BeingId(card)
}

fn action(kind: &str, card: Option<u16>) -> PyResult<Action> {
    Ok(match (kind, card) {
        ("place", None) => Action::Place,
        ("summon", Some(b)) => Action::Summon(being(b)),
        ("discard", None) => Action::Discard,
        ("flare", None) => Action::Flare,
        ("end", None) => Action::End,
        ("warp", Some(b)) => Action::Warp(being(b)),
        ("pass", None) => Action::Pass,
        ("thaw", None) => Action::Thaw,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown action {kind:?} with card {card:?}"
            )))
        }
    })
}

#[pymethods]
impl CoreGame {
    /// A game before its setup: `decks` by seat (2 for a duel, 3-4 for a melee, 4 for a team game).
    #[new]
    #[pyo3(signature = (cards, mode, decks, seed, max_turns=200, teams=false, strict=false, ask_all=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        cards: Py<Cards>,
        mode: &str,
        decks: Vec<String>,
        seed: u64,
        max_turns: u32,
        teams: bool,
        strict: bool,
        ask_all: bool,
    ) -> PyResult<Self> {
        let mode = Mode::parse(mode).map_err(PyValueError::new_err)?;
        let set: Arc<CardSet> = Arc::clone(&cards.get().inner);
        let d = decks
            .iter()
            .map(|n| set.deck_index(n))
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        let fits = if teams {
            d.len() == 4
        } else {
            (2..=4).contains(&d.len())
        };
        if !fits {
            return Err(PyValueError::new_err(format!("{} decks", d.len())));
        }
        let mut state = if teams {
            team_state(set, mode, &d, seed, max_turns)
        } else {
            GameState::with_seats(set, mode, &d, seed, max_turns)
        };
        state.strict = strict;
        let game = CoreGame::over(cards, state);
        game.ask_all.set(ask_all);
        Ok(game)
    }

    /// The Python card set (`sim.cards.CardSet`) the game is played with.
    #[getter]
    fn cards(&self, py: Python<'_>) -> PyObject {
        self.set().python.clone_ref(py)
    }

    /// Ask decisions with a single option too (strict tests of the action flow).
    #[getter]
    fn ask_all(&self) -> bool {
        self.ask_all.get()
    }

    #[setter]
    fn set_ask_all(&self, value: bool) {
        self.ask_all.set(value)
    }

    // ----- the state, read only
    /// The field `name` of the state (`sim.state.GameState`'s attribute), or a group (`counters`, `record`)
    /// as a dict; sequences are tuples. KeyError for a name the state does not have.
    fn field<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.with_state(|s| fields::get(s, name, &self.ctx(py, s, true)?))?
    }

    /// Every field, groups as dicts, sequences as lists: what a `sim.state.StateBuilder` edits.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.with_state(|s| fields::get_all(s, &self.ctx(py, s, false)?))?
    }

    /// Replace the state by `values` (every field, as `fields` gives them), each value checked, then record
    /// `points`: (turn, seat, source, amount, colour or None) each. Nothing changes if a value is wrong.
    fn load(
        &self,
        py: Python<'_>,
        values: &Bound<'_, PyDict>,
        points: Vec<(u32, usize, String, i32, Option<usize>)>,
    ) -> PyResult<()> {
        let mut guard = self.state.borrow_mut();
        let Some(state) = guard.as_mut() else {
            return Err(PyRuntimeError::new_err(
                "the game is in an operation: it can be read while a strategy chooses, not changed",
            ));
        };
        let mut new = state.clone();
        fields::set_all(&mut new, values, &self.ctx(py, state, false)?)?;
        for (turn, seat, source, amount, colour) in points {
            if seat >= new.seats || colour.is_some_and(|c| c >= new.seats) {
                return Err(PyValueError::new_err(format!(
                    "points of seat {seat} (colour {colour:?}) in a game of {} seats",
                    new.seats
                )));
            }
            match colour {
                None => new.record.points(turn, seat, intern(&source), amount),
                Some(c) => new
                    .record
                    .colour_points(turn, seat, c, intern(&source), amount),
            }
        }
        *state = new;
        Ok(())
    }

    /// How many events the record holds.
    fn event_count(&self) -> PyResult<usize> {
        self.with_state(|s| s.record.events.len())
    }

    /// The record's events from `since` on, as the JSON list `sim.record.events_from_json` reads.
    fn events_json(&self, since: usize) -> PyResult<String> {
        self.with_state(|s| {
            let mut out = String::from("[");
            for (i, e) in s.record.events[since.min(s.record.events.len())..]
                .iter()
                .enumerate()
            {
                if i > 0 {
                    out.push(',');
                }
                e.write_json(&mut out);
            }
            out.push(']');
            out
        })
    }

    /// A team game: `seat`'s personal cards (from his side's slots or the bench), as a dict.
    fn member<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyAny>> {
        self.with_state(|s| {
            let m = crate::view::member(s, seat)?;
            m.to_py(&self.ctx(py, s, true)?)
        })?
    }

    fn piece_at(&self, sq: u8) -> PyResult<Option<Piece>> {
        self.with_state(|s| s.piece_at(sq))
    }

    fn occupied(&self) -> PyResult<u128> {
        self.with_state(GameState::occupied)
    }

    fn score(&self, player: usize) -> PyResult<i32> {
        self.with_state(|s| s.score(player))
    }

    fn seat_of(&self, side: usize) -> PyResult<usize> {
        self.with_state(|s| s.seat_of(side))
    }

    /// Whether `options` is the very option list of the decision being asked (a core player asked from
    /// Python then takes the core's options without encoding them again).
    fn offers(&self, py: Python<'_>, options: &Bound<'_, PyAny>) -> bool {
        self.offered.borrow().as_ref().is_some_and(|(list, opts)| {
            list.bind(py).is(options) && list.bind(py).len() == opts.len()
        })
    }

    /// A copy for lookahead: the record starts empty and `rng`'s stream (a `random.Random`, copied) replaces
    /// the game's.
    fn clone(&self, py: Python<'_>, rng: &Bound<'_, PyAny>) -> PyResult<CoreGame> {
        let shared: SharedRng = Rc::new(RefCell::new(random_from_py(rng)?));
        let copy = self.with_state(|s| s.clone_for(&shared))?;
        Ok(self.copy_over(py, copy))
    }

    /// Raise `sim.state.InvariantError` where the state breaks a rule.
    fn check_invariants(&self, py: Python<'_>) -> PyResult<()> {
        self.query(py, |g| {
            if let Err(e) = g.state.check_invariants() {
                panic!("invariant broken: {e}");
            }
        })
    }

    /// Whether `player` meets the task condition `name` now.
    fn condition(&self, py: Python<'_>, name: &str, player: usize) -> PyResult<bool> {
        let f = tk_engine::tasks::condition(name)
            .ok_or_else(|| PyValueError::new_err(format!("unknown condition {name:?}")))?;
        self.query(py, |g| f(&g.state, player))
    }

    // ----- the rule operations (sim.game.Game's)
    fn setup(slf: &Bound<'_, Self>, seats: Vec<SeatArg>) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.setup())
    }

    fn deal_task_row(slf: &Bound<'_, Self>, seats: Vec<SeatArg>) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.deal_task_row())
    }

    fn play_turn(slf: &Bound<'_, Self>, seats: Vec<SeatArg>) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.play_turn())
    }

    /// Turns until the game is over.
    fn play_turns(slf: &Bound<'_, Self>, seats: Vec<SeatArg>) -> PyResult<()> {
        Self::operate(slf, seats, |g| {
            while !g.state.over {
                g.play_turn();
            }
        })
    }

    /// The start of a turn (its number, actions and what lasts a turn); `finish_turn` plays the rest.
    fn begin_turn(slf: &Bound<'_, Self>, seats: Vec<SeatArg>) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.begin_turn())
    }

    fn finish_turn(slf: &Bound<'_, Self>, seats: Vec<SeatArg>) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.finish_turn())
    }

    /// The options of `p`'s action decision, as `sim.decisions.Action` values.
    fn action_options<'py>(&self, py: Python<'py>, p: usize) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let options = self.query(py, |g| g.action_options(p))?;
        let conv = &self.set().converter;
        options.into_iter().map(|o| conv.option(py, o)).collect()
    }

    /// `p` takes the action `kind` (with the card of a summon or a warp).
    #[pyo3(signature = (seats, p, kind, card=None))]
    fn apply_action(
        slf: &Bound<'_, Self>,
        seats: Vec<SeatArg>,
        p: usize,
        kind: &str,
        card: Option<u16>,
    ) -> PyResult<()> {
        let a = action(kind, card)?;
        Self::operate(slf, seats, |g| g.apply_action(p, a))
    }

    fn place_action(slf: &Bound<'_, Self>, seats: Vec<SeatArg>, p: usize) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.place_action(p))
    }

    fn discard_action(slf: &Bound<'_, Self>, seats: Vec<SeatArg>, p: usize) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.discard_action(p))
    }

    /// `p` returns a card of his hand: a being or a flare (a card object of the game's set).
    fn return_card(
        slf: &Bound<'_, Self>,
        seats: Vec<SeatArg>,
        p: usize,
        card: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let card = {
            let this = slf.borrow();
            this.with_state(|s| {
                let c = this.ctx(slf.py(), s, false)?;
                BeingId::from_py(card, &c)
                    .map(Opt::Being)
                    .or_else(|_| FlareId::from_py(card, &c).map(Opt::Flare))
            })??
        };
        Self::operate(slf, seats, |g| g.return_card(p, card))
    }

    /// The placements of the being `card` (its index) that `p` may summon now, as `Placement` objects.
    fn legal_placements<'py>(
        &self,
        py: Python<'py>,
        p: usize,
        card: u16,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let found = self.query(py, |g| g.legal_placements(p, being(card)))?;
        let conv = &self.set().converter;
        found
            .into_iter()
            .map(|i| conv.option(py, Opt::Placement(being(card), i)))
            .collect()
    }

    fn has_placement(&self, py: Python<'_>, p: usize, card: u16) -> PyResult<bool> {
        self.query(py, |g| g.has_placement(p, being(card)))
    }

    /// `p` summons the being `card` with its placement number `placement`.
    fn summon(
        slf: &Bound<'_, Self>,
        seats: Vec<SeatArg>,
        p: usize,
        card: u16,
        placement: u16,
    ) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.summon(p, being(card), placement))
    }

    /// Melee: the placements of `card` that need one opponent's piece, each as (Placement, the colour whose
    /// improvisation may pay for it).
    fn improvised_placements<'py>(
        &self,
        py: Python<'py>,
        p: usize,
        card: u16,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let found = self.query(py, |g| g.improvised_placements(p, being(card)))?;
        let conv = &self.set().converter;
        found
            .into_iter()
            .map(|(i, colour)| conv.option(py, Opt::Improvised(being(card), i, colour)))
            .collect()
    }

    fn summon_improvised(
        slf: &Bound<'_, Self>,
        seats: Vec<SeatArg>,
        p: usize,
        card: u16,
        placement: u16,
        colour: usize,
    ) -> PyResult<()> {
        Self::operate(slf, seats, |g| {
            g.summon_improvised(p, being(card), placement, colour)
        })
    }

    /// Which halves of the flare `flare` (its index) `p` may resolve now: bit 1 upper, bit 2 lower.
    fn flare_halves(&self, py: Python<'_>, p: usize, flare: u8) -> PyResult<u8> {
        self.query(py, |g| g.flare_halves(p, FlareId(flare)))
    }

    fn flare_halves_against(
        &self,
        py: Python<'_>,
        p: usize,
        opponent: usize,
        flare: u8,
    ) -> PyResult<u8> {
        self.query(py, |g| g.flare_halves_against(p, opponent, FlareId(flare)))
    }

    fn invoke_flare(slf: &Bound<'_, Self>, seats: Vec<SeatArg>, p: usize) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.invoke_flare(p))
    }

    fn end_turn(slf: &Bound<'_, Self>, seats: Vec<SeatArg>, p: usize) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.end_turn(p))
    }

    /// The tasks `p` could claim now, as `Task` objects.
    fn claimable_tasks<'py>(&self, py: Python<'py>, p: usize) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let found = self.query(py, |g| g.claimable_tasks(p))?;
        let conv = &self.set().converter;
        found.into_iter().map(|t| conv.task(py, t.0)).collect()
    }

    fn claim_task(slf: &Bound<'_, Self>, seats: Vec<SeatArg>, p: usize) -> PyResult<()> {
        Self::operate(slf, seats, |g| g.claim_task(p))
    }

    // ----- the piece operations every rule is made of (recorded with `cause`; no decisions)
    /// Put a piece of `rank` from `player`'s stock on the empty square `sq`; False when the stock has none.
    fn place(
        &self,
        py: Python<'_>,
        player: usize,
        rank: u8,
        sq: u8,
        cause: &str,
    ) -> PyResult<bool> {
        self.change(py, |s| s.place(player, rank, sq, intern(cause)))
    }

    /// Remove the piece on `sq` to its owner's stock (an enemy piece counts as destroyed this turn, if
    /// `counts`); returns (owner, rank), or None where the square is empty.
    #[pyo3(signature = (sq, cause, counts=true))]
    fn destroy(
        &self,
        py: Python<'_>,
        sq: u8,
        cause: &str,
        counts: bool,
    ) -> PyResult<Option<Piece>> {
        self.change(py, |s| s.destroy(sq, intern(cause), counts))
    }

    /// Move the piece on `src` to `dst`, destroying what stands there; returns the destroyed piece.
    #[pyo3(name = "move")]
    fn move_piece(&self, py: Python<'_>, src: u8, dst: u8, cause: &str) -> PyResult<Option<Piece>> {
        self.change(py, |s| s.move_piece(src, dst, intern(cause)))
    }

    fn upgrade(&self, py: Python<'_>, sq: u8, cause: &str) -> PyResult<bool> {
        self.change(py, |s| s.upgrade(sq, intern(cause)))
    }

    fn downgrade(&self, py: Python<'_>, sq: u8, cause: &str) -> PyResult<bool> {
        self.change(py, |s| s.downgrade(sq, intern(cause)))
    }

    /// Replace the enemy piece on `sq` by `player`'s piece of the same rank (or `rank`).
    #[pyo3(signature = (sq, player, cause, rank=None))]
    fn convert(
        &self,
        py: Python<'_>,
        sq: u8,
        player: usize,
        cause: &str,
        rank: Option<u8>,
    ) -> PyResult<bool> {
        self.change(py, |s| s.convert(sq, player, intern(cause), rank))
    }
}

/// A seat of a `CoreGame` answered in Python: `asker(player, kind, options, card, prompt)` gives the index
/// of the option chosen. Meanwhile the game answers reads from the operation's state.
struct Asker {
    asker: PyObject,
    game: Py<CoreGame>,
    conv: Arc<Converter>,
}

impl Asker {
    fn ask(&mut self, py: Python<'_>, view: &PlayerView, d: &Decision) -> PyResult<usize> {
        let options = d
            .options
            .iter()
            .map(|&o| self.conv.option(py, o))
            .collect::<PyResult<Vec<_>>>()?;
        let options = PyList::new(py, options)?;
        let game = self.game.borrow(py);
        let before = game.live.replace(view.sandbox_state() as *const GameState);
        let asked = game
            .offered
            .replace(Some((options.clone().unbind(), d.options.to_vec())));
        let answer =
            self.asker
                .bind(py)
                .call1((d.player, d.kind.as_str(), options, d.card, d.prompt));
        game.live.set(before);
        game.offered.replace(asked);
        answer?.extract()
    }
}

impl Strategy for Asker {
    fn name(&self) -> &str {
        "python"
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        Python::with_gil(|py| match self.ask(py, view, decision) {
            Ok(i) => i,
            Err(e) => raise_in_game(e),
        })
    }
}
