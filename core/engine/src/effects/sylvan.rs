//! Effect functions of the sylvan cards that the step vocabulary cannot express (sim/effects/sylvan.py).

use super::Registry;

/// Add this module's functions to the registry, e.g. `table.push(("sylvan.name", name));`.
pub fn register(table: &mut Registry) {
    let _ = table;
}
