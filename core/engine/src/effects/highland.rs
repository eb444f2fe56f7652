//! Effect functions of the highland cards that the step vocabulary cannot express (sim/effects/highland.py).

use super::Registry;

/// Add this module's functions to the registry, e.g. `table.push(("highland.name", name));`.
pub fn register(table: &mut Registry) {
    let _ = table;
}
