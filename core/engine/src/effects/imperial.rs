//! Effect functions of the imperial cards that the step vocabulary cannot express (sim/effects/imperial.py).

use super::Registry;

/// Add this module's functions to the registry, e.g. `table.push(("imperial.name", name));`.
pub fn register(table: &mut Registry) {
    let _ = table;
}
