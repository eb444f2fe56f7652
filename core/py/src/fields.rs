//! The game state's fields as Python sees them: `FIELDS`, one entry per field of
//! `tk_engine::state::GameState` (where the fields are declared), by the names of `sim.state.GameState`.
//! A field is read on its own (an attribute of the read-only `sim.state.GameState`), and all of them are read
//! and written at once by `sim.state.StateBuilder` (scenarios and tests), each value checked as it is written.
//! How a value crosses follows from its Rust type (`Value`): cards are the Python card objects, squares and
//! bitboards ints, pairs tuples, lists read-only lists (plain lists for a builder), and an array of `MAX_SEATS`
//! values is per seat, so Python sees the seats in play only. Dotted names are groups (`counters.extra_turn`):
//! a group is read as a dict of its fields.

use std::rc::Rc;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use tk_engine::cards::{intern, BeingId, CardSet, FlareId, TaskId};
use tk_engine::rng::PyRandom;
use tk_engine::state::{EndTrigger, GameState, Member, Teams, MAX_SEATS, TEAM_SEATS};

use crate::python_player::Converter;

/// What a conversion needs: the card set both ways, the seats in play, and the class of read-only lists
/// (`sim.state.FrozenList`) for the read-only state (None: plain lists, a builder's values).
pub(crate) struct Ctx<'a, 'py> {
    pub py: Python<'py>,
    pub conv: &'a Converter,
    pub cards: &'a CardSet,
    pub seats: usize,
    pub frozen: Option<Bound<'py, PyAny>>,
}

impl<'py> Ctx<'_, 'py> {
    fn seq(&self, items: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let list = PyList::new(self.py, items)?.into_any();
        match &self.frozen {
            Some(class) => class.call1((list,)),
            None => Ok(list),
        }
    }
}

static FROZEN_LIST: pyo3::sync::GILOnceCell<Py<PyAny>> = pyo3::sync::GILOnceCell::new();

/// `sim.state.FrozenList`: a list that refuses to change, for the read-only state's sequences.
pub(crate) fn frozen_list(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let class = FROZEN_LIST.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("sim.state")?.getattr("FrozenList")?.unbind())
    })?;
    Ok(class.bind(py).clone())
}

/// A field's value as Python sees it, and back (checked).
pub(crate) trait Value: Sized {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>>;
    fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self>;
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
                (*self).into_bound_py_any(c.py)
            }
            fn from_py(ob: &Bound<'_, PyAny>, _: &Ctx<'_, '_>) -> PyResult<Self> {
                ob.extract()
            }
        }
    )*};
}
plain!(bool, u8, i32, u32, usize, u128);

impl Value for &'static str {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyString::new(c.py, self).into_any())
    }
    fn from_py(ob: &Bound<'_, PyAny>, _: &Ctx<'_, '_>) -> PyResult<Self> {
        Ok(intern(&ob.extract::<String>()?))
    }
}

impl<T: Value> Value for Option<T> {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            None => Ok(c.py.None().into_bound(c.py)),
            Some(v) => v.to_py(c),
        }
    }
    fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
        if ob.is_none() {
            return Ok(None);
        }
        T::from_py(ob, c).map(Some)
    }
}

fn items<T: Value>(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Vec<T>> {
    ob.try_iter()?.map(|x| T::from_py(&x?, c)).collect()
}

impl<T: Value> Value for Vec<T> {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        c.seq(self.iter().map(|v| v.to_py(c)).collect::<PyResult<_>>()?)
    }
    fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
        items(ob, c)
    }
}

/// An array of `MAX_SEATS` is one value per seat: the seats in play cross.
impl<T: Value + Default, const N: usize> Value for [T; N] {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = if N == MAX_SEATS { c.seats } else { N };
        c.seq(
            self[..n]
                .iter()
                .map(|v| v.to_py(c))
                .collect::<PyResult<_>>()?,
        )
    }
    fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
        let (n, what) = if N == MAX_SEATS {
            (c.seats, " (one per seat)")
        } else {
            (N, "")
        };
        let given: Vec<T> = items(ob, c)?;
        if given.len() != n {
            return Err(PyValueError::new_err(format!(
                "expected {n} values{what}, got {}",
                given.len()
            )));
        }
        let mut out: [T; N] = std::array::from_fn(|_| T::default());
        for (slot, v) in out.iter_mut().zip(given) {
            *slot = v;
        }
        Ok(out)
    }
}

