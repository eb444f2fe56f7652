//! What Python reads from the core instead of declaring it again: every strategy's parameters, the presets
//! of the scripted strategies (players/params.rs) and the step vocabulary of card files (effects/steps.rs).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;

use tk_engine::effects::steps;
use tk_engine::players::params::{self, Kind, ParamValue};

fn value(py: Python<'_>, v: ParamValue) -> PyResult<PyObject> {
    match v {
        ParamValue::Bool(b) => b.into_py_any(py),
        ParamValue::Int(i) => i.into_py_any(py),
        ParamValue::Float(f) => f.into_py_any(py),
        ParamValue::Text(t) => t.into_py_any(py),
    }
}

/// A bound as written in the declaration, as a number of the parameter's type (None when absent).
fn bound(py: Python<'_>, kind: Kind, text: Option<&str>) -> PyResult<PyObject> {
    match (text, kind) {
        (None, _) => Ok(py.None()),
        (Some(t), Kind::Whole) => t.parse::<i64>().expect("a whole number").into_py_any(py),
        (Some(t), _) => t.parse::<f64>().expect("a number").into_py_any(py),
    }
}

/// Each strategy's parameters, in declaration order: strategy -> [{name, type ("bool", "int", "float" or
/// "str"), default, doc, minimum, maximum, choices}] (`random` takes none).
#[pyfunction]
pub fn strategy_params(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("random", PyList::empty(py))?;
    for (strategy, declared) in params::declarations() {
        let list = PyList::empty(py);
        for (spec, default) in declared {
            let d = PyDict::new(py);
            d.set_item("name", spec.name)?;
            d.set_item("type", spec.kind.type_name())?;
            d.set_item("default", value(py, default)?)?;
            d.set_item("doc", spec.doc)?;
            d.set_item("minimum", bound(py, spec.kind, spec.minimum)?)?;
            d.set_item("maximum", bound(py, spec.kind, spec.maximum)?)?;
            let choices = (!spec.choices.is_empty()).then(|| spec.choices.to_vec());
            d.set_item("choices", choices)?;
            list.append(d)?;
        }
        out.set_item(strategy, list)?;
    }
    Ok(out)
}

/// The scripted strategies: preset -> the lookahead parameters it sets apart from the defaults.
#[pyfunction]
pub fn presets(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    for (name, changes) in params::PRESETS {
        let d = PyDict::new(py);
        for &(param, v) in changes {
            d.set_item(param, value(py, v)?)?;
        }
        out.set_item(name, d)?;
    }
    Ok(out)
}

/// The step vocabulary of card files: {"common_keys": [...], "steps": {step: [its keys]}, "conditions":
/// [...], "where": [...]} (besides `where = "within:N"`).
#[pyfunction]
pub fn step_vocabulary(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("common_keys", steps::COMMON_KEYS.to_vec())?;
    let by_step = PyDict::new(py);
    for (name, keys) in steps::STEP_KEYS {
        by_step.set_item(name, keys.to_vec())?;
    }
    out.set_item("steps", by_step)?;
    out.set_item(
        "conditions",
        steps::CONDITIONS
            .iter()
            .map(|&(n, _)| n)
            .collect::<Vec<_>>(),
    )?;
    out.set_item(
        "where",
        steps::WHERE.iter().map(|&(n, _)| n).collect::<Vec<_>>(),
    )?;
    Ok(out)
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
