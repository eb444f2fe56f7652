//! The core's own players as Python objects and as seats of a Python `Game`: a seat whose strategy the core
//! has is played inside the core (`SeatArg`), and `NativeStrategy` is such a player held by Python
//! (`strategies.core_player.CorePlayer`), asked with a `sim.decisions.PlayerView`.

use std::cell::RefCell;
use std::rc::Rc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use tk_engine::cards::{intern, BeingId, FlareId, TaskId};
use tk_engine::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use tk_engine::players::expert::Expert;
use tk_engine::players::lookahead::Lookahead;
use tk_engine::players::mc::{McParams, MonteCarlo};
use tk_engine::players::params::{ExpertParams, ParamValue, Params, PlannerParams, SwiftParams};
use tk_engine::players::planner::Planner;
use tk_engine::players::random::RandomStrategy;
use tk_engine::players::swift::Swift;
use tk_engine::rng::PyRandom;

use crate::python_player::run_catching;
use crate::view::PyPlayerView;

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

/// What plays a seat of a Python `Game`: the Python asker, `(name, parameters, random.Random)` for a player
/// the core has whose stream is Python's (the random player: the core draws from a copy and writes the
/// stream back after the operation), or a `NativeStrategy` (the player itself, kept in the core between
/// operations).
pub enum SeatArg {
    Asker(PyObject),
    Native(String, Vec<(String, ParamValue)>, PyObject),
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
            let (name, params, rng): (String, Bound<'py, PyDict>, Bound<'py, PyAny>) =
                t.extract()?;
            return Ok(SeatArg::Native(name, param_values(&params)?, rng.unbind()));
        }
        Ok(SeatArg::Asker(ob.clone().unbind()))
    }
}

/// A strategy of the core as a Python object: `strategies.core_player.CorePlayer` holds one. In a `Game` it
/// plays its seat inside the core; asked directly (`choose`), it answers on the game's own state.
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

    /// The index of the option it chooses at a decision of `view`'s game (between operations, or while a
    /// Python strategy of that game chooses); `options` are encoded as `sim.core.encode_option` does, or
    /// None for the options of the decision being asked (`CoreGame.offers`).
    fn choose(
        &self,
        view: PyRef<'_, PyPlayerView>,
        kind: &str,
        options: Option<Vec<Bound<'_, PyTuple>>>,
        card: &str,
        prompt: &str,
    ) -> PyResult<usize> {
        let kind = KINDS
            .into_iter()
            .find(|k| k.as_str() == kind)
            .ok_or_else(|| PyValueError::new_err(format!("unknown decision kind {kind:?}")))?;
        let game = view.game(view.py());
        let options = match options {
            Some(options) => options
                .iter()
                .map(option_from)
                .collect::<PyResult<Vec<_>>>()?,
            None => game.offered()?,
        };
        let decision = Decision {
            kind,
            player: view.player,
            options: &options,
            card: intern(card),
            prompt: intern(prompt),
        };
        game.with_state(|state| {
            let view = PlayerView::new(state, decision.player);
            run_catching(|| self.inner.borrow_mut().choose(&view, &decision))
        })?
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
