//! The lookahead engine's declared parameters and the named presets (strategies/lookahead.py `PARAMS`,
//! strategies/scripted.py `PRESETS`), checked as strategies/params.py checks them (same messages).

/// A parameter value as a config gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A name (`mc`'s base player), interned.
    Text(&'static str),
}

impl ParamValue {
    /// Python's `repr` of the value.
    pub fn repr(self) -> String {
        match self {
            ParamValue::Text(t) => format!("'{t}'"),
            ParamValue::Bool(b) => (if b { "True" } else { "False" }).to_string(),
            ParamValue::Int(i) => i.to_string(),
            ParamValue::Float(f) => format!("{f:?}"),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            ParamValue::Bool(b) => b as i64 as f64,
            ParamValue::Int(i) => i as f64,
            ParamValue::Float(f) => f,
            ParamValue::Text(_) => f64::NAN,
        }
    }
}

/// One declared parameter: whole number, number or flag (true or false), its meaning and bounds.
struct Spec {
    name: &'static str,
    whole: bool,
    /// A flag: true or false (`pass_control`).
    flag: bool,
    doc: &'static str,
    minimum: Option<&'static str>,
    maximum: Option<&'static str>,
}

const fn spec(name: &'static str, whole: bool, doc: &'static str) -> Spec {
    Spec {
        name,
        whole,
        flag: false,
        doc,
        minimum: None,
        maximum: None,
    }
}

/// A flag parameter (true or false).
const fn flag(name: &'static str, doc: &'static str) -> Spec {
    Spec {
        flag: true,
        ..spec(name, false, doc)
    }
}

/// Team games: the meaning of `pass_control`, a parameter of every player but `random`.
pub(crate) const PASS_CONTROL_DOC: &str =
    "team games: may hand the rest of a turn to the teammate when that is valued best (false: never)";

/// In Python's declaration order (the order of `its parameters` in messages is sorted, as there).
const SPECS: [Spec; 22] = [
    spec("score", false, "value of one point of score margin"),
    spec(
        "common",
        false,
        "value of a common piece in the arena (yours minus the opponent's)",
    ),
    spec("heroic", false, "value of a heroic piece in the arena"),
    spec(
        "legendary",
        false,
        "value of a legendary piece in the arena",
    ),
    spec(
        "threat",
        false,
        "share of a piece's value lost when it stands next to an enemy piece that can take it",
    ),
    spec(
        "tasks",
        false,
        "High Form: value of progress towards a current task, per task point",
    ),
    spec(
        "patterns",
        false,
        "value of the hand's readiness (how close each card's pattern is)",
    ),
    Spec {
        minimum: Some("0.0"),
        maximum: Some("1.0"),
        ..spec(
            "readiness_decay",
            false,
            "readiness of a card is this to the power of the actions its pattern needs",
        )
    },
    spec(
        "legend_cards",
        false,
        "factor on the value of legend cards in the hand's readiness",
    ),
    spec(
        "destruction",
        false,
        "Deathmatch: extra value per enemy piece destroyed this turn",
    ),
    spec(
        "flare_margin",
        false,
        "gain a flare must bring (in position value) to be invoked",
    ),
    Spec {
        minimum: Some("1"),
        ..spec(
            "max_placements",
            true,
            "placements of one card tried in the sandbox (the most promising first)",
        )
    },
    Spec {
        minimum: Some("1"),
        ..spec(
            "place_candidates",
            true,
            "squares fully evaluated for a place",
        )
    },
    Spec {
        minimum: Some("0"),
        ..spec(
            "explore",
            true,
            "extra sandbox runs to try the branches and directions of an effect",
        )
    },
    Spec {
        minimum: Some("1"),
        ..spec(
            "full_values",
            true,
            "placements of one card valued with the hand's readiness (the best few)",
        )
    },
    spec(
        "frozen",
        false,
        "Everfrost: value of a frozen effect in play while its holder has a turn left to thaw it, less \
         as the end nears",
    ),
    Spec {
        minimum: Some("0.0"),
        maximum: Some("1.0"),
        ..spec(
            "pending",
            false,
            "Etherweave: share of the causality penalty (2 points) counted while a pending being can \
             still be summoned, times how near the end is (all of it on its holder's last turn)",
        )
    },
    spec(
        "gateway",
        false,
        "Nethervoid: value of having the Gateway (more where the Nethervoid cards in hand would use it)",
    ),
    Spec {
        minimum: Some("0.0"),
        maximum: Some("1.0"),
        ..spec(
            "stasis",
            false,
            "Etherweave: share of its value a piece in stasis keeps for its owner",
        )
    },
    spec(
        "removed",
        false,
        "Everfrost: value lost per piece of one's supply removed from the game (a legendary one twice)",
    ),
    spec(
        "free_action",
        false,
        "value of an action gained by a free play (a thaw or a warp)",
    ),
    flag("pass_control", PASS_CONTROL_DOC),
];

