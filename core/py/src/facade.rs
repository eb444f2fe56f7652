//! The Python `Game` over the core: every rule operation of `sim.game.Game` is one call of `game_op`.
//!
//! Python keeps the state (`sim.state.GameState`, a plain container) and hands it over as a snapshot: a
//! dict of the state's fields with cards as their indices (`GameState.to_core`). The core rebuilds its
//! own state from it, the random stream included (the 624 words and index of `random.getstate()`), runs
//! the operation, and gives back a snapshot of the state after it with the record's new events as JSON
//! (`GameState.from_core` writes it into the Python state; a query gives none back). A decision of the
//! operation goes to the Python `asker` with the live state (`LiveState`), not a copy: what a `PlayerView`
//! reads is answered from it, and a snapshot is taken only where Python uses the rest of its state, so that
//! the Python state, its views and its random stream are those of the game when the strategy chooses; the
//! state comes back after the choice only then (a strategy's sandbox may share the stream, as Python
//! lookahead does, or a test may change the state).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use tk_engine::board::Bits;
use tk_engine::cards::{intern, BeingId, CardSet, FlareId, TaskId};
use tk_engine::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use tk_engine::game::{Game, Players};
use tk_engine::players::expert::Expert;
use tk_engine::players::lookahead::Lookahead;
use tk_engine::players::mc::{McParams, MonteCarlo};
use tk_engine::players::params::{ExpertParams, ParamValue, Params, PlannerParams, SwiftParams};
use tk_engine::players::planner::Planner;
use tk_engine::players::random::RandomStrategy;
use tk_engine::players::swift::Swift;
use tk_engine::rng::PyRandom;
use tk_engine::state::{
    EndTrigger, GameState, Member, Mode, PerSeat, Teams, TurnCounters, MAX_SEATS, TEAM_SEATS,
};

use crate::python_player::{raise_in_game, run_catching, Converter};
use crate::Cards;

fn item<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v
            .extract()
            .map_err(|e| PyValueError::new_err(format!("state field {key}: {e}"))),
        None => Err(PyValueError::new_err(format!("state field {key} missing"))),
    }
}

