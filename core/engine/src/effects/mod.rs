//! Card effects: the step vocabulary, the context effects act through, and the registry of the named
//! (custom) effect functions of each faction's cards.

pub mod context;
pub mod interpreter;
pub mod steps;

mod etherweave;
mod everfrost;
mod highland;
mod imperial;
mod legends;
pub mod nethervoid;
#[cfg(test)]
mod nethervoid_tests;
mod sylvan;
#[cfg(test)]
pub(crate) mod testing;

use context::EffectContext;
use steps::Step;

/// A named effect function for `{ do = "custom", fn = name }`; returns whether it did something.
pub type CustomFn = fn(&mut EffectContext<'_, '_>, &Step) -> bool;

/// The table each faction module fills with its functions: (name, function).
pub type Registry = Vec<(&'static str, CustomFn)>;

/// Every registered custom effect function.
pub fn registry() -> Registry {
    let mut table = Registry::new();
    imperial::register(&mut table);
    highland::register(&mut table);
    sylvan::register(&mut table);
    legends::register(&mut table);
    etherweave::register(&mut table);
    everfrost::register(&mut table);
    nethervoid::register(&mut table);
    table
}

/// The custom effect function called `name`, if registered.
pub fn custom_fn(name: &str) -> Option<CustomFn> {
    registry()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| f)
}