/// The lookahead engine's parameters; the first ten are the weights of its evaluation (`evaluate.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// Everfrost: value of a frozen effect in play while its holder has a turn left.
    pub frozen: f64,
    /// Etherweave: share of the causality penalty counted while a pending being can still be summoned.
    pub pending: f64,
    /// Nethervoid: value of having the Gateway.
    pub gateway: f64,
    /// Etherweave: share of its value a piece in stasis keeps for its owner.
    pub stasis: f64,
    /// Everfrost: value lost per piece removed from the game.
    pub removed: f64,
    /// Value of an action gained by a thaw or a warp.
    pub free_action: f64,
    /// Team games: whether the player may pass control to its teammate (never outside team games).
    pub pass_control: bool,
}

/// The defaults of the expansion parameters (docs/strategies.md, "The expansion mechanics": measured).
pub const FROZEN: f64 = 2.0;
pub const PENDING: f64 = 0.25;
pub const GATEWAY: f64 = 1.0;
pub const STASIS: f64 = 0.5;
pub const REMOVED: f64 = 0.5;
pub const FREE_ACTION: f64 = 1.5;

/// The names of the scripted strategies.
pub const PRESET_NAMES: [&str; 4] = ["greedy", "builder", "hunter", "brawler"];

impl Params {
    /// The value of a piece of each rank in the arena.
    pub fn material(&self) -> [f64; 3] {
        [self.common, self.heroic, self.legendary]
    }
}

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
            frozen: FROZEN,
            pending: PENDING,
            gateway: GATEWAY,
            stasis: STASIS,
            removed: REMOVED,
            free_action: FREE_ACTION,
            pass_control: true,
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

    /// The preset `strategy` with the `given` values checked and filled in (strategies/params.py `resolve`).
    pub fn resolve(strategy: &str, given: &[(&str, ParamValue)]) -> Result<Params, String> {
        let mut params =
            Params::preset(strategy).ok_or_else(|| format!("unknown preset {strategy:?}"))?;
        unknown_names(strategy, &SPECS, given)?;
        for spec in SPECS.iter() {
            if let Some(&(_, value)) = given.iter().find(|(n, _)| *n == spec.name) {
                params.set(spec, check(strategy, spec, value)?);
            }
        }
        Ok(params)
    }

    fn set(&mut self, spec: &Spec, value: ParamValue) {
        let f = value.as_f64();
        let i = match value {
            ParamValue::Int(i) => i,
            _ => 0,
        };
        match spec.name {
            "score" => self.score = f,
            "common" => self.common = f,
            "heroic" => self.heroic = f,
            "legendary" => self.legendary = f,
            "threat" => self.threat = f,
            "tasks" => self.tasks = f,
            "patterns" => self.patterns = f,
            "readiness_decay" => self.readiness_decay = f,
            "legend_cards" => self.legend_cards = f,
            "destruction" => self.destruction = f,
            "flare_margin" => self.flare_margin = f,
            "max_placements" => self.max_placements = i,
            "place_candidates" => self.place_candidates = i,
            "explore" => self.explore = i,
            "full_values" => self.full_values = i,
            "frozen" => self.frozen = f,
            "pending" => self.pending = f,
            "gateway" => self.gateway = f,
            "stasis" => self.stasis = f,
            "removed" => self.removed = f,
            "free_action" => self.free_action = f,
            "pass_control" => self.pass_control = value == ParamValue::Bool(true),
            _ => unreachable!("every declared parameter is set"),
        }
    }
}