fn known(s: &str, names: &[&'static str]) -> PyResult<&'static str> {
    names
        .iter()
        .copied()
        .find(|n| *n == s)
        .ok_or_else(|| PyValueError::new_err(format!("unknown value {s:?}")))
}

fn ids<T, U: Copy>(v: Vec<U>, f: impl Fn(U) -> T) -> Vec<T> {
    v.into_iter().map(f).collect()
}

fn random_from(words: Vec<u32>) -> PyResult<PyRandom> {
    let Some((&index, mt)) = words.split_last() else {
        return Err(PyValueError::new_err("empty random state"));
    };
    PyRandom::from_state(mt, index as usize).map_err(PyValueError::new_err)
}

/// The per-seat values of a snapshot (one per seat) in the core's per-seat array.
fn per_seat<T: Default>(values: Vec<T>) -> PyResult<PerSeat<T>> {
    if values.len() > MAX_SEATS {
        return Err(PyValueError::new_err(format!("{} seats", values.len())));
    }
    let mut out = PerSeat::<T>::default();
    for (slot, v) in out.iter_mut().zip(values) {
        *slot = v;
    }
    Ok(out)
}

/// A snapshot field with one value per seat.
fn seat_item<'py, T: FromPyObject<'py> + Default>(
    d: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<PerSeat<T>> {
    per_seat(item::<Vec<T>>(d, key)?)
}

/// The seats in play of a per-seat array.
fn seated<T: Clone>(s: &GameState, v: &PerSeat<T>) -> Vec<T> {
    v[..s.seats].to_vec()
}

/// The core's state from a snapshot of the Python state.
fn state_from(cards: &Arc<CardSet>, d: &Bound<'_, PyDict>) -> PyResult<GameState> {
    let mode = Mode::parse(&item::<String>(d, "mode")?).map_err(PyValueError::new_err)?;
    let names: Vec<String> = item(d, "decks")?;
    let decks = names
        .iter()
        .map(|n| cards.deck_index(n))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PyValueError::new_err)?;
    if !(2..=MAX_SEATS).contains(&decks.len()) {
        return Err(PyValueError::new_err(format!("{} seats", decks.len())));
    }
    let mut s = GameState::with_seats(Arc::clone(cards), mode, &decks, 0, item(d, "max_turns")?);
    *s.rng.borrow_mut() = random_from(item(d, "rng")?)?;
    s.pieces = seat_item(d, "pieces")?;
    s.tokens = seat_item(d, "tokens")?;
    s.legend_stock = seat_item(d, "legend_stock")?;
    s.token_total = seat_item(d, "token_total")?;
    s.legend_total = seat_item(d, "legend_total")?;
    let beings = |key: &str| -> PyResult<PerSeat<Vec<BeingId>>> {
        per_seat(
            item::<Vec<Vec<u16>>>(d, key)?
                .into_iter()
                .map(|x| ids(x, BeingId))
                .collect(),
        )
    };
    s.deck = beings("deck")?;
    s.hand = beings("hand")?;
    s.legend_hand = beings("legend_hand")?;
    s.discarded = beings("discarded")?;
    s.flare_hand = per_seat(
        item::<Vec<Vec<u8>>>(d, "flare_hand")?
            .into_iter()
            .map(|x| ids(x, FlareId))
            .collect(),
    )?;
    s.claimed = per_seat(
        item::<Vec<Vec<u8>>>(d, "claimed")?
            .into_iter()
            .map(|x| ids(x, TaskId))
            .collect(),
    )?;
    s.legend_deck = ids(item(d, "legend_deck")?, BeingId);
    s.legend_discard = ids(item(d, "legend_discard")?, BeingId);
    s.flare_deck = ids(item(d, "flare_deck")?, FlareId);
    s.flare_discard = ids(item(d, "flare_discard")?, FlareId);
    s.task_deck = ids(item(d, "task_deck")?, TaskId);
    s.task_row = ids(item(d, "task_row")?, TaskId);
    s.next_task = item::<Option<u8>>(d, "next_task")?.map(TaskId);
    s.task_points = seat_item(d, "task_points")?;
    s.unnamed_task_points = seat_item(d, "unnamed_task_points")?;
    s.dm_points = seat_item(d, "dm_points")?;
    s.colour_points = per_seat(
        item::<Vec<Vec<i32>>>(d, "colour_points")?
            .into_iter()
            .map(per_seat)
            .collect::<PyResult<_>>()?,
    )?;
    s.improvised = per_seat(
        item::<Vec<Vec<bool>>>(d, "improvised")?
            .into_iter()
            .map(per_seat)
            .collect::<PyResult<_>>()?,
    )?;
    s.first_player = item(d, "first_player")?;
    s.active = item(d, "active")?;
    s.turn = item(d, "turn")?;
    s.actions_left = item(d, "actions_left")?;
    s.discarded_this_turn = item(d, "discarded_this_turn")?;
    s.flare_used_this_turn = item(d, "flare_used_this_turn")?;
    s.counters = TurnCounters {
        destroyed: item(d, "destroyed")?,
        destroyed_of: seat_item(d, "destroyed_of")?,
        summoned: item(d, "summoned")?,
        extra_draws: item(d, "extra_draws")?,
        extra_legend_draws: item(d, "extra_legend_draws")?,
        extra_turn: item(d, "extra_turn")?,
        borrow_enemy_piece: item(d, "borrow_enemy_piece")?,
    };
    s.end_trigger = match item::<Option<String>>(d, "end_trigger")?.as_deref() {
        None => None,
        Some("deck") => Some(EndTrigger::Deck),
        Some("score") => Some(EndTrigger::Score),
        Some("turn-limit") => Some(EndTrigger::TurnLimit),
        Some(other) => return Err(PyValueError::new_err(format!("end trigger {other:?}"))),
    };
    s.end_trigger_player = item(d, "end_trigger_player")?;
    s.trigger_turn = item(d, "trigger_turn")?;
    s.turns_after_trigger = item(d, "turns_after_trigger")?;
    s.in_extra_turn = item(d, "in_extra_turn")?;
    s.over = item(d, "over")?;
    s.strict = item(d, "strict")?;
    let r = &mut s.record;
    r.set_points_totals(&item::<Vec<i32>>(d, "points")?);
    for (seat, row) in item::<Vec<Vec<i32>>>(d, "colour_totals")?
        .iter()
        .enumerate()
    {
        r.set_colour_totals(seat, row);
    }
    r.first_player = item(d, "record_first_player")?;
    r.scores = item(d, "scores")?;
    r.winner = item(d, "winner")?;
    r.end_reason = known(
        &item::<String>(d, "end_reason")?,
        &["", "deck", "score", "turn-limit"],
    )?;
    r.tiebreak = known(
        &item::<String>(d, "tiebreak")?,
        &["", "upgraded", "pieces", "tie", "second-lowest", "highest"],
    )?;
    r.colour_scores = item(d, "colour_scores")?;
    r.places = item(d, "places")?;
    r.turns = item(d, "turns")?;
    // Etherweave
    s.pending = per_seat(
        item::<Vec<Option<u16>>>(d, "pending")?
            .into_iter()
            .map(|c| c.map(BeingId))
            .collect(),
    )?;
    // Nethervoid
    s.gateway = seat_item(d, "gateway")?;
    s.gateway_suspended = seat_item(d, "gateway_suspended")?;
    s.possessed = seat_item(d, "possessed")?;
    s.hound_return = per_seat(
        item::<Vec<Option<u16>>>(d, "hound_return")?
            .into_iter()
            .map(|c| c.map(BeingId))
            .collect(),
    )?;
    // Everfrost
    s.frozen = per_seat(
        item::<Vec<Option<u16>>>(d, "frozen")?
            .into_iter()
            .map(|c| c.map(BeingId))
            .collect(),
    )?;
    s.removed = seat_item(d, "removed")?;
    s.action_loss = seat_item(d, "action_loss")?;
    s.stasis = per_seat(
        item::<Vec<Option<(usize, u8)>>>(d, "stasis")?
            .into_iter()
            .collect(),
    )?;
    s.warp_turn = tk_engine::etherweave::WarpTurn {
        void_squares: item(d, "void_squares")?,
        extra_destruction: item(d, "extra_destruction")?,
        warped: item(d, "warped")?,
    };
    if let Some(t) = d.get_item("teams")? {
        if !t.is_none() {
            let t = t.downcast::<PyDict>()?;
            s.teams = Some(Box::new(teams_from(cards, t)?));
            s.sync_record_seats();
        }
    }
    Ok(s)
}

/// A team game's fields from a snapshot (`GameState.to_core`: holder, bench, turn_seat, controller,
/// resolving); a bench member's deck is named.
fn teams_from(cards: &Arc<CardSet>, d: &Bound<'_, PyDict>) -> PyResult<Teams> {
    let holder: [usize; 2] = item(d, "holder")?;
    let members: Vec<Bound<'_, PyDict>> = item(d, "bench")?;
    if members.len() != 2
        || holder
            .iter()
            .enumerate()
            .any(|(side, &h)| h % 2 != side || h >= TEAM_SEATS)
    {
        return Err(PyValueError::new_err(
            "teams: two sides, each held by one of its seats",
        ));
    }
    let member = |m: &Bound<'_, PyDict>| -> PyResult<Member> {
        let beings =
            |key: &str| -> PyResult<Vec<BeingId>> { Ok(ids(item::<Vec<u16>>(m, key)?, BeingId)) };
        Ok(Member {
            deck_index: cards
                .deck_index(&item::<String>(m, "deck_name")?)
                .map_err(PyValueError::new_err)?,
            deck: beings("deck")?,
            hand: beings("hand")?,
            flare_hand: ids(item::<Vec<u8>>(m, "flare_hand")?, FlareId),
            discarded: beings("discarded")?,
            pending: item::<Option<u16>>(m, "pending")?.map(BeingId),
            stasis: item(m, "stasis")?,
            frozen: item::<Option<u16>>(m, "frozen")?.map(BeingId),
            hound_return: item::<Option<u16>>(m, "hound_return")?.map(BeingId),
        })
    };
    let controller: Option<usize> = item(d, "controller")?;
    Ok(Teams {
        holder,
        bench: [member(&members[0])?, member(&members[1])?],
        turn_seat: item(d, "turn_seat")?,
        controller,
        resolving: item::<Option<String>>(d, "resolving")?.map(|c| intern(&c)),
    })
}

/// A team game's fields for `GameState.from_core` (None outside team games).
fn teams_snapshot<'py>(py: Python<'py>, s: &GameState) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(t) = s.teams.as_deref() else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    d.set_item("holder", t.holder.to_vec())?;
    let mut bench = Vec::with_capacity(2);
    for m in &t.bench {
        let b = PyDict::new(py);
        b.set_item("deck_name", s.cards.decks[m.deck_index].name)?;
        b.set_item("deck", m.deck.iter().map(|x| x.0).collect::<Vec<u16>>())?;
        b.set_item("hand", m.hand.iter().map(|x| x.0).collect::<Vec<u16>>())?;
        b.set_item(
            "flare_hand",
            m.flare_hand.iter().map(|x| x.0).collect::<Vec<u8>>(),
        )?;
        b.set_item(
            "discarded",
            m.discarded.iter().map(|x| x.0).collect::<Vec<u16>>(),
        )?;
        b.set_item("pending", m.pending.map(|x| x.0))?;
        b.set_item("stasis", m.stasis)?;
        b.set_item("frozen", m.frozen.map(|x| x.0))?;
        b.set_item("hound_return", m.hound_return.map(|x| x.0))?;
        bench.push(b);
    }
    d.set_item("bench", bench)?;
    d.set_item("turn_seat", t.turn_seat)?;
    d.set_item("controller", t.controller)?;
    d.set_item("resolving", t.resolving)?;
    Ok(Some(d))
}

