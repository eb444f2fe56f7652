//! Python strategies in core games: each decision is handed to the object's `choose(view, decision)` with
//! the same option values the Python engine offered (card, placement and action objects of the Python card
//! set, squares as ints, moves as tuples, None), and a `View` with the methods of `sim.decisions.PlayerView`
//! (all but `sandbox`: lookahead players are written in Rust).

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Once};

use pyo3::exceptions::{PyAssertionError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use tk_engine::board::Bits;
use tk_engine::decisions::{Action, Decision, Opt, PlayerView, Strategy};

/// The Python objects options are made of: the card set's cards and the classes of sim.decisions.
pub struct Converter {
    beings: Py<PyTuple>,
    flares: Py<PyTuple>,
    tasks: Py<PyTuple>,
    action: PyObject,
    decision: PyObject,
}

impl Converter {
    pub fn new(py: Python<'_>, cards: PyObject) -> PyResult<Converter> {
        let cards = cards.bind(py);
        let tuple = |name: &str| -> PyResult<Py<PyTuple>> {
            let seq = cards.getattr(name)?;
            Ok(PyTuple::new(py, seq.try_iter()?.collect::<PyResult<Vec<_>>>()?)?.unbind())
        };
        let decisions = py.import("sim.decisions")?;
        Ok(Converter {
            beings: tuple("all_beings")?,
            flares: tuple("flares")?,
            tasks: tuple("tasks")?,
            action: decisions.getattr("Action")?.unbind(),
            decision: decisions.getattr("Decision")?.unbind(),
        })
    }

    pub(crate) fn being<'py>(&self, py: Python<'py>, index: u16) -> PyResult<Bound<'py, PyAny>> {
        self.beings.bind(py).get_item(usize::from(index))
    }

    pub(crate) fn option<'py>(&self, py: Python<'py>, opt: Opt) -> PyResult<Bound<'py, PyAny>> {
        Ok(match opt {
            Opt::None => py.None().into_bound(py),
            Opt::Action(a) => {
                let card = match a {
                    Action::Summon(b) => self.being(py, b.0)?,
                    _ => py.None().into_bound(py),
                };
                self.action.bind(py).call1((a.kind_str(), card))?
            }
            Opt::Square(sq) => sq.into_pyobject(py)?.into_any(),
            Opt::Placement(b, i) => self
                .being(py, b.0)?
                .getattr("placements")?
                .get_item(usize::from(i))?,
            Opt::Being(b) => self.being(py, b.0)?,
            Opt::Flare(f) => self.flares.bind(py).get_item(usize::from(f.0))?,
            Opt::Task(t) => self.tasks.bind(py).get_item(usize::from(t.0))?,
            Opt::Move(a, b) => (a, b).into_pyobject(py)?.into_any(),
            Opt::Direction(d) => d.into_pyobject(py)?.into_any(),
            Opt::Label(l) => l.into_pyobject(py)?.into_any(),
        })
    }
}

/// What a Python player may know at a decision, copied out of the state (the names and meanings of
/// `sim.decisions.PlayerView`).
#[pyclass(frozen, module = "sim._core")]
pub struct View {
    #[pyo3(get)]
    player: usize,
    #[pyo3(get)]
    mode: &'static str,
    #[pyo3(get)]
    turn: u32,
    #[pyo3(get)]
    actions_left: i32,
    pieces: [[Bits; 3]; 2],
    stocks: [(i32, i32); 2],
    scores: [i32; 2],
    sizes: [(usize, usize, usize); 2],
    deck_sizes: [usize; 2],
    #[pyo3(get)]
    hand: Py<PyTuple>,
    #[pyo3(get)]
    legend_hand: Py<PyTuple>,
    #[pyo3(get)]
    flare_hand: Py<PyTuple>,
    #[pyo3(get)]
    task_row: Py<PyTuple>,
    #[pyo3(get)]
    next_task: PyObject,
    #[pyo3(get)]
    destroyed_this_turn: (i32, i32, i32),
    #[pyo3(get)]
    end_triggered: bool,
}

#[pymethods]
impl View {
    #[getter]
    fn opponent(&self) -> usize {
        1 - self.player
    }
    /// Bitboards of `player`'s common, heroic and legendary pieces.
    fn pieces(&self, player: usize) -> (Bits, Bits, Bits) {
        let p = self.pieces[player];
        (p[0], p[1], p[2])
    }
    fn piece_at(&self, sq: u32) -> Option<(usize, u8)> {
        (0..2).find_map(|owner| {
            (0..3u8).find_map(|rank| {
                (self.pieces[owner][usize::from(rank)] >> sq & 1 == 1).then_some((owner, rank))
            })
        })
    }
    fn occupied(&self) -> Bits {
        self.pieces.iter().flatten().fold(0, |m, b| m | b)
    }
    /// Tokens and legendary pieces in `player`'s stock.
    fn stock(&self, player: usize) -> (i32, i32) {
        self.stocks[player]
    }
    fn score(&self, player: usize) -> i32 {
        self.scores[player]
    }
    fn hand_sizes(&self, player: usize) -> (usize, usize, usize) {
        self.sizes[player]
    }
    fn deck_size(&self, player: usize) -> usize {
        self.deck_sizes[player]
    }
}