/// The expert's declared parameters (strategies/expert.py `PARAMS`).
const EXPERT_SPECS: [Spec; 6] = [
    Spec {
        minimum: Some("1"),
        ..spec(
            "iterations",
            true,
            "search iterations per main decision, each on a fresh deal of what the player cannot see",
        )
    },
    Spec {
        minimum: Some("0.0"),
        ..spec(
            "exploration",
            false,
            "UCB exploration constant (rewards are in 0..1)",
        )
    },
    Spec {
        minimum: Some("1"),
        maximum: Some("4"),
        ..spec(
            "depth",
            true,
            "turns searched: the rest of this one, then the next ones (2: the opponent's reply)",
        )
    },
    Spec {
        minimum: Some("1"),
        ..spec(
            "width",
            true,
            "ways of taking each action searched at the root (the best squares of a place, the best \
             placements of a summon)",
        )
    },
    Spec {
        minimum: Some("1"),
        ..spec(
            "shortlist",
            true,
            "moves searched at the root, builder's best first (discard, flare and end always)",
        )
    },
    flag("pass_control", PASS_CONTROL_DOC),
];

/// The parameters of the expert search player (players/expert.rs).
#[derive(Clone, Debug, PartialEq)]
pub struct ExpertParams {
    pub iterations: i64,
    pub exploration: f64,
    pub depth: i64,
    pub width: i64,
    pub shortlist: i64,
    /// Team games: whether the player may pass control to its teammate.
    pub pass_control: bool,
}

impl Default for ExpertParams {
    fn default() -> ExpertParams {
        ExpertParams {
            iterations: 1000,
            exploration: 0.5,
            depth: 4,
            width: 5,
            shortlist: 12,
            pass_control: true,
        }
    }
}

impl ExpertParams {
    /// The defaults with the `given` values checked and filled in (the lookahead's messages).
    pub fn resolve(given: &[(&str, ParamValue)]) -> Result<ExpertParams, String> {
        let strategy = "expert";
        unknown_names(strategy, &EXPERT_SPECS, given)?;
        let mut params = ExpertParams::default();
        for spec in EXPERT_SPECS.iter() {
            if let Some(&(_, value)) = given.iter().find(|(n, _)| *n == spec.name) {
                let value = check(strategy, spec, value)?;
                match spec.name {
                    "iterations" => params.iterations = value.as_f64() as i64,
                    "exploration" => params.exploration = value.as_f64(),
                    "depth" => params.depth = value.as_f64() as i64,
                    "width" => params.width = value.as_f64() as i64,
                    "shortlist" => params.shortlist = value.as_f64() as i64,
                    "pass_control" => params.pass_control = value == ParamValue::Bool(true),
                    _ => unreachable!("every declared parameter is set"),
                }
            }
        }
        Ok(params)
    }

    /// The value of its parameter `name`.
    pub fn setting(&self, name: &str) -> Option<f64> {
        Some(match name {
            "iterations" => self.iterations as f64,
            "exploration" => self.exploration,
            "depth" => self.depth as f64,
            "width" => self.width as f64,
            "shortlist" => self.shortlist as f64,
            "pass_control" => self.pass_control as i64 as f64,
            _ => return None,
        })
    }
}

/// The planner's parameters (players/planner.rs), declared as strategies/planner.py declares them; the
/// first four are `planner-classic`'s (the planner before issue 25, which has no others).
const PLANNER_SPECS: [Spec; 5] = [
    Spec {
        minimum: Some("1"),
        ..spec(
            "rollouts",
            true,
            "rollouts per shortlisted option of an action decision",
        )
    },
    Spec {
        minimum: Some("1"),
        ..spec(
            "shortlist",
            true,
            "options of an action decision played out, the builder's best first (discard, flare and end \
             always)",
        )
    },
    flag("pass_control", PASS_CONTROL_DOC),
    Spec {
        minimum: Some("0"),
        ..spec(
            "pass_margin",
            false,
            "team games: how much better (in position value) passing control must play out than the best \
             other action to be chosen",
        )
    },
    Spec {
        minimum: Some("0"),
        ..spec(
            "effect_runs",
            true,
            "extra sandbox runs per option tried for the choices inside its effects (moves, targets, \
             optional parts), each valued by the position it leads to",
        )
    },
];
/// The classic planner's parameters: the first four.
const CLASSIC_SPECS: usize = 4;