impl<A: Value, B: Value> Value for (A, B) {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(c.py, [self.0.to_py(c)?, self.1.to_py(c)?])?.into_any())
    }
    fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
        let (a, b): (Bound<'_, PyAny>, Bound<'_, PyAny>) = ob.extract()?;
        Ok((A::from_py(&a, c)?, B::from_py(&b, c)?))
    }
}

/// A card of the set: its Python object, which must be the set's own.
fn card_index<'py>(
    ob: &Bound<'py, PyAny>,
    kind: &str,
    own: impl Fn(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<usize> {
    let index: usize = ob
        .getattr("index")
        .and_then(|i| i.extract())
        .map_err(|_| PyValueError::new_err(format!("expected a {kind}, got {ob}")))?;
    match own(index) {
        Ok(card) if card.is(ob) => Ok(index),
        _ => Err(PyValueError::new_err(format!(
            "{ob} is not a {kind} of this game's card set"
        ))),
    }
}

/// A card id of the set as the set's Python card object: `$conv` gets it by index, `$kind` names it.
macro_rules! card_value {
    ($id:ident, $int:ty, $conv:ident, $kind:literal) => {
        impl Value for $id {
            fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
                c.conv.$conv(c.py, self.0)
            }
            fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
                let i = card_index(ob, $kind, |i| c.conv.$conv(ob.py(), i as $int))?;
                Ok($id(i as $int))
            }
        }
    };
}
card_value!(BeingId, u16, being, "being");
card_value!(FlareId, u8, flare, "flare");
card_value!(TaskId, u8, task, "task");

impl Value for EndTrigger {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        self.as_str().to_py(c)
    }
    fn from_py(ob: &Bound<'_, PyAny>, _: &Ctx<'_, '_>) -> PyResult<Self> {
        let name: String = ob.extract()?;
        [EndTrigger::Deck, EndTrigger::Score, EndTrigger::TurnLimit]
            .into_iter()
            .find(|t| t.as_str() == name)
            .ok_or_else(|| {
                PyValueError::new_err(format!("expected deck, score or turn-limit, got {name:?}"))
            })
    }
}

fn entry<T: Value>(d: &Bound<'_, PyDict>, name: &str, c: &Ctx<'_, '_>) -> PyResult<T> {
    let v = d
        .get_item(name)?
        .ok_or_else(|| PyValueError::new_err(format!("{name} missing")))?;
    T::from_py(&v, c).map_err(|e| PyValueError::new_err(format!("{name}: {}", e.value(d.py()))))
}

/// A deck by its name.
#[derive(Default)]
struct DeckName(usize);

impl Value for DeckName {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        c.cards.decks[self.0].name.to_py(c)
    }
    fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
        let name: String = ob.extract()?;
        c.cards
            .deck_index(&name)
            .map(DeckName)
            .map_err(PyValueError::new_err)
    }
}

impl<T: Value> Value for Box<T> {
    fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        T::to_py(self, c)
    }
    fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
        T::from_py(ob, c).map(Box::new)
    }
}

/// A struct as a dict of its fields, and back: `"name" => field`, or `"name" => field as Wrapper` for a
/// field seen through a wrapper type (a deck index by its name).
macro_rules! dict_value {
    ($t:ident { $($name:literal => $f:ident $(as $w:ident)?),* $(,)? }) => {
        impl Value for $t {
            fn to_py<'py>(&self, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
                let d = PyDict::new(c.py);
                $(d.set_item($name, dict_value!(@to self.$f $(, $w)?).to_py(c)?)?;)*
                Ok(d.into_any())
            }
            fn from_py(ob: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<Self> {
                let d = ob.downcast::<PyDict>()?;
                Ok($t {
                    $($f: dict_value!(@from d, $name, c $(, $w)?),)*
                })
            }
        }
    };
    (@to $e:expr) => { $e };
    (@to $e:expr, $w:ident) => { $w($e) };
    (@from $d:ident, $name:literal, $c:ident) => { entry($d, $name, $c)? };
    (@from $d:ident, $name:literal, $c:ident, $w:ident) => { entry::<$w>($d, $name, $c)?.0 };
}

dict_value!(Member {
    "deck_name" => deck_index as DeckName,
    "deck" => deck,
    "hand" => hand,
    "flare_hand" => flare_hand,
    "discarded" => discarded,
    "pending" => pending,
    "stasis" => stasis,
    "frozen" => frozen,
    "hound_return" => hound_return,
});

dict_value!(Teams {
    "holder" => holder,
    "bench" => bench,
    "turn_seat" => turn_seat,
    "controller" => controller,
    "resolving" => resolving,
});