impl View {
    fn new(py: Python<'_>, v: &PlayerView, conv: &Converter) -> PyResult<View> {
        let s = v.sandbox_state();
        let beings = |ids: &[tk_engine::cards::BeingId]| -> PyResult<Py<PyTuple>> {
            let items = ids
                .iter()
                .map(|b| conv.being(py, b.0))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, items)?.unbind())
        };
        let opts = |o: Vec<Opt>| -> PyResult<Py<PyTuple>> {
            let items = o
                .into_iter()
                .map(|x| conv.option(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, items)?.unbind())
        };
        Ok(View {
            player: v.player,
            mode: v.mode().as_str(),
            turn: v.turn(),
            actions_left: v.actions_left(),
            pieces: [v.pieces(0), v.pieces(1)],
            stocks: [v.stock(0), v.stock(1)],
            scores: [v.score(0), v.score(1)],
            sizes: [v.hand_sizes(0), v.hand_sizes(1)],
            deck_sizes: [v.deck_size(0), v.deck_size(1)],
            hand: beings(v.hand())?,
            legend_hand: beings(v.legend_hand())?,
            flare_hand: opts(v.flare_hand().iter().map(|&f| Opt::Flare(f)).collect())?,
            task_row: opts(v.task_row().iter().map(|&t| Opt::Task(t)).collect())?,
            next_task: conv
                .option(py, v.next_task().map_or(Opt::None, Opt::Task))?
                .unbind(),
            destroyed_this_turn: {
                let d = s.counters.destroyed;
                (d[0], d[1], d[2])
            },
            end_triggered: v.end_triggered(),
        })
    }
}

/// A Python object with `choose(view, decision) -> int` and optionally `name`.
pub struct PyStrategy {
    obj: PyObject,
    name: String,
    conv: Arc<Converter>,
}

impl PyStrategy {
    pub fn new(obj: PyObject, conv: Arc<Converter>) -> PyResult<PyStrategy> {
        let name = Python::with_gil(|py| -> PyResult<String> {
            let o = obj.bind(py);
            match o.getattr("name") {
                Ok(n) => n.extract(),
                Err(_) => o.get_type().name()?.extract(),
            }
        })?;
        Ok(PyStrategy { obj, name, conv })
    }

    fn ask(&self, py: Python<'_>, view: &PlayerView, d: &Decision) -> PyResult<usize> {
        let options = d
            .options
            .iter()
            .map(|&o| self.conv.option(py, o))
            .collect::<PyResult<Vec<_>>>()?;
        let decision = self.conv.decision.bind(py).call1((
            d.kind.as_str(),
            d.player,
            options,
            d.card,
            d.prompt,
        ))?;
        let view = Py::new(py, View::new(py, view, &self.conv)?)?;
        let idx = self.obj.bind(py).call_method1("choose", (view, decision))?;
        match idx.extract::<usize>() {
            Ok(i) if i < d.options.len() => Ok(i),
            _ => Err(PyValueError::new_err(format!(
                "strategy {} chose {} for {} with {} options",
                self.name,
                idx.repr()?,
                d.kind.as_str(),
                d.options.len()
            ))),
        }
    }
}

impl Strategy for PyStrategy {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        Python::with_gil(|py| match self.ask(py, view, decision) {
            Ok(i) => i,
            Err(e) => raise_in_game(e),
        })
    }
}

/// Unwind the game in progress with a Python exception; `run_catching` raises it again.
pub fn raise_in_game(e: PyErr) -> ! {
    PENDING.with(|p| *p.borrow_mut() = Some(e));
    panic::panic_any(PythonRaised)
}

/// The payload of the panic that unwinds a game when a Python player raised; the error waits in PENDING.
struct PythonRaised;

thread_local! {
    static PENDING: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// Run a game, turning the unwinding of a Python player's exception back into that exception and an
/// engine panic (a broken invariant in strict mode) into `AssertionError`.
pub fn run_catching<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    static QUIET: Once = Once::new();
    QUIET.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !info.payload().is::<PythonRaised>() {
                default(info);
            }
        }));
    });
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => Ok(v),
        Err(payload) => {
            if payload.is::<PythonRaised>() {
                if let Some(e) = PENDING.with(|p| p.borrow_mut().take()) {
                    return Err(e);
                }
            }
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "engine panic".into());
            if msg.starts_with("invariant broken") {
                Err(PyAssertionError::new_err(msg))
            } else {
                Err(PyRuntimeError::new_err(msg))
            }
        }
    }
}
