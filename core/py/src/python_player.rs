//! What Python strategies need from the core: options as the Python values the Python API offers (card,
//! placement and action objects of the Python card set, squares as ints, moves as tuples, None), and a
//! Python exception raised inside a strategy carried out of the game that was asking.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use pyo3::exceptions::{PyAssertionError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use tk_engine::decisions::{Action, Opt};

/// The Python objects options are made of: the card set's cards and `sim.decisions.Action`.
pub struct Converter {
    beings: Py<PyTuple>,
    flares: Py<PyTuple>,
    tasks: Py<PyTuple>,
    action: PyObject,
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
        })
    }

    pub(crate) fn being<'py>(&self, py: Python<'py>, index: u16) -> PyResult<Bound<'py, PyAny>> {
        self.beings.bind(py).get_item(usize::from(index))
    }

    pub(crate) fn flare<'py>(&self, py: Python<'py>, index: u8) -> PyResult<Bound<'py, PyAny>> {
        self.flares.bind(py).get_item(usize::from(index))
    }

    pub(crate) fn task<'py>(&self, py: Python<'py>, index: u8) -> PyResult<Bound<'py, PyAny>> {
        self.tasks.bind(py).get_item(usize::from(index))
    }

    pub(crate) fn option<'py>(&self, py: Python<'py>, opt: Opt) -> PyResult<Bound<'py, PyAny>> {
        Ok(match opt {
            Opt::None => py.None().into_bound(py),
            Opt::Action(a) => {
                let card = match a {
                    Action::Summon(b) | Action::Warp(b) => self.being(py, b.0)?,
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
            Opt::Seat(seat) => seat.into_pyobject(py)?.into_any(),
            Opt::SeatSquare(seat, sq) => (seat, sq).into_pyobject(py)?.into_any(),
            Opt::Improvised(b, i, colour) => {
                let placement = self
                    .being(py, b.0)?
                    .getattr("placements")?
                    .get_item(usize::from(i))?;
                (placement, colour).into_pyobject(py)?.into_any()
            }
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