// ----- the table
type Get = for<'py> fn(&GameState, &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>>;
type Set = fn(&mut GameState, &Bound<'_, PyAny>, &Ctx<'_, '_>) -> PyResult<()>;

/// One field of the state as Python sees it; `set` is None for what a game is made with (mode, seats,
/// decks), which a builder keeps.
pub(crate) struct Field {
    pub name: &'static str,
    get: Get,
    set: Option<Set>,
}

/// A field that is a place of the state (`a.b.c`), read and written through `Value`.
macro_rules! field {
    ($name:literal, $($f:ident).+) => {
        Field {
            name: $name,
            get: |s, c| s.$($f).+.to_py(c),
            set: Some(|s, v, c| {
                s.$($f).+ = Value::from_py(v, c)?;
                Ok(())
            }),
        }
    };
}

const ROLES: [&str; 4] = ["", "deck", "score", "turn-limit"];
const TIEBREAKS: [&str; 6] = ["", "upgraded", "pieces", "tie", "second-lowest", "highest"];

fn one_of(v: &Bound<'_, PyAny>, names: &[&'static str]) -> PyResult<&'static str> {
    let s: String = v.extract()?;
    names
        .iter()
        .copied()
        .find(|n| *n == s)
        .ok_or_else(|| PyValueError::new_err(format!("expected one of {names:?}, got {s:?}")))
}

/// The state of the core's generator as `random.Random.getstate()` gives it (CPython's generator, which the
/// core's is).
fn random_state<'py>(r: &PyRandom, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
    let (words, index) = r.state();
    let mut state: Vec<u32> = words.to_vec();
    state.push(index as u32);
    (3, PyTuple::new(py, state)?, py.None()).into_pyobject(py)
}

/// The random stream as a `random.Random` in the same state.
fn random_to_py<'py>(r: &PyRandom, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    let class = py.import("random")?.getattr("Random")?;
    let rng = class.call_method1("__new__", (&class,))?;
    rng.call_method1("setstate", (random_state(r, py)?,))?;
    Ok(rng)
}