/// A snapshot of the core's state for `GameState.from_core`; `events` is the JSON list of the record's
/// events not sent yet (`sent` counts those of the operation Python has).
fn snapshot<'py>(
    py: Python<'py>,
    s: &GameState,
    sent: &Cell<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let n = s.seats;
    let b2 = |v: &PerSeat<Vec<BeingId>>| -> Vec<Vec<u16>> {
        v[..n]
            .iter()
            .map(|h| h.iter().map(|b| b.0).collect())
            .collect()
    };
    let bs = |v: &[BeingId]| -> Vec<u16> { v.iter().map(|b| b.0).collect() };
    let fs = |v: &[FlareId]| -> Vec<u8> { v.iter().map(|f| f.0).collect() };
    let ts = |v: &[TaskId]| -> Vec<u8> { v.iter().map(|t| t.0).collect() };
    let pieces: Vec<[Bits; 3]> = seated(s, &s.pieces);
    d.set_item("pieces", pieces)?;
    d.set_item("tokens", seated(s, &s.tokens))?;
    d.set_item("legend_stock", seated(s, &s.legend_stock))?;
    d.set_item("token_total", seated(s, &s.token_total))?;
    d.set_item("legend_total", seated(s, &s.legend_total))?;
    d.set_item("deck", b2(&s.deck))?;
    d.set_item("hand", b2(&s.hand))?;
    d.set_item("legend_hand", b2(&s.legend_hand))?;
    d.set_item("discarded", b2(&s.discarded))?;
    let flare_hands: Vec<Vec<u8>> = s.flare_hand[..n].iter().map(|h| fs(h)).collect();
    d.set_item("flare_hand", flare_hands)?;
    let claimed: Vec<Vec<u8>> = s.claimed[..n].iter().map(|c| ts(c)).collect();
    d.set_item("claimed", claimed)?;
    d.set_item("legend_deck", bs(&s.legend_deck))?;
    d.set_item("legend_discard", bs(&s.legend_discard))?;
    d.set_item("flare_deck", fs(&s.flare_deck))?;
    d.set_item("flare_discard", fs(&s.flare_discard))?;
    d.set_item("task_deck", ts(&s.task_deck))?;
    d.set_item("task_row", ts(&s.task_row))?;
    d.set_item("next_task", s.next_task.map(|t| t.0))?;
    d.set_item("task_points", seated(s, &s.task_points))?;
    d.set_item("unnamed_task_points", seated(s, &s.unnamed_task_points))?;
    d.set_item("dm_points", seated(s, &s.dm_points))?;
    let square = |v: &PerSeat<PerSeat<i32>>| -> Vec<Vec<i32>> {
        v[..n].iter().map(|row| row[..n].to_vec()).collect()
    };
    d.set_item("colour_points", square(&s.colour_points))?;
    let improvised: Vec<Vec<bool>> = s.improvised[..n]
        .iter()
        .map(|row| row[..n].to_vec())
        .collect();
    d.set_item("improvised", improvised)?;
    d.set_item("first_player", s.first_player)?;
    d.set_item("active", s.active)?;
    d.set_item("turn", s.turn)?;
    d.set_item("actions_left", s.actions_left)?;
    d.set_item("discarded_this_turn", s.discarded_this_turn)?;
    d.set_item("flare_used_this_turn", s.flare_used_this_turn)?;
    let c = &s.counters;
    d.set_item("destroyed", c.destroyed)?;
    d.set_item("destroyed_of", seated(s, &c.destroyed_of))?;
    d.set_item("summoned", c.summoned.clone())?;
    d.set_item("extra_draws", c.extra_draws)?;
    d.set_item("extra_legend_draws", c.extra_legend_draws)?;
    d.set_item("extra_turn", c.extra_turn)?;
    d.set_item("borrow_enemy_piece", c.borrow_enemy_piece)?;
    d.set_item("end_trigger", s.end_trigger.map(EndTrigger::as_str))?;
    d.set_item("end_trigger_player", s.end_trigger_player)?;
    d.set_item("trigger_turn", s.trigger_turn)?;
    d.set_item("turns_after_trigger", s.turns_after_trigger)?;
    d.set_item("in_extra_turn", s.in_extra_turn)?;
    d.set_item("over", s.over)?;
    d.set_item("rng", random_state(&s.rng.borrow()))?;
    let r = &s.record;
    d.set_item("record_first_player", r.first_player)?;
    d.set_item("scores", r.scores.clone())?;
    d.set_item("winner", r.winner)?;
    d.set_item("end_reason", r.end_reason)?;
    d.set_item("tiebreak", r.tiebreak)?;
    d.set_item("turns", r.turns)?;
    d.set_item("colour_scores", r.colour_scores.clone())?;
    d.set_item("places", r.places.clone())?;
    d.set_item("teams", teams_snapshot(py, s)?)?;
    let points: Vec<i32> = (0..n).map(|p| r.points_total(p)).collect();
    d.set_item("points", points)?;
    let colour_totals: Vec<Vec<i32>> = (0..n)
        .map(|p| (0..n).map(|c| r.colour_total(p, c)).collect())
        .collect();
    d.set_item("colour_totals", colour_totals)?;
    // Etherweave
    let pending: Vec<Option<u16>> = s.pending[..n].iter().map(|c| c.map(|b| b.0)).collect();
    d.set_item("pending", pending)?;
    d.set_item("stasis", s.stasis[..n].to_vec())?;
    d.set_item("void_squares", s.warp_turn.void_squares)?;
    d.set_item("extra_destruction", s.warp_turn.extra_destruction)?;
    d.set_item("warped", s.warp_turn.warped)?;
    // Everfrost
    let frozen: Vec<Option<u16>> = s.frozen[..n].iter().map(|c| c.map(|b| b.0)).collect();
    d.set_item("frozen", frozen)?;
    d.set_item("removed", seated(s, &s.removed))?;
    d.set_item("action_loss", seated(s, &s.action_loss))?;
    // Nethervoid
    d.set_item("gateway", seated(s, &s.gateway))?;
    d.set_item("gateway_suspended", seated(s, &s.gateway_suspended))?;
    d.set_item("possessed", seated(s, &s.possessed))?;
    let hound: Vec<Option<u16>> = s.hound_return[..n].iter().map(|c| c.map(|b| b.0)).collect();
    d.set_item("hound_return", hound)?;
    let mut events = String::from("[");
    for (i, e) in r.events[sent.get()..].iter().enumerate() {
        if i > 0 {
            events.push(',');
        }
        e.write_json(&mut events);
    }
    events.push(']');
    sent.set(r.events.len());
    d.set_item("events", events)?;
    Ok(d)
}

