//! The typed form of an effect step table, parsed once at
//! card-set load so nothing is looked up by name while playing.

use serde_json::Value;

use super::CustomFn;
use crate::cards::intern;
use crate::ranks::rank_from_name;

/// The step vocabulary of card files, declared once here and read by Python (sim/steps.py validates card
/// files against it; `_core.step_vocabulary()`): the keys every step may have, each step (`do`) with its
/// own keys, the conditions of `if` and the squares of `where` (besides `within:N`).
pub const COMMON_KEYS: [&str; 10] = [
    "do", "if", "where", "owner", "ranks", "not_self", "count", "up_to", "all", "prompt",
];

/// Each step with the keys of its own.
pub const STEP_KEYS: [(&str, &[&str]); 10] = [
    ("gain_actions", &["n"]),
    ("destroy", &["counts"]),
    ("upgrade", &[]),
    ("downgrade", &[]),
    ("place", &["rank", "color"]),
    ("convert", &["rank"]),
    ("move", &["piece", "kind", "empty_only", "same_piece"]),
    ("leap", &["piece", "kind", "empty_only", "same_piece", "to"]),
    ("one_of", &["branches", "labels"]),
    ("custom", &["fn", "args"]),
];

/// An enum whose variants card files name by a word, and the table of those words (`$table`, in
/// declaration order); `extra` variants are not named by a word.
macro_rules! named {
    ($(#[$meta:meta])* $name:ident, $table:ident {
        $($(#[$vmeta:meta])* $variant:ident = $word:literal,)*
    } $(extra { $($extra:tt)* })?) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
            $($($extra)*)?
        }

        pub const $table: &[(&str, $name)] = &[$(($word, $name::$variant),)*];
    };
}

named! {
    /// `if`: run the step only when the condition holds.
    Cond, CONDITIONS {
        Previous = "previous",
        NotPrevious = "not_previous",
        OnRed = "on_red",
        OnGreen = "on_green",
        LastAction = "last_action",
        NotLastAction = "not_last_action",
        SelfAlive = "self_alive",
        /// Nethervoid: the being is (is not) its player's Gateway.
        SelfGateway = "self_gateway",
        NotSelfGateway = "not_self_gateway",
    }
}

named! {
    /// `where`: the squares a step considers (`WHERE`: those named by a word, besides `within:N`).
    Where, WHERE {
        SelfSq = "self",
        Adjacent = "adjacent",
        Orthogonal = "orthogonal",
        Diagonal = "diagonal",
        Marked = "marked",
        Pattern = "pattern",
        Any = "any",
        Red = "red",
        Green = "green",
        NearGreen = "near_green",
        NearRed = "near_red",
        AdjacentToGreen = "adjacent_to_green",
        AdjacentToMine = "adjacent_to_mine",
        /// The second kind of marked square (Gate of Oblivion).
        MarkedOther = "marked_other",
        /// Empty or not, adjacent to an enemy piece.
        AdjacentToEnemy = "adjacent_to_enemy",
        /// Nethervoid: the 8 squares around the player's Gateway (none without one).
        AdjacentToGateway = "adjacent_to_gateway",
    } extra {
        Within(u8),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Mine,
    Enemy,
    Any,
}

/// `count = N` (mandatory) or `up_to = N` (optional).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Exactly(u32),
    UpTo(u32),
}

/// Standard or combat move (`kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Standard,
    Combat,
}

/// The reach of a leap (`to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    Any,
    Within(u8),
    Exactly(u8),
}

/// The keys of move and leap steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSpec {
    /// `piece = "self"` (the default) rather than "choose".
    pub piece_self: bool,
    pub kind: MoveKind,
    pub empty_only: bool,
    pub same_piece: bool,
}

#[derive(Clone)]
pub enum Op {
    GainActions(i32),
    Destroy {
        counts: bool,
    },
    Upgrade,
    Downgrade,
    /// `enemy`: `color = "enemy"`.
    Place {
        rank: u8,
        enemy: bool,
    },
    /// `to_common`: `rank = "common"` (else "same").
    Convert {
        to_common: bool,
    },
    Move(MoveSpec),
    Leap(MoveSpec, Reach),
    OneOf {
        branches: Vec<Vec<Step>>,
        labels: Vec<&'static str>,
    },
    Custom {
        name: &'static str,
        f: CustomFn,
    },
}

/// One step with the keys shared by all steps.
#[derive(Clone)]
pub struct Step {
    pub op: Op,
    pub cond: Option<Cond>,
    pub where_: Where,
    pub owner: Owner,
    /// Bit r set for each rank listed in `ranks`; None when the key is absent.
    pub ranks: Option<u8>,
    pub not_self: bool,
    pub amount: Amount,
    pub all: bool,
    pub prompt: &'static str,
}

impl Step {
    /// A step with every shared key at its default (`where = "any"`, exactly 1, no condition).
    pub fn new(op: Op) -> Step {
        Step {
            op,
            cond: None,
            where_: Where::Any,
            owner: Owner::Any,
            ranks: None,
            not_self: false,
            amount: Amount::Exactly(1),
            all: false,
            prompt: "",
        }
    }
}

fn distance(text: &str, prefixes: &[&str]) -> Option<(usize, u8)> {
    let (head, n) = text.split_once(':')?;
    let i = prefixes.iter().position(|p| *p == head)?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((i, n.parse().ok()?))
}

