//! The card set, read from the JSON document of sim/core_cards.py. Cards are referred to by small ids.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::Value;

use crate::effects::steps::{parse_steps, Step};
use crate::effects::CustomFn;
use crate::patterns::{placements_for, shapes_for, Pattern, Placement, Shape};
use crate::tasks::{condition, Condition};

/// Index of a being in `CardSet::beings` (decks in order, then legends), Python's `Being.index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BeingId(pub u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FlareId(pub u8);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId(pub u8);

/// A string that lives for the rest of the process: card ids, labels and prompts, so events and options
/// stay `Copy`. Equal strings share one allocation, so loading a card set again leaks nothing new.
pub fn intern(s: &str) -> &'static str {
    static TABLE: Mutex<Option<HashMap<String, &'static str>>> = Mutex::new(None);
    let mut guard = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    let table = guard.get_or_insert_with(HashMap::new);
    if let Some(s) = table.get(s) {
        return s;
    }
    let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
    table.insert(s.to_owned(), leaked);
    leaked
}

pub struct Being {
    pub id: &'static str,
    /// A faction name, or "legend".
    pub deck: &'static str,
    pub index: BeingId,
    pub rank: u8,
    pub pattern: Pattern,
    pub effect: Vec<Step>,
    pub placements: Vec<Placement>,
    pub shapes: Vec<Shape>,
    /// Etherweave: the warp text, played from hand as a free play (None: the card has none).
    pub warp: Option<Vec<Step>>,
    /// Etherweave (Time Traveler): the being goes on any empty colourless square, not on its pattern.
    pub summon_anywhere: bool,
    /// Everfrost: the frozen text's steps, for the cards that have one.
    pub frozen: Option<Vec<Step>>,
}

impl Being {
    pub fn is_legend(&self) -> bool {
        self.deck == "legend"
    }
}

pub struct FlareHalf {
    pub threshold: i32,
    pub effect: Vec<Step>,
}

pub struct Flare {
    pub id: &'static str,
    pub index: FlareId,
    /// Threshold: the opponent has at least this many more upgraded pieces.
    pub upper: FlareHalf,
    /// Threshold: the opponent has at least this many more pieces.
    pub lower: FlareHalf,
}

pub struct Task {
    pub id: &'static str,
    pub index: TaskId,
    pub category: &'static str,
    pub advanced: bool,
    pub points: i32,
    pub condition: Condition,
    /// The condition's name in the task file (strategies measure progress towards it by name).
    pub condition_name: &'static str,
}

pub struct Deck {
    pub name: &'static str,
    pub beings: Vec<BeingId>,
}

pub struct CardSet {
    pub beings: Vec<Being>,
    pub decks: Vec<Deck>,
    pub legends: Vec<BeingId>,
    pub flares: Vec<Flare>,
    pub tasks: Vec<Task>,
}

fn cells(v: &Value) -> Result<Vec<Vec<i64>>, String> {
    v.as_array()
        .ok_or("expected a list of cells")?
        .iter()
        .map(|c| {
            c.as_array()
                .ok_or_else(|| "expected a cell list".to_string())?
                .iter()
                .map(|x| x.as_i64().ok_or_else(|| "expected an integer".to_string()))
                .collect()
        })
        .collect()
}

fn str_field<'v>(v: &'v Value, k: &str) -> Result<&'v str, String> {
    v.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string field {k:?}"))
}

fn int_field(v: &Value, k: &str) -> Result<i64, String> {
    v.get(k)
        .and_then(Value::as_i64)
        .ok_or_else(|| format!("missing integer field {k:?}"))
}

impl CardSet {
    /// Read the document of `sim/core_cards.py card_set_json`. Errors name the card.
    pub fn from_json(text: &str) -> Result<CardSet, String> {
        CardSet::from_json_with(text, &crate::effects::custom_fn)
    }