/// The parameters of the default player `planner` (players/planner.rs).
#[derive(Clone, Debug, PartialEq)]
pub struct PlannerParams {
    pub rollouts: i64,
    pub shortlist: i64,
    /// Team games: whether the player may pass control to its teammate.
    pub pass_control: bool,
    /// Team games: the lead over the best other action that passing control needs in the rollouts.
    pub pass_margin: f64,
    /// None: `planner-classic` (choices inside effects judged at once, no returns, legend summons only
    /// when builder ranks them, a finished game only won or lost); Some(runs): the extra sandbox runs
    /// per option for the choices inside its effects.
    pub effect_runs: Option<i64>,
}

impl Default for PlannerParams {
    fn default() -> PlannerParams {
        PlannerParams {
            rollouts: 4,
            shortlist: 4,
            pass_control: true,
            pass_margin: PASS_MARGIN,
            effect_runs: Some(EFFECT_RUNS),
        }
    }
}

/// The planner's default `effect_runs` (docs/strategies.md, "Blind spots").
pub const EFFECT_RUNS: i64 = 12;

/// The planner's default `pass_margin` (docs/strategies.md: measured against passing off).
pub const PASS_MARGIN: f64 = 10.0;

impl PlannerParams {
    /// The defaults with the `given` values checked and filled in (the lookahead's messages).
    pub fn resolve(given: &[(&str, ParamValue)]) -> Result<PlannerParams, String> {
        Self::resolve_for(super::planner::NAME, &PLANNER_SPECS, given)
    }

    /// `planner-classic`'s parameters (the first four), checked as `resolve` checks them.
    pub fn resolve_classic(given: &[(&str, ParamValue)]) -> Result<PlannerParams, String> {
        let mut params = Self::resolve_for(
            super::planner::CLASSIC_NAME,
            &PLANNER_SPECS[..CLASSIC_SPECS],
            given,
        )?;
        params.effect_runs = None;
        Ok(params)
    }

    fn resolve_for(
        strategy: &str,
        specs: &[Spec],
        given: &[(&str, ParamValue)],
    ) -> Result<PlannerParams, String> {
        unknown_names(strategy, specs, given)?;
        let mut params = PlannerParams::default();
        for spec in specs.iter() {
            if let Some(&(_, given)) = given.iter().find(|(n, _)| *n == spec.name) {
                let checked = check(strategy, spec, given)?;
                let value = checked.as_f64() as i64;
                match spec.name {
                    "rollouts" => params.rollouts = value,
                    "shortlist" => params.shortlist = value,
                    "pass_control" => params.pass_control = checked == ParamValue::Bool(true),
                    "pass_margin" => params.pass_margin = checked.as_f64(),
                    "effect_runs" => params.effect_runs = Some(value),
                    _ => unreachable!("every declared parameter is set"),
                }
            }
        }
        Ok(params)
    }

    /// The value of its parameter `name`.
    pub fn setting(&self, name: &str) -> Option<f64> {
        Some(match name {
            "rollouts" => self.rollouts as f64,
            "shortlist" => self.shortlist as f64,
            "pass_control" => self.pass_control as i64 as f64,
            "pass_margin" => self.pass_margin,
            "effect_runs" => self.effect_runs? as f64,
            _ => return None,
        })
    }
}

/// `swift`'s parameters (players/swift.rs), declared as strategies/swift.py declares them.
const SWIFT_SPECS: [Spec; 7] = [
    Spec {
        minimum: Some("1"),
        ..spec("rollouts", true, "rollouts per close option of an action decision")
    },
    Spec {
        minimum: Some("1"),
        ..spec(
            "shortlist",
            true,
            "close options of an action decision played out at most, the builder's best first",
        )
    },
    Spec {
        minimum: Some("0"),
        ..spec(
            "margin",
            false,
            "an option is close when builder values it within this of the best; with no other close \
             option the best is taken without rollouts",
        )
    },
    Spec {
        minimum: Some("0"),
        ..spec(
            "effect_runs",
            true,
            "extra sandbox runs per option tried for the choices inside its effects (moves, targets, \
             optional parts), each valued by the position it leads to (0: builder's quick rules)",
        )
    },
    Spec {
        minimum: Some("1"),
        ..spec(
            "rollout_placements",
            true,
            "placements of one card tried by the builder that plays the rollouts",
        )
    },
    flag("pass_control", PASS_CONTROL_DOC),
    Spec {
        minimum: Some("0"),
        ..spec(
            "pass_margin",
            false,
            "team games: how much better (in position value) passing control must play out than the best \
             other action to be chosen",
        )
    },
];