/// The state of a `random.Random` as the core's generator.
pub(crate) fn random_from_py(ob: &Bound<'_, PyAny>) -> PyResult<PyRandom> {
    let (_, words, _): (i64, Vec<u32>, Bound<'_, PyAny>) =
        ob.call_method0("getstate")?.extract()?;
    let Some((&index, mt)) = words.split_last() else {
        return Err(PyValueError::new_err("empty random state"));
    };
    PyRandom::from_state(mt, index as usize).map_err(PyValueError::new_err)
}

/// Write the core's stream into a `random.Random` (a strategy's stream after the core drew from it).
pub(crate) fn random_into_py(r: &PyRandom, ob: &Bound<'_, PyAny>) -> PyResult<()> {
    ob.call_method1("setstate", (random_state(r, ob.py())?,))?;
    Ok(())
}

/// A team game's fields: which seat's cards a side's slots hold may change (the side's deck with it), and
/// each bench holds the other seat's deck; whether the game is a team game may not change.
fn set_teams(s: &mut GameState, v: &Bound<'_, PyAny>, c: &Ctx<'_, '_>) -> PyResult<()> {
    let teams: Option<Box<Teams>> = Value::from_py(v, c)?;
    let (Some(old), Some(new)) = (s.teams.as_deref(), teams.as_deref()) else {
        if s.teams.is_none() && teams.is_none() {
            return Ok(());
        }
        return Err(PyValueError::new_err(
            "a game is a team game or not from the start",
        ));
    };
    if new
        .holder
        .iter()
        .enumerate()
        .any(|(side, &h)| h % 2 != side || h >= TEAM_SEATS)
    {
        return Err(PyValueError::new_err(format!(
            "holder: each side is held by one of its seats (0 or 2, 1 or 3), got {:?}",
            new.holder
        )));
    }
    let mut seat_deck = [0; TEAM_SEATS];
    for side in 0..2 {
        seat_deck[old.holder[side]] = s.decks[side];
        seat_deck[Teams::teammate(old.holder[side])] = old.bench[side].deck_index;
    }
    for side in 0..2 {
        let benched = Teams::teammate(new.holder[side]);
        if new.bench[side].deck_index != seat_deck[benched] {
            return Err(PyValueError::new_err(format!(
                "the bench of side {side} holds seat {benched}'s cards, of deck {}",
                c.cards.decks[seat_deck[benched]].name
            )));
        }
        s.decks[side] = seat_deck[new.holder[side]];
    }
    s.teams = teams;
    s.sync_record_seats();
    Ok(())
}

pub(crate) static FIELDS: &[Field] = &[
    Field {
        name: "mode",
        get: |s, c| s.mode.as_str().to_py(c),
        set: None,
    },
    Field {
        name: "seats",
        get: |s, c| s.seats.to_py(c),
        set: None,
    },
    // the decks by seat (4 in a team game), a tuple as ever
    Field {
        name: "deck_names",
        get: |s, c| {
            let names: Vec<&'static str> = (0..s.players())
                .map(|seat| match s.teams.as_deref() {
                    Some(t) if t.holder[seat % 2] != seat => {
                        c.cards.decks[t.bench[seat % 2].deck_index].name
                    }
                    _ => s.deck_name(seat % s.seats),
                })
                .collect();
            Ok(PyTuple::new(c.py, names)?.into_any())
        },
        set: None,
    },
    field!("max_turns", max_turns),
    field!("strict", strict),
    Field {
        name: "rng",
        get: |s, c| random_to_py(&s.rng.borrow(), c.py),
        set: Some(|s, v, _| {
            s.rng = Rc::new(std::cell::RefCell::new(random_from_py(v)?));
            Ok(())
        }),
    },
    field!("pieces", pieces),
    field!("tokens", tokens),
    field!("legend_stock", legend_stock),
    field!("token_total", token_total),
    field!("legend_total", legend_total),
    field!("deck", deck),
    field!("hand", hand),
    field!("legend_hand", legend_hand),
    field!("flare_hand", flare_hand),
    field!("discarded", discarded),
    field!("legend_deck", legend_deck),
    field!("legend_discard", legend_discard),
    field!("flare_deck", flare_deck),
    field!("flare_discard", flare_discard),
    field!("task_deck", task_deck),
    field!("task_row", task_row),
    field!("next_task", next_task),
    field!("claimed", claimed),
    field!("task_points", task_points),
    field!("unnamed_task_points", unnamed_task_points),
    field!("dm_points", dm_points),
    field!("colour_points", colour_points),
    field!("improvised", improvised),
    field!("first_player", first_player),
    field!("active", active),
    field!("turn", turn),
    field!("actions_left", actions_left),
    field!("discarded_this_turn", discarded_this_turn),
    field!("flare_used_this_turn", flare_used_this_turn),
    field!("counters.destroyed", counters.destroyed),
    field!("counters.destroyed_of", counters.destroyed_of),
    field!("counters.summoned", counters.summoned),
    field!("counters.extra_draws", counters.extra_draws),
    field!("counters.extra_legend_draws", counters.extra_legend_draws),
    field!("counters.extra_turn", counters.extra_turn),
    field!("counters.borrow_enemy_piece", counters.borrow_enemy_piece),
    field!("end_trigger", end_trigger),
    field!("end_trigger_player", end_trigger_player),
    field!("trigger_turn", trigger_turn),
    field!("turns_after_trigger", turns_after_trigger),
    field!("in_extra_turn", in_extra_turn),
    field!("over", over),
    Field {
        name: "teams",
        get: |s, c| s.teams.to_py(c),
        set: Some(set_teams),
    },
    field!("pending", pending),
    field!("stasis", stasis),
    field!("void_squares", warp_turn.void_squares),
    field!("extra_destruction", warp_turn.extra_destruction),
    field!("warped", warp_turn.warped),
    field!("frozen", frozen),
    field!("removed", removed),
    field!("action_loss", action_loss),
    field!("gateway", gateway),
    field!("gateway_suspended", gateway_suspended),
    field!("possessed", possessed),
    field!("hound_return", hound_return),
    // the record's result and totals (its events are read apart, `CoreGame.events_json`)
    field!("record.first_player", record.first_player),
    field!("record.scores", record.scores),
    field!("record.winner", record.winner),
    Field {
        name: "record.end_reason",
        get: |s, c| s.record.end_reason.to_py(c),
        set: Some(|s, v, _| {
            s.record.end_reason = one_of(v, &ROLES)?;
            Ok(())
        }),
    },
    Field {
        name: "record.tiebreak",
        get: |s, c| s.record.tiebreak.to_py(c),
        set: Some(|s, v, _| {
            s.record.tiebreak = one_of(v, &TIEBREAKS)?;
            Ok(())
        }),
    },
    field!("record.turns", record.turns),
    field!("record.colour_scores", record.colour_scores),
    field!("record.places", record.places),
    Field {
        name: "record.points_totals",
        get: |s, c| {
            let totals: Vec<i32> = (0..s.seats).map(|p| s.record.points_total(p)).collect();
            totals.to_py(c)
        },
        set: Some(|s, v, c| {
            let totals: [i32; MAX_SEATS] = Value::from_py(v, c)?;
            s.record.set_points_totals(&totals);
            Ok(())
        }),
    },
    Field {
        name: "record.colour_totals",
        get: |s, c| {
            let n = s.seats;
            let rows: Vec<Vec<i32>> = (0..n)
                .map(|p| (0..n).map(|q| s.record.colour_total(p, q)).collect())
                .collect();
            rows.to_py(c)
        },
        set: Some(|s, v, c| {
            let rows: [[i32; MAX_SEATS]; MAX_SEATS] = Value::from_py(v, c)?;
            for (seat, row) in rows.iter().enumerate() {
                s.record.set_colour_totals(seat, row);
            }
            Ok(())
        }),
    },
];

fn error(name: &str, e: PyErr, py: Python<'_>) -> PyErr {
    PyValueError::new_err(format!("state field {name}: {}", e.value(py)))
}

/// The field `name`, or the group `name` (the fields named `name.x`) as a dict.
pub(crate) fn get<'py>(s: &GameState, name: &str, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    if let Some(f) = FIELDS.iter().find(|f| f.name == name) {
        return (f.get)(s, c);
    }
    let group = PyDict::new(c.py);
    for f in FIELDS {
        if let Some(rest) = f.name.strip_prefix(name).and_then(|r| r.strip_prefix('.')) {
            group.set_item(rest, (f.get)(s, c)?)?;
        }
    }
    if group.is_empty() {
        return Err(PyKeyError::new_err(name.to_string()));
    }
    Ok(group.into_any())
}