/// A seat of a facade game: its decisions go to the Python `asker(player, kind, options, card, prompt,
/// live)` with the live state (`LiveState`), which answers (index, snapshot of the state after the choice,
/// or None where Python did not take the state): a strategy may change the state while it chooses (its
/// random stream, shared with a sandbox, or a test's counters), and the game goes on from the state the
/// strategy left.
struct Asker {
    asker: PyObject,
    conv: Arc<Converter>,
    after: Option<Py<PyDict>>,
    sent: Rc<Cell<usize>>,
}

impl Asker {
    fn ask(&mut self, py: Python<'_>, view: &PlayerView, d: &Decision) -> PyResult<usize> {
        let options = d
            .options
            .iter()
            .map(|&o| self.conv.option(py, o))
            .collect::<PyResult<Vec<_>>>()?;
        let state = view.sandbox_state();
        let options = PyList::new(py, options)?;
        let live = Py::new(
            py,
            LiveState {
                state: Cell::new(state as *const GameState),
                sent: Rc::clone(&self.sent),
                conv: Arc::clone(&self.conv),
                options: options.clone().unbind(),
                opts: d.options.to_vec(),
            },
        )?;
        let answer = self.asker.bind(py).call1((
            d.player,
            d.kind.as_str(),
            options,
            d.card,
            d.prompt,
            live.clone_ref(py),
        ));
        // the handle outlives the call only as a dead one: the state it points to is the game's, borrowed here
        live.borrow(py).state.set(std::ptr::null());
        let (idx, after): (usize, Option<Bound<'_, PyDict>>) = answer?.extract()?;
        self.after = after.map(Bound::unbind);
        Ok(idx)
    }

    /// The state the strategy left; the record (this operation's events) stays the game's.
    fn write_back(
        &self,
        py: Python<'_>,
        after: &Py<PyDict>,
        state: &mut GameState,
    ) -> PyResult<()> {
        let mut new = state_from(&state.cards, after.bind(py))?;
        *state.rng.borrow_mut() = new.rng.borrow().clone();
        new.rng = Rc::clone(&state.rng);
        new.record = std::mem::take(&mut state.record);
        *state = new;
        Ok(())
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

    fn after_choice(&mut self, state: &mut GameState) {
        if let Some(after) = self.after.take() {
            Python::with_gil(|py| {
                if let Err(e) = self.write_back(py, &after, state) {
                    raise_in_game(e)
                }
            })
        }
    }
}

/// The game's state while a Python strategy chooses, handed to Python instead of a copy: Python takes a
/// snapshot (`snapshot()`) only if something reads its `GameState` during the choice (`sim.state`'s
/// detached state), and answers the state back only then. The handle is live during the call only (the
/// pointer is the game's state, borrowed by the asking frame, and cleared before it returns).
#[pyclass(unsendable, module = "sim._core")]
pub struct LiveState {
    state: Cell<*const GameState>,
    sent: Rc<Cell<usize>>,
    conv: Arc<Converter>,
    /// the decision's options: the Python list handed over, and the core's
    options: Py<PyList>,
    opts: Vec<Opt>,
}

impl LiveState {
    fn state(&self) -> PyResult<&GameState> {
        let ptr = self.state.get();
        if ptr.is_null() {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "the game's state is only live while the strategy chooses",
            ));
        }
        // SAFETY: non-null only during `Asker::ask`'s call into Python, whose frame borrows the state
        // (single-threaded: the class is unsendable and the state is not changed during the call)
        Ok(unsafe { &*ptr })
    }
}