/// The parameters of `swift` (players/swift.rs).
#[derive(Clone, Debug, PartialEq)]
pub struct SwiftParams {
    pub rollouts: i64,
    pub shortlist: i64,
    /// How far below the best builder's value an option may be and still be played out.
    pub margin: f64,
    pub effect_runs: i64,
    /// `max_placements` of the builder that plays the rollouts.
    pub rollout_placements: i64,
    /// Team games: whether the player may pass control to its teammate.
    pub pass_control: bool,
    /// Team games: the lead over the best other action that passing control needs in the rollouts.
    pub pass_margin: f64,
}

impl Default for SwiftParams {
    fn default() -> SwiftParams {
        SwiftParams {
            rollouts: 2,
            shortlist: 2,
            margin: 1.0,
            effect_runs: 3,
            rollout_placements: 2,
            pass_control: true,
            pass_margin: PASS_MARGIN,
        }
    }
}

impl SwiftParams {
    /// The defaults with the `given` values checked and filled in (the lookahead's messages).
    pub fn resolve(given: &[(&str, ParamValue)]) -> Result<SwiftParams, String> {
        let strategy = super::swift::NAME;
        unknown_names(strategy, &SWIFT_SPECS, given)?;
        let mut params = SwiftParams::default();
        for spec in SWIFT_SPECS.iter() {
            if let Some(&(_, given)) = given.iter().find(|(n, _)| *n == spec.name) {
                let checked = check(strategy, spec, given)?;
                let value = checked.as_f64();
                match spec.name {
                    "rollouts" => params.rollouts = value as i64,
                    "shortlist" => params.shortlist = value as i64,
                    "margin" => params.margin = value,
                    "effect_runs" => params.effect_runs = value as i64,
                    "rollout_placements" => params.rollout_placements = value as i64,
                    "pass_control" => params.pass_control = checked == ParamValue::Bool(true),
                    "pass_margin" => params.pass_margin = value,
                    _ => unreachable!("every declared parameter is set"),
                }
            }
        }
        Ok(params)
    }

    /// The value of its parameter `name`.
    pub fn setting(&self, name: &str) -> Option<f64> {
        Some(match name {
            "rollouts" => self.rollouts as f64,
            "shortlist" => self.shortlist as f64,
            "margin" => self.margin,
            "effect_runs" => self.effect_runs as f64,
            "rollout_placements" => self.rollout_placements as f64,
            "pass_control" => self.pass_control as i64 as f64,
            "pass_margin" => self.pass_margin,
            _ => return None,
        })
    }
}

fn unknown_names(
    strategy: &str,
    specs: &[Spec],
    given: &[(&str, ParamValue)],
) -> Result<(), String> {
    let mut unknown: Vec<&str> = given
        .iter()
        .map(|&(n, _)| n)
        .filter(|n| !specs.iter().any(|s| s.name == *n))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    unknown.sort_unstable();
    unknown.dedup();
    let mut known: Vec<&str> = specs.iter().map(|s| s.name).collect();
    known.sort_unstable();
    let unknown: Vec<String> = unknown.iter().map(|n| format!("'{n}'")).collect();
    Err(format!(
        "strategy '{strategy}' has no parameter {}; its parameters: {}",
        unknown.join(", "),
        known.join(", ")
    ))
}