    /// `from_json` with `lookup` resolving the names of custom effect functions.
    pub fn from_json_with(
        text: &str,
        lookup: &dyn Fn(&str) -> Option<CustomFn>,
    ) -> Result<CardSet, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("card set JSON: {e}"))?;
        let mut beings = Vec::new();
        let being = |v: &Value, beings: &mut Vec<Being>| -> Result<BeingId, String> {
            let id = str_field(v, "id")?;
            let ctx = |e: String| format!("being {id:?}: {e}");
            let pattern = Pattern {
                cells: cells(&v["cells"])
                    .map_err(ctx)?
                    .iter()
                    .map(|c| (c[0] as i32, c[1] as i32, c[2] as u8))
                    .collect(),
                marked: cells(&v["marked"])
                    .map_err(ctx)?
                    .iter()
                    .map(|c| (c[0] as i32, c[1] as i32))
                    .collect(),
                marked_other: cells(&v["marked_other"])
                    .map_err(ctx)?
                    .iter()
                    .map(|c| (c[0] as i32, c[1] as i32))
                    .collect(),
            };
            let placements = placements_for(&pattern);
            let shapes = shapes_for(&pattern, &placements);
            let index = BeingId(beings.len() as u16);
            beings.push(Being {
                id: intern(id),
                deck: intern(str_field(v, "deck")?),
                index,
                rank: int_field(v, "rank")? as u8,
                effect: parse_steps(&v["effect"], lookup).map_err(ctx)?,
                pattern,
                placements,
                shapes,
                warp: match v.get("warp") {
                    None | Some(Value::Null) => None,
                    Some(w) => Some(parse_steps(w, lookup).map_err(ctx)?),
                },
                summon_anywhere: v
                    .get("summon_anywhere")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                frozen: match v.get("frozen") {
                    Some(f) => Some(parse_steps(f, lookup).map_err(ctx)?),
                    None => None,
                },
            });
            Ok(index)
        };
        let mut decks = Vec::new();
        for d in doc["decks"].as_array().ok_or("missing decks")? {
            let mut ids = Vec::new();
            for b in d["beings"].as_array().ok_or("deck without beings")? {
                ids.push(being(b, &mut beings)?);
            }
            decks.push(Deck {
                name: intern(str_field(d, "name")?),
                beings: ids,
            });
        }
        let mut legends = Vec::new();
        for b in doc["legends"].as_array().ok_or("missing legends")? {
            legends.push(being(b, &mut beings)?);
        }
        let mut flares = Vec::new();
        for (i, f) in doc["flares"]
            .as_array()
            .ok_or("missing flares")?
            .iter()
            .enumerate()
        {
            let id = str_field(f, "id")?;
            let half = |h: &Value| -> Result<FlareHalf, String> {
                Ok(FlareHalf {
                    threshold: int_field(h, "threshold")? as i32,
                    effect: parse_steps(&h["effect"], lookup)
                        .map_err(|e| format!("flare {id:?}: {e}"))?,
                })
            };
            flares.push(Flare {
                id: intern(id),
                index: FlareId(i as u8),
                upper: half(&f["upper"])?,
                lower: half(&f["lower"])?,
            });
        }
        let mut tasks = Vec::new();
        for (i, t) in doc["tasks"]
            .as_array()
            .ok_or("missing tasks")?
            .iter()
            .enumerate()
        {
            let id = str_field(t, "id")?;
            let cond = str_field(t, "condition")?;
            tasks.push(Task {
                id: intern(id),
                index: TaskId(i as u8),
                category: intern(str_field(t, "category")?),
                advanced: t.get("advanced").and_then(Value::as_bool).unwrap_or(false),
                points: int_field(t, "points")? as i32,
                condition: condition(cond)
                    .ok_or_else(|| format!("task {id:?}: unknown condition {cond:?}"))?,
                condition_name: intern(cond),
            });
        }
        Ok(CardSet {
            beings,
            decks,
            legends,
            flares,
            tasks,
        })
    }

    #[inline]
    pub fn being(&self, id: BeingId) -> &Being {
        &self.beings[id.0 as usize]
    }

    #[inline]
    pub fn flare(&self, id: FlareId) -> &Flare {
        &self.flares[id.0 as usize]
    }

    #[inline]
    pub fn task(&self, id: TaskId) -> &Task {
        &self.tasks[id.0 as usize]
    }

    /// The index of the deck called `name`, or an error naming the known decks.
    pub fn deck_index(&self, name: &str) -> Result<usize, String> {
        self.decks
            .iter()
            .position(|d| d.name == name)
            .ok_or_else(|| {
                let mut names: Vec<&str> = self.decks.iter().map(|d| d.name).collect();
                names.sort();
                format!("unknown deck {name:?}; known decks: {}", names.join(", "))
            })
    }

    /// The being with card id `id`, if any.
    pub fn being_by_id(&self, id: &str) -> Option<BeingId> {
        self.beings
            .iter()
            .position(|b| b.id == id)
            .map(|i| BeingId(i as u16))
    }
}