#[pymethods]
impl LiveState {
    /// The state as `GameState.from_core` takes it, with the operation's events not sent yet.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        snapshot(py, self.state()?, &self.sent)
    }

    /// Whether `options` is the very option list of the decision being asked, unchanged (a core player
    /// asked from Python then takes the core's options, without encoding them again).
    fn offers(&self, py: Python<'_>, options: &Bound<'_, PyAny>) -> bool {
        let mine = self.options.bind(py);
        mine.is(options) && mine.len() == self.opts.len()
    }

    /// The seat holding side `side`'s cards now (`GameState.seat_of`).
    fn seat_of(&self, side: usize) -> PyResult<usize> {
        Ok(self.state()?.seat_of(side))
    }

    // ----- what `sim.decisions.PlayerView` reads, answered without a snapshot (the same names and values
    // as `sim.state.GameState`'s, as fresh lists)
    #[getter]
    fn mode(&self) -> PyResult<&'static str> {
        Ok(self.state()?.mode.as_str())
    }

    #[getter]
    fn seats(&self) -> PyResult<usize> {
        Ok(self.state()?.seats)
    }

    #[getter]
    fn melee(&self) -> PyResult<bool> {
        Ok(self.state()?.melee())
    }

    #[getter]
    fn turn(&self) -> PyResult<u32> {
        Ok(self.state()?.turn)
    }

    #[getter]
    fn active(&self) -> PyResult<usize> {
        Ok(self.state()?.active)
    }

    #[getter]
    fn actions_left(&self) -> PyResult<i32> {
        Ok(self.state()?.actions_left)
    }

    #[getter]
    fn pieces(&self) -> PyResult<Vec<[Bits; 3]>> {
        let s = self.state()?;
        Ok(s.pieces[..s.seats].to_vec())
    }

    #[getter]
    fn tokens(&self) -> PyResult<Vec<i32>> {
        let s = self.state()?;
        Ok(s.tokens[..s.seats].to_vec())
    }

    #[getter]
    fn legend_stock(&self) -> PyResult<Vec<i32>> {
        let s = self.state()?;
        Ok(s.legend_stock[..s.seats].to_vec())
    }

    #[getter]
    fn hand<'py>(&self, py: Python<'py>) -> PyResult<Vec<Vec<Bound<'py, PyAny>>>> {
        let s = self.state()?;
        hands(&s.hand[..s.seats], |b| self.conv.being(py, b.0))
    }

    #[getter]
    fn legend_hand<'py>(&self, py: Python<'py>) -> PyResult<Vec<Vec<Bound<'py, PyAny>>>> {
        let s = self.state()?;
        hands(&s.legend_hand[..s.seats], |b| self.conv.being(py, b.0))
    }

    #[getter]
    fn flare_hand<'py>(&self, py: Python<'py>) -> PyResult<Vec<Vec<Bound<'py, PyAny>>>> {
        let s = self.state()?;
        hands(&s.flare_hand[..s.seats], |f| self.conv.flare(py, f.0))
    }

    #[getter]
    fn task_row<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let s = self.state()?;
        s.task_row.iter().map(|t| self.conv.task(py, t.0)).collect()
    }

    #[getter]
    fn next_task<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let s = self.state()?;
        s.next_task.map(|t| self.conv.task(py, t.0)).transpose()
    }

    fn piece_at(&self, sq: u8) -> PyResult<Option<(usize, u8)>> {
        Ok(self.state()?.piece_at(sq))
    }

    fn occupied(&self) -> PyResult<Bits> {
        Ok(self.state()?.occupied())
    }

    fn score(&self, player: usize) -> PyResult<i32> {
        Ok(self.state()?.score(player))
    }

    fn opponents(&self, player: usize) -> PyResult<Vec<usize>> {
        Ok(self.state()?.opponents(player).collect())
    }
}

/// Each seat's cards as the Python card objects.
fn hands<'py, T: Copy>(
    seats: &[Vec<T>],
    card: impl Fn(T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Vec<Vec<Bound<'py, PyAny>>>> {
    seats
        .iter()
        .map(|h| h.iter().map(|&c| card(c)).collect())
        .collect()
}