/// `value` checked against the declaration (`Param.check`), or the message saying what was expected.
fn check(strategy: &str, spec: &Spec, value: ParamValue) -> Result<ParamValue, String> {
    if spec.flag {
        if let ParamValue::Bool(_) = value {
            return Ok(value);
        }
        return Err(format!(
            "strategy '{strategy}': parameter '{}' must be true or false ({}), got {}",
            spec.name,
            spec.doc,
            value.repr()
        ));
    }
    let ok = match value {
        ParamValue::Bool(_) => false,
        ParamValue::Int(_) => true,
        ParamValue::Float(_) => !spec.whole,
        ParamValue::Text(_) => false,
    };
    if !ok {
        let kind = if spec.whole {
            "a whole number"
        } else {
            "a number"
        };
        return Err(format!(
            "strategy '{strategy}': parameter '{}' must be {kind} ({}), got {}",
            spec.name,
            spec.doc,
            value.repr()
        ));
    }
    let v = value.as_f64();
    let low = spec.minimum.map(|m| m.parse::<f64>().expect("a number"));
    let high = spec.maximum.map(|m| m.parse::<f64>().expect("a number"));
    if low.is_some_and(|l| v < l) || high.is_some_and(|h| v > h) {
        let bounds = match (spec.minimum, spec.maximum) {
            (Some(l), None) => format!("at least {l}"),
            (l, h) => format!(
                "between {} and {}",
                l.unwrap_or("None"),
                h.unwrap_or("None")
            ),
        };
        return Err(format!(
            "strategy '{strategy}': parameter '{}' must be {bounds} ({}), got {}",
            spec.name,
            spec.doc,
            value.repr()
        ));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_checks() {
        let p = Params::resolve("builder", &[("explore", ParamValue::Int(5))]).unwrap();
        assert_eq!((p.patterns, p.explore), (1.5, 5));
        assert_eq!(
            Params::resolve("builder", &[("explore", ParamValue::Float(1.5))]).unwrap_err(),
            "strategy 'builder': parameter 'explore' must be a whole number (extra sandbox runs to try the \
             branches and directions of an effect), got 1.5"
        );
        assert_eq!(
            Params::resolve("greedy", &[("readiness_decay", ParamValue::Int(2))]).unwrap_err(),
            "strategy 'greedy': parameter 'readiness_decay' must be between 0.0 and 1.0 (readiness of a card \
             is this to the power of the actions its pattern needs), got 2"
        );
        assert!(Params::resolve("hunter", &[("nope", ParamValue::Int(1))])
            .unwrap_err()
            .starts_with(
                "strategy 'hunter' has no parameter 'nope'; its parameters: common, destruction"
            ));
        // team games: passing control is a flag, on by default
        assert!(Params::resolve("builder", &[]).unwrap().pass_control);
        let off = [("pass_control", ParamValue::Bool(false))];
        assert!(!Params::resolve("greedy", &off).unwrap().pass_control);
        assert!(!PlannerParams::resolve(&off).unwrap().pass_control);
        assert!(!ExpertParams::resolve(&off).unwrap().pass_control);
        assert!(PlannerParams::default().pass_control && ExpertParams::default().pass_control);
        assert_eq!(
            Params::resolve("builder", &[("pass_control", ParamValue::Int(1))]).unwrap_err(),
            "strategy 'builder': parameter 'pass_control' must be true or false (team games: may hand the \
             rest of a turn to the teammate when that is valued best (false: never)), got 1"
        );
        assert_eq!(
            PlannerParams::resolve(&[("pass_control", ParamValue::Text("no"))]).unwrap_err(),
            "strategy 'planner': parameter 'pass_control' must be true or false (team games: may hand the \
             rest of a turn to the teammate when that is valued best (false: never)), got 'no'"
        );
        let e = ExpertParams::resolve(&[("iterations", ParamValue::Int(50))]).unwrap();
        assert_eq!(
            (e.iterations, e.exploration, e.depth, e.width, e.shortlist),
            (50, 0.5, 4, 5, 12)
        );
        assert_eq!(
            ExpertParams::resolve(&[("depth", ParamValue::Int(0))]).unwrap_err(),
            "strategy 'expert': parameter 'depth' must be between 1 and 4 (turns searched: the rest of \
             this one, then the next ones (2: the opponent's reply)), got 0"
        );
        assert_eq!(
            ExpertParams::resolve(&[("budget", ParamValue::Int(1))]).unwrap_err(),
            "strategy 'expert' has no parameter 'budget'; its parameters: depth, exploration, iterations, \
             pass_control, shortlist, width"
        );
    }
}