/// The value `name` stands for in `table`.
fn named<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

fn int(v: &Value) -> Result<i64, String> {
    v.as_i64()
        .ok_or_else(|| format!("expected an integer, got {v}"))
}

/// Parse a list of step tables; `custom` resolves `fn` names with `lookup`.
pub fn parse_steps(
    v: &Value,
    lookup: &dyn Fn(&str) -> Option<CustomFn>,
) -> Result<Vec<Step>, String> {
    let list = v.as_array().ok_or("expected a list of steps")?;
    list.iter().map(|s| parse_step(s, lookup)).collect()
}

fn parse_step(v: &Value, lookup: &dyn Fn(&str) -> Option<CustomFn>) -> Result<Step, String> {
    let t = v.as_object().ok_or("expected a step table")?;
    let get_str = |k: &str| t.get(k).and_then(Value::as_str);
    let do_ = get_str("do").ok_or("step without 'do'")?;
    let spec = || -> Result<MoveSpec, String> {
        let kind = match get_str("kind").unwrap_or("standard") {
            "standard" => MoveKind::Standard,
            "combat" => MoveKind::Combat,
            k => return Err(format!("unknown move kind {k:?}")),
        };
        Ok(MoveSpec {
            piece_self: get_str("piece").unwrap_or("self") == "self",
            kind,
            empty_only: truthy(t.get("empty_only")),
            same_piece: truthy(t.get("same_piece")),
        })
    };
    let op = match do_ {
        "gain_actions" => Op::GainActions(t.get("n").map(int).transpose()?.unwrap_or(1) as i32),
        "destroy" => Op::Destroy {
            counts: t.get("counts").is_none_or(|c| truthy(Some(c))),
        },
        "upgrade" => Op::Upgrade,
        "downgrade" => Op::Downgrade,
        "place" => Op::Place {
            rank: rank_from_name(get_str("rank").unwrap_or("common")).ok_or("unknown rank")?,
            enemy: get_str("color") == Some("enemy"),
        },
        "convert" => Op::Convert {
            to_common: get_str("rank").unwrap_or("same") == "common",
        },
        "move" => Op::Move(spec()?),
        "leap" => {
            let to = get_str("to").unwrap_or("any");
            let reach = match distance(to, &["within", "exactly"]) {
                None => Reach::Any,
                Some((0, n)) => Reach::Within(n),
                Some((_, n)) => Reach::Exactly(n),
            };
            Op::Leap(spec()?, reach)
        }
        "one_of" => {
            let branches = t
                .get("branches")
                .and_then(Value::as_array)
                .ok_or("one_of without branches")?
                .iter()
                .map(|b| parse_steps(b, lookup))
                .collect::<Result<Vec<_>, _>>()?;
            let given: Vec<&'static str> = t
                .get("labels")
                .and_then(Value::as_array)
                .map(|l| l.iter().filter_map(Value::as_str).map(intern).collect())
                .unwrap_or_default();
            let labels = if given.is_empty() {
                (0..branches.len())
                    .map(|i| intern(&format!("option {}", i + 1)))
                    .collect()
            } else {
                given
            };
            Op::OneOf { branches, labels }
        }
        "custom" => {
            let name = get_str("fn").ok_or("custom step without 'fn'")?;
            let f =
                lookup(name).ok_or_else(|| format!("no registered effect function {name:?}"))?;
            Op::Custom {
                name: intern(name),
                f,
            }
        }
        other => return Err(format!("unknown step {other:?}")),
    };
    let mut step = Step::new(op);
    step.cond = match get_str("if") {
        None => None,
        Some(c) => Some(named(CONDITIONS, c).ok_or_else(|| format!("unknown condition {c:?}"))?),
    };
    let w = get_str("where").unwrap_or("any");
    step.where_ = match (named(WHERE, w), distance(w, &["within"])) {
        (Some(w), _) => w,
        (None, Some((_, n))) if n <= 4 => Where::Within(n),
        _ => return Err(format!("unknown 'where' {w:?}")),
    };
    step.owner = match get_str("owner").unwrap_or("any") {
        "mine" => Owner::Mine,
        "enemy" => Owner::Enemy,
        _ => Owner::Any,
    };
    if let Some(r) = t.get("ranks") {
        let mut m = 0u8;
        for name in r.as_array().ok_or("ranks: expected a list")? {
            m |= 1 << rank_from_name(name.as_str().unwrap_or("")).ok_or("unknown rank")?;
        }
        step.ranks = Some(m);
    }
    step.not_self = truthy(t.get("not_self"));
    step.amount = match (t.get("up_to"), t.get("count")) {
        (Some(n), _) => Amount::UpTo(int(n)? as u32),
        (None, Some(n)) => Amount::Exactly(int(n)? as u32),
        (None, None) => Amount::Exactly(1),
    };
    step.all = truthy(t.get("all"));
    step.prompt = get_str("prompt").map_or("", intern);
    Ok(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_step_is_parsed() {
        for (name, _) in STEP_KEYS {
            let step = serde_json::json!({"do": name, "branches": [[], []]});
            let parsed = parse_step(&step, &|_| None);
            assert!(
                !parsed
                    .as_ref()
                    .is_err_and(|e| e.starts_with("unknown step")),
                "{name}"
            );
        }
        let unknown = serde_json::json!({"do": "smash"});
        assert!(parse_step(&unknown, &|_| None).is_err());
    }
}