/// Every field, groups as nested dicts.
pub(crate) fn get_all<'py>(s: &GameState, c: &Ctx<'_, 'py>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(c.py);
    for f in FIELDS {
        let (dict, key) = slot(&out, f.name)?;
        dict.set_item(key, (f.get)(s, c)?)?;
    }
    Ok(out)
}

/// The dict that holds `name` within `top` (made for a group) and its key there.
fn slot<'py>(
    top: &Bound<'py, PyDict>,
    name: &'static str,
) -> PyResult<(Bound<'py, PyDict>, &'static str)> {
    match name.split_once('.') {
        None => Ok((top.clone(), name)),
        Some((group, key)) => {
            let dict = match top.get_item(group)? {
                Some(d) => d.downcast_into::<PyDict>()?,
                None => {
                    let d = PyDict::new(top.py());
                    top.set_item(group, &d)?;
                    d
                }
            };
            Ok((dict, key))
        }
    }
}

/// Write every field of `values` (as `get_all` gives them) into `s`: each checked, the fields a game is made
/// with left as they are (they must not differ), no field missing and none unknown.
pub(crate) fn set_all(
    s: &mut GameState,
    values: &Bound<'_, PyDict>,
    c: &Ctx<'_, '_>,
) -> PyResult<()> {
    let py = c.py;
    for f in FIELDS {
        let (dict, key) = match f.name.split_once('.') {
            None => (values.clone(), f.name),
            Some((group, key)) => match values.get_item(group)? {
                Some(d) => (d.downcast_into::<PyDict>()?, key),
                None => {
                    return Err(PyValueError::new_err(format!(
                        "state field {group} missing"
                    )))
                }
            },
        };
        let v = dict
            .get_item(key)?
            .ok_or_else(|| PyValueError::new_err(format!("state field {} missing", f.name)))?;
        match f.set {
            Some(set) => set(s, &v, c).map_err(|e| error(f.name, e, py))?,
            None => {
                if !(f.get)(s, c)?.eq(&v)? {
                    return Err(PyValueError::new_err(format!(
                        "state field {} is the game's own (start a game with the one you want)",
                        f.name
                    )));
                }
            }
        }
    }
    for (key, v) in values.iter() {
        let key: String = key.extract()?;
        let known = |name: &str| FIELDS.iter().any(|f| f.name == name);
        let fine = known(&key)
            || match v.downcast::<PyDict>() {
                Ok(group) => group.keys().iter().all(|k| {
                    k.extract::<String>()
                        .is_ok_and(|k| known(&format!("{key}.{k}")))
                }),
                Err(_) => false,
            };
        if !fine {
            let names: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
            return Err(PyValueError::new_err(format!(
                "unknown state field {key}; the fields are {}",
                names.join(", ")
            )));
        }
    }
    Ok(())
}