/// What an operation gives back besides the state.
enum Answer {
    Nothing,
    Flag(bool),
    Number(i64),
    Numbers(Vec<i64>),
    Actions(Vec<(&'static str, i64)>),
    Piece(Option<(usize, u8)>),
}

fn action_of(kind: &str, card: i64) -> PyResult<Action> {
    Ok(match kind {
        "place" => Action::Place,
        "summon" => Action::Summon(BeingId(card as u16)),
        "discard" => Action::Discard,
        "flare" => Action::Flare,
        "end" => Action::End,
        "warp" => Action::Warp(BeingId(card as u16)),
        "pass" => Action::Pass,
        "thaw" => Action::Thaw,
        _ => return Err(PyValueError::new_err(format!("unknown action {kind:?}"))),
    })
}

fn run(game: &mut Game, op: &str, args: &[i64], kind: &str) -> PyResult<Answer> {
    let arg = |i: usize| -> PyResult<i64> {
        args.get(i)
            .copied()
            .ok_or_else(|| PyValueError::new_err(format!("{op}: argument {i} missing")))
    };
    let p = if args.is_empty() { 0 } else { arg(0)? as usize };
    let being = |i: usize| -> PyResult<BeingId> { Ok(BeingId(arg(i)? as u16)) };
    Ok(match op {
        "setup" => {
            game.setup();
            Answer::Nothing
        }
        "play_turn" => {
            game.play_turn();
            Answer::Nothing
        }
        "play_turns" => {
            while !game.state.over {
                game.play_turn();
            }
            Answer::Nothing
        }
        "finish_turn" => {
            game.finish_turn();
            Answer::Nothing
        }
        "deal_task_row" => {
            game.deal_task_row();
            Answer::Nothing
        }
        "check_invariants" => {
            if let Err(e) = game.state.check_invariants() {
                panic!("invariant broken: {e}");
            }
            Answer::Nothing
        }
        "action_options" => Answer::Actions(
            game.action_options(p)
                .into_iter()
                .map(|o| match o {
                    Opt::Action(Action::Summon(b)) => ("summon", i64::from(b.0)),
                    Opt::Action(Action::Warp(b)) => ("warp", i64::from(b.0)),
                    Opt::Action(a) => (a.kind_str(), -1),
                    _ => unreachable!("action options are actions"),
                })
                .collect(),
        ),
        "apply_action" => {
            game.apply_action(p, action_of(kind, arg(1)?)?);
            Answer::Nothing
        }
        "place_action" => {
            game.place_action(p);
            Answer::Nothing
        }
        "discard_action" => {
            game.discard_action(p);
            Answer::Nothing
        }
        "return_card" => {
            let card = if kind == "flare" {
                Opt::Flare(FlareId(arg(1)? as u8))
            } else {
                Opt::Being(being(1)?)
            };
            game.return_card(p, card);
            Answer::Nothing
        }
        "legal_placements" => Answer::Numbers(
            game.legal_placements(p, being(1)?)
                .into_iter()
                .map(i64::from)
                .collect(),
        ),
        "has_placement" => Answer::Flag(game.has_placement(p, being(1)?)),
        "summon" => {
            game.summon(p, being(1)?, arg(2)? as u16);
            Answer::Nothing
        }
        "improvised_placements" => Answer::Numbers(
            game.improvised_placements(p, being(1)?)
                .into_iter()
                .flat_map(|(pl, colour)| [i64::from(pl), i64::from(colour)])
                .collect(),
        ),
        "summon_improvised" => {
            game.summon_improvised(p, being(1)?, arg(2)? as u16, arg(3)? as usize);
            Answer::Nothing
        }
        "flare_halves" => Answer::Number(i64::from(game.flare_halves(p, FlareId(arg(1)? as u8)))),
        "flare_halves_against" => Answer::Number(i64::from(game.flare_halves_against(
            p,
            arg(1)? as usize,
            FlareId(arg(2)? as u8),
        ))),
        "invoke_flare" => {
            game.invoke_flare(p);
            Answer::Nothing
        }
        "end_turn" => {
            game.end_turn(p);
            Answer::Nothing
        }
        "claimable_tasks" => Answer::Numbers(
            game.claimable_tasks(p)
                .into_iter()
                .map(|t| i64::from(t.0))
                .collect(),
        ),
        "claim_task" => {
            game.claim_task(p);
            Answer::Nothing
        }
        // the state's primitive piece operations (sim.state.GameState)
        "put" => {
            game.state.put(p, arg(1)? as u8, arg(2)? as u8);
            Answer::Nothing
        }
        "lift" => {
            game.state.lift(p, arg(1)? as u8, arg(2)? as u8);
            Answer::Nothing
        }
        "place" => Answer::Flag(
            game.state
                .place(p, arg(1)? as u8, arg(2)? as u8, intern(kind)),
        ),
        "destroy" => Answer::Piece(
            game.state
                .destroy(arg(0)? as u8, intern(kind), arg(1)? != 0),
        ),
        "move" => Answer::Piece(
            game.state
                .move_piece(arg(0)? as u8, arg(1)? as u8, intern(kind)),
        ),
        "upgrade" => Answer::Flag(game.state.upgrade(arg(0)? as u8, intern(kind))),
        "downgrade" => Answer::Flag(game.state.downgrade(arg(0)? as u8, intern(kind))),
        "convert" => {
            let rank = arg(2)?;
            let rank = (rank >= 0).then_some(rank as u8);
            Answer::Flag(
                game.state
                    .convert(arg(0)? as u8, arg(1)? as usize, intern(kind), rank),
            )
        }
        "condition" => {
            let f = tk_engine::tasks::condition(kind)
                .ok_or_else(|| PyValueError::new_err(format!("unknown condition {kind:?}")))?;
            Answer::Flag(f(&game.state, p))
        }
        _ => return Err(PyValueError::new_err(format!("unknown operation {op:?}"))),
    })
}

/// A Python player the core plays itself (`strategies.random_player`, `strategies.core_player`): its
/// stream comes in and goes back, so that the Python object goes on as if it had chosen.
pub trait Native: Strategy {
    fn stream(&self) -> PyRandom;
    /// What the player plans to answer next, as (kind, option) text (a lookahead's plan).
    fn plan(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// The value of a parameter as the player plays with it.
    fn setting(&self, _name: &str) -> Option<f64> {
        None
    }
}

/// A plan as (kind, option) text.
fn plan_text(
    plan: &std::collections::VecDeque<tk_engine::players::sandbox::Answer>,
) -> Vec<(&'static str, String)> {
    plan.iter()
        .map(|(k, o)| (k.as_str(), format!("{o:?}")))
        .collect()
}

impl Native for RandomStrategy {
    fn stream(&self) -> PyRandom {
        self.rng().clone()
    }
}

impl Native for Lookahead {
    fn stream(&self) -> PyRandom {
        Lookahead::stream(self)
    }

    fn plan(&self) -> Vec<(&'static str, String)> {
        plan_text(Lookahead::plan(self))
    }

    fn setting(&self, name: &str) -> Option<f64> {
        Lookahead::setting(self, name)
    }
}

impl Native for MonteCarlo {
    fn stream(&self) -> PyRandom {
        MonteCarlo::stream(self)
    }

    /// The base player's plan (the answers to the follow-ups of the action chosen).
    fn plan(&self) -> Vec<(&'static str, String)> {
        Native::plan(self.base())
    }

    fn setting(&self, name: &str) -> Option<f64> {
        MonteCarlo::setting(self, name)
    }
}

impl Native for Planner {
    fn stream(&self) -> PyRandom {
        Planner::stream(self)
    }

    /// The builder's plan (the answers to the follow-ups of the action chosen).
    fn plan(&self) -> Vec<(&'static str, String)> {
        Native::plan(self.base())
    }

    fn setting(&self, name: &str) -> Option<f64> {
        Planner::setting(self, name)
    }
}

impl Native for Swift {
    fn stream(&self) -> PyRandom {
        Swift::stream(self)
    }

    /// The builder's plan (the answers to the follow-ups of the action chosen).
    fn plan(&self) -> Vec<(&'static str, String)> {
        Native::plan(self.base())
    }

    fn setting(&self, name: &str) -> Option<f64> {
        Swift::setting(self, name)
    }
}

impl Native for Expert {
    fn stream(&self) -> PyRandom {
        Expert::stream(self)
    }

    /// The answers planned for the follow-ups of the move chosen (its placement and effect targets).
    fn plan(&self) -> Vec<(&'static str, String)> {
        plan_text(Expert::plan(self))
    }

    fn setting(&self, name: &str) -> Option<f64> {
        Expert::setting(self, name)
    }
}

pub(crate) struct SharedNative(pub(crate) Rc<RefCell<dyn Native>>);

impl Strategy for SharedNative {
    fn name(&self) -> &str {
        "native"
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        self.0.borrow_mut().choose(view, decision)
    }
}

/// What plays a seat: the Python asker, `(name, parameters, random state)` for a player the core has, or
/// a `NativeStrategy` (the player itself, kept in the core between operations).
pub enum SeatArg {
    Asker(PyObject),
    Native(String, Vec<(String, ParamValue)>, Vec<u32>),
    Kept(Rc<RefCell<dyn Native>>),
}

pub(crate) fn param_values(params: &Bound<'_, PyDict>) -> PyResult<Vec<(String, ParamValue)>> {
    let mut values = Vec::with_capacity(params.len());
    for (k, v) in params.iter() {
        let value = if let Ok(b) = v.downcast::<pyo3::types::PyBool>() {
            ParamValue::Bool(b.is_true())
        } else if let Ok(i) = v.extract::<i64>() {
            ParamValue::Int(i)
        } else if let Ok(t) = v.extract::<String>() {
            ParamValue::Text(intern(&t))
        } else {
            ParamValue::Float(v.extract::<f64>()?)
        };
        values.push((k.extract::<String>()?, value));
    }
    Ok(values)
}

impl<'py> FromPyObject<'py> for SeatArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(n) = ob.downcast::<NativeStrategy>() {
            return Ok(SeatArg::Kept(Rc::clone(&n.borrow().inner)));
        }
        if let Ok(t) = ob.downcast::<PyTuple>() {
            let (name, params, state): (String, Bound<'py, PyDict>, Vec<u32>) = t.extract()?;
            return Ok(SeatArg::Native(name, param_values(&params)?, state));
        }
        Ok(SeatArg::Asker(ob.clone().unbind()))
    }
}

/// A strategy of the core as a Python object: `strategies.core_player.CorePlayer` holds one. In a `Game` it
/// plays its seat inside the core; asked directly (`choose`), it answers a decision of a Python state.
#[pyclass(unsendable, module = "sim._core")]
pub struct NativeStrategy {
    inner: Rc<RefCell<dyn Native>>,
}

const KINDS: [Kind; 24] = [
    Kind::Action,
    Kind::StartSquare,
    Kind::Summon,
    Kind::Take,
    Kind::Place,
    Kind::Discard,
    Kind::Return,
    Kind::Claim,
    Kind::Destroy,
    Kind::Upgrade,
    Kind::Downgrade,
    Kind::Convert,
    Kind::Move,
    Kind::Leap,
    Kind::Branch,
    Kind::Direction,
    Kind::Card,
    Kind::Piece,
    Kind::Square,
    Kind::MeleeStart,
    Kind::FlareOpponent,
    Kind::LegendColour,
    Kind::LeftoverColour,
    Kind::EnemyColour,
];

/// An option from its Python encoding (`sim.core.encode_option`).
fn option_from(t: &Bound<'_, PyTuple>) -> PyResult<Opt> {
    let tag: String = t.get_item(0)?.extract()?;
    let int = |i: usize| -> PyResult<i64> { t.get_item(i)?.extract() };
    Ok(match tag.as_str() {
        "none" => Opt::None,
        "action" => Opt::Action(action_of(&t.get_item(1)?.extract::<String>()?, int(2)?)?),
        "square" => Opt::Square(int(1)? as u8),
        "placement" => Opt::Placement(BeingId(int(1)? as u16), int(2)? as u16),
        "being" => Opt::Being(BeingId(int(1)? as u16)),
        "flare" => Opt::Flare(FlareId(int(1)? as u8)),
        "task" => Opt::Task(TaskId(int(1)? as u8)),
        "move" => Opt::Move(int(1)? as u8, int(2)? as u8),
        "direction" => Opt::Direction(int(1)? as u8),
        "label" => Opt::Label(intern(&t.get_item(1)?.extract::<String>()?)),
        "seat" => Opt::Seat(int(1)? as u8),
        "seat_square" => Opt::SeatSquare(int(1)? as u8, int(2)? as u8),
        "improvised" => Opt::Improvised(BeingId(int(1)? as u16), int(2)? as u16, int(3)? as u8),
        _ => return Err(PyValueError::new_err(format!("unknown option tag {tag:?}"))),
    })
}

#[pymethods]
impl NativeStrategy {
    #[new]
    fn new(name: &str, seed: u64, params: &Bound<'_, PyDict>) -> PyResult<Self> {
        let inner = native(name, &param_values(params)?, PyRandom::new(seed))?;
        Ok(NativeStrategy { inner })
    }

    /// The index of the option chosen at a decision of the game whose state is `snapshot` (a snapshot, or
    /// the live state of the decision a Python strategy is asked: no copy then); `options` are encoded as
    /// `sim.core.encode_option` does, or None for the live decision's own (`LiveState.offers`).
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &self,
        cards: &Cards,
        snapshot: &Bound<'_, PyAny>,
        player: usize,
        kind: &str,
        options: Option<Vec<Bound<'_, PyTuple>>>,
        card: &str,
        prompt: &str,
    ) -> PyResult<usize> {
        let live = snapshot.downcast::<LiveState>().ok().map(Bound::borrow);
        let kind = KINDS
            .into_iter()
            .find(|k| k.as_str() == kind)
            .ok_or_else(|| PyValueError::new_err(format!("unknown decision kind {kind:?}")))?;
        let options = match (options, &live) {
            (Some(options), _) => options
                .iter()
                .map(option_from)
                .collect::<PyResult<Vec<_>>>()?,
            (None, Some(live)) => live.opts.clone(),
            (None, None) => return Err(PyValueError::new_err("options missing")),
        };
        let decision = Decision {
            kind,
            player,
            options: &options,
            card: intern(card),
            prompt: intern(prompt),
        };
        let choose = |state: &GameState| {
            let view = PlayerView::new(state, player);
            run_catching(|| self.inner.borrow_mut().choose(&view, &decision))
        };
        if let Some(live) = &live {
            return choose(live.state()?);
        }
        choose(&state_from(&cards.inner, snapshot.downcast::<PyDict>()?)?)
    }

    /// The value of its parameter `name` as it plays with it (None: no such parameter).
    fn setting(&self, name: &str) -> Option<f64> {
        self.inner.borrow().setting(name)
    }

    /// What it plans to answer next: (kind, option) pairs (a lookahead's plan for the action it chose).
    fn plan(&self) -> Vec<(&'static str, String)> {
        self.inner.borrow().plan()
    }
}

pub(crate) fn native(
    name: &str,
    params: &[(String, ParamValue)],
    rng: PyRandom,
) -> PyResult<Rc<RefCell<dyn Native>>> {
    if name == "random" {
        return Ok(Rc::new(RefCell::new(RandomStrategy::from_rng(rng))));
    }
    let given: Vec<(&str, ParamValue)> = params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    if name == tk_engine::players::mc::NAME {
        let params = McParams::resolve(&given).map_err(PyValueError::new_err)?;
        return Ok(Rc::new(RefCell::new(MonteCarlo::with_rng(rng, &params))));
    }
    if name == tk_engine::players::planner::NAME {
        let params = PlannerParams::resolve(&given).map_err(PyValueError::new_err)?;
        return Ok(Rc::new(RefCell::new(Planner::with_rng(rng, &params))));
    }
    if name == tk_engine::players::planner::CLASSIC_NAME {
        let params = PlannerParams::resolve_classic(&given).map_err(PyValueError::new_err)?;
        return Ok(Rc::new(RefCell::new(Planner::with_rng(rng, &params))));
    }
    if name == tk_engine::players::swift::NAME {
        let params = SwiftParams::resolve(&given).map_err(PyValueError::new_err)?;
        return Ok(Rc::new(RefCell::new(Swift::with_rng(rng, &params))));
    }
    if name == "expert" {
        let params = ExpertParams::resolve(&given).map_err(PyValueError::new_err)?;
        return Ok(Rc::new(RefCell::new(Expert::with_rng(rng, &params))));
    }
    let params = Params::resolve(name, &given).map_err(PyValueError::new_err)?;
    Ok(Rc::new(RefCell::new(Lookahead::with_rng(
        name, rng, &params,
    ))))
}

fn random_state(r: &PyRandom) -> Vec<u32> {
    let (words, index) = r.state();
    let mut v = words.to_vec();
    v.push(index as u32);
    v
}

/// Run the rule operation `op` of `sim.game.Game` (or a piece operation of `sim.state.GameState`) on the
/// state of `snapshot`: returns (snapshot after, None for a query that `changes` nothing; answer; each native
/// seat's random state after). `args` are ints
/// (player first, cards as indices); `kind` names an action, a returned card's sort ("flare" or "being"),
/// a task condition or the cause of a piece operation. `seats` is None for operations that ask nothing.
#[pyfunction]
#[pyo3(signature = (cards, snapshot_in, op, args, kind="", seats=None, ask_all=false, changes=true))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn game_op<'py>(
    py: Python<'py>,
    cards: &Cards,
    snapshot_in: &Bound<'py, PyDict>,
    op: &str,
    args: Vec<i64>,
    kind: &str,
    seats: Option<Vec<SeatArg>>,
    ask_all: bool,
    changes: bool,
) -> PyResult<(Option<Bound<'py, PyDict>>, PyObject, Vec<Option<Vec<u32>>>)> {
    let state = state_from(&cards.inner, snapshot_in)?;
    let sent = Rc::new(Cell::new(0));
    let mut natives: Vec<Option<Rc<RefCell<dyn Native>>>> = vec![None; state.players()];
    let players = match seats {
        None => Players::Nobody,
        Some(args) => {
            let mut seat = |arg: SeatArg, i: usize| -> PyResult<Box<dyn Strategy>> {
                Ok(match arg {
                    SeatArg::Asker(asker) => Box::new(Asker {
                        asker,
                        conv: Arc::clone(&cards.converter),
                        after: None,
                        sent: Rc::clone(&sent),
                    }),
                    SeatArg::Native(name, params, words) => {
                        let player = native(&name, &params, random_from(words)?)?;
                        natives[i] = Some(Rc::clone(&player));
                        Box::new(SharedNative(player))
                    }
                    SeatArg::Kept(player) => Box::new(SharedNative(player)),
                })
            };
            Players::Seats(
                args.into_iter()
                    .enumerate()
                    .map(|(i, arg)| seat(arg, i))
                    .collect::<PyResult<_>>()?,
            )
        }
    };
    let mut game = Game::around(state, players);
    game.ask_all = ask_all;
    let answer = run_catching(|| run(&mut game, op, &args, kind))??;
    let out = if changes {
        Some(snapshot(py, &game.state, &sent)?)
    } else {
        None
    };
    let value = match answer {
        Answer::Nothing => py.None(),
        Answer::Flag(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Answer::Number(n) => n.into_pyobject(py)?.into_any().unbind(),
        Answer::Numbers(v) => PyList::new(py, v)?.into_any().unbind(),
        Answer::Actions(v) => PyList::new(py, v)?.into_any().unbind(),
        Answer::Piece(p) => p.into_pyobject(py)?.into_any().unbind(),
    };
    let streams = natives
        .into_iter()
        .map(|r| r.map(|r| random_state(&r.borrow().stream())))
        .collect();
    Ok((out, value, streams))
}

/// The names of the task conditions the core knows.
#[pyfunction]
pub fn condition_names() -> Vec<&'static str> {
    tk_engine::tasks::CONDITION_NAMES.to_vec()
}

include!(concat!(env!("OUT_DIR"), "/custom_sources.rs"));

/// A hash of each custom effect function's own source, by registered name (card fingerprints use it).
#[pyfunction]
pub fn custom_effect_fingerprints() -> Vec<(&'static str, &'static str)> {
    CUSTOM_SOURCES.to_vec()
}

/// The names of the custom effect functions the core knows, in registry order.
#[pyfunction]
pub fn custom_effect_names() -> Vec<&'static str> {
    tk_engine::effects::registry()
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}
