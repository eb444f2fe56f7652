//! Effect functions of the legends cards that the step vocabulary cannot express (sim/effects/legends.py).

use super::Registry;

/// Add this module's functions to the registry, e.g. `table.push(("legends.name", name));`.
pub fn register(table: &mut Registry) {
    let _ = table;
}
