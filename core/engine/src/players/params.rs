//! The lookahead engine's declared parameters and the named presets (strategies/lookahead.py PARAMS,
//! strategies/scripted.py PRESETS, strategies/params.py checks).

/// A parameter value as given by a config: a whole number or a number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    Int(i64),
    Float(f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub score: f64,
    pub common: f64,
    pub heroic: f64,
    pub legendary: f64,
    pub threat: f64,
    pub tasks: f64,
    pub patterns: f64,
    pub readiness_decay: f64,
    pub legend_cards: f64,
    pub destruction: f64,
    pub flare_margin: f64,
    pub max_placements: i64,
    pub place_candidates: i64,
    pub explore: i64,
    pub full_values: i64,
}

/// The names of the scripted strategies, in registration order.
pub const PRESET_NAMES: [&str; 4] = ["greedy", "builder", "hunter", "brawler"];

impl Default for Params {
    /// The declared defaults (the `greedy` preset).
    fn default() -> Params {
        Params {
            score: 10.0,
            common: 1.0,
            heroic: 2.5,
            legendary: 4.0,
            threat: 0.4,
            tasks: 3.0,
            patterns: 0.0,
            readiness_decay: 0.5,
            legend_cards: 1.0,
            destruction: 0.0,
            flare_margin: 0.0,
            max_placements: 5,
            place_candidates: 4,
            explore: 3,
            full_values: 1,
        }
    }
}

impl Params {
    /// The defaults of a named preset, or None for an unknown name.
    pub fn preset(name: &str) -> Option<Params> {
        let base = Params::default();
        Some(match name {
            "greedy" => base,
            "builder" => Params {
                patterns: 1.5,
                ..base
            },
            "hunter" => Params {
                patterns: 1.5,
                heroic: 3.5,
                legendary: 5.0,
                legend_cards: 2.0,
                ..base
            },
            "brawler" => Params {
                patterns: 1.5,
                destruction: 1.0,
                threat: 0.6,
                flare_margin: 2.0,
                ..base
            },
            _ => return None,
        })
    }

    /// Set one parameter, checked as `strategies.params.Param.check` does.
    pub fn set(&mut self, strategy: &str, name: &str, value: ParamValue) -> Result<(), String> {
        let float = |v: ParamValue| match v {
            ParamValue::Int(i) => i as f64,
            ParamValue::Float(f) => f,
        };
        let bounds_err = |what: &str| {
            format!("strategy {strategy:?}: parameter {name:?} must be {what}, got {value:?}")
        };
        let int = |v: ParamValue, low: i64| match v {
            ParamValue::Int(i) if i >= low => Ok(i),
            ParamValue::Int(_) => Err(bounds_err(&format!("at least {low}"))),
            ParamValue::Float(_) => Err(bounds_err("a whole number")),
        };
        match name {
            "score" => self.score = float(value),
            "common" => self.common = float(value),
            "heroic" => self.heroic = float(value),
            "legendary" => self.legendary = float(value),
            "threat" => self.threat = float(value),
            "tasks" => self.tasks = float(value),
            "patterns" => self.patterns = float(value),
            "readiness_decay" => {
                let v = float(value);
                if !(0.0..=1.0).contains(&v) {
                    return Err(bounds_err("between 0.0 and 1.0"));
                }
                self.readiness_decay = v;
            }
            "legend_cards" => self.legend_cards = float(value),
            "destruction" => self.destruction = float(value),
            "flare_margin" => self.flare_margin = float(value),
            "max_placements" => self.max_placements = int(value, 1)?,
            "place_candidates" => self.place_candidates = int(value, 1)?,
            "explore" => self.explore = int(value, 0)?,
            "full_values" => self.full_values = int(value, 1)?,
            _ => return Err(format!("strategy {strategy:?} has no parameter {name:?}")),
        }
        Ok(())
    }
}
