//! Every strategy's parameters and the named presets, declared once here (`declare!`): the structs the
//! players read, their defaults, the checks (strategies/params.py gives the same messages) and what the
//! core exports to Python (`declarations`, `PRESETS`; strategies/params.py reads them).

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

/// What a parameter holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// true or false
    Flag,
    /// a whole number
    Whole,
    /// a number
    Number,
    /// a name (one of `choices`)
    Name,
}

impl Kind {
    /// The name Python gives the type (`strategies.params`).
    pub fn type_name(self) -> &'static str {
        match self {
            Kind::Flag => "bool",
            Kind::Whole => "int",
            Kind::Number => "float",
            Kind::Name => "str",
        }
    }
}

/// One declared parameter: its kind, meaning and bounds (as written in the declaration).
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub name: &'static str,
    pub kind: Kind,
    pub doc: &'static str,
    pub minimum: Option<&'static str>,
    pub maximum: Option<&'static str>,
    /// The names a `Name` parameter may take (empty for the others).
    pub choices: &'static [&'static str],
}

/// The Rust type of a parameter's field.
pub trait ParamType: Copy {
    const KIND: Kind;
    fn from_value(value: ParamValue) -> Self;
    fn value(self) -> ParamValue;
    /// The value as a number (a flag as 0 or 1; None for a name).
    fn number(self) -> Option<f64> {
        match self.value() {
            ParamValue::Text(_) => None,
            v => Some(v.as_f64()),
        }
    }
}

/// A whole number that one strategy of the struct's has and another has not (`effect_runs`: None for
/// `planner-classic`, which declares only the parameters before it, so its None is never checked or exported).
impl ParamType for Option<i64> {
    const KIND: Kind = Kind::Whole;
    fn from_value(value: ParamValue) -> Option<i64> {
        Some(i64::from_value(value))
    }
    fn value(self) -> ParamValue {
        ParamValue::Int(self.unwrap_or(0))
    }
    fn number(self) -> Option<f64> {
        self.map(|i| i as f64)
    }
}

impl ParamType for f64 {
    const KIND: Kind = Kind::Number;
    fn from_value(value: ParamValue) -> f64 {
        value.as_f64()
    }
    fn value(self) -> ParamValue {
        ParamValue::Float(self)
    }
}

impl ParamType for i64 {
    const KIND: Kind = Kind::Whole;
    fn from_value(value: ParamValue) -> i64 {
        match value {
            ParamValue::Int(i) => i,
            other => other.as_f64() as i64,
        }
    }
    fn value(self) -> ParamValue {
        ParamValue::Int(self)
    }
}

impl ParamType for bool {
    const KIND: Kind = Kind::Flag;
    fn from_value(value: ParamValue) -> bool {
        value == ParamValue::Bool(true)
    }
    fn value(self) -> ParamValue {
        ParamValue::Bool(self)
    }
}

impl ParamType for &'static str {
    const KIND: Kind = Kind::Name;
    fn from_value(value: ParamValue) -> &'static str {
        match value {
            ParamValue::Text(t) => t,
            _ => "",
        }
    }
    fn value(self) -> ParamValue {
        ParamValue::Text(self)
    }
}

/// A set of declared parameters (made by `declare!`).
pub trait Declared: Sized {
    /// The declarations, in declaration order (the order of `its parameters` in messages is sorted).
    const SPECS: &'static [Spec];
    fn set(&mut self, name: &str, value: ParamValue);
    /// The values, in the order of `SPECS`.
    fn values(&self) -> Vec<ParamValue>;

    /// These values with the `given` ones checked and filled in (strategies/params.py `resolve`).
    fn with(self, strategy: &str, given: &[(&str, ParamValue)]) -> Result<Self, String> {
        self.with_only(strategy, Self::SPECS, given)
    }

    /// `with`, for a strategy that has only the parameters `specs` (the first of `SPECS`).
    fn with_only(
        mut self,
        strategy: &str,
        specs: &[Spec],
        given: &[(&str, ParamValue)],
    ) -> Result<Self, String> {
        unknown_names(strategy, specs, given)?;
        for spec in specs {
            if let Some(&(_, value)) = given.iter().find(|(n, _)| *n == spec.name) {
                self.set(spec.name, check(strategy, spec, value)?);
            }
        }
        Ok(self)
    }
}

macro_rules! option {
    () => {
        None
    };
    ($x:expr) => {
        Some($x)
    };
}

macro_rules! choices {
    () => {
        &[]
    };
    ($x:expr) => {
        &$x
    };
}

/// The one declaration of a strategy's parameters: each `name: type = default, "meaning"` with optional
/// `min = LITERAL`, `max = LITERAL` and `choices = [..]`; makes the struct, its `Default` and `Declared`.
macro_rules! declare {
    ($(#[$meta:meta])* pub struct $name:ident {
        $($field:ident: $ty:ty = $default:expr, $doc:expr
          $(, min = $min:literal)? $(, max = $max:literal)? $(, choices = $choices:expr)?;)*
    }) => {
        $(#[$meta])*
        pub struct $name {
            $(pub $field: $ty,)*
        }

        impl Default for $name {
            fn default() -> $name {
                $name { $($field: $default,)* }
            }
        }

        impl Declared for $name {
            const SPECS: &'static [Spec] = &[$(Spec {
                name: stringify!($field),
                kind: <$ty as ParamType>::KIND,
                doc: $doc,
                minimum: option!($(stringify!($min))?),
                maximum: option!($(stringify!($max))?),
                choices: choices!($($choices)?),
            },)*];

            fn set(&mut self, name: &str, value: ParamValue) {
                match name {
                    $(stringify!($field) => self.$field = <$ty as ParamType>::from_value(value),)*
                    _ => unreachable!("every declared parameter is set"),
                }
            }

            fn values(&self) -> Vec<ParamValue> {
                vec![$(<$ty as ParamType>::value(self.$field),)*]
            }
        }

        impl $name {
            /// The value of its parameter `name` as a number (None: a name, or no such parameter).
            pub fn setting(&self, name: &str) -> Option<f64> {
                match name {
                    $(stringify!($field) => <$ty as ParamType>::number(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

/// Team games: the meaning of `pass_control`, a parameter of every player but `random`.
const PASS_CONTROL_DOC: &str =
    "team games: may hand the rest of a turn to the teammate when that is valued best (false: never)";

declare! {
    /// The lookahead engine's parameters (the weights of the scripted strategies, `PRESETS`); the first
    /// eleven are the weights of its evaluation (`evaluate.rs`). The defaults are `greedy`'s; those of the
    /// expansion mechanics were measured (docs/strategies.md, "The expansion mechanics").
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Params {
        score: f64 = 10.0, "value of one point of score margin";
        common: f64 = 1.0, "value of a common piece in the arena (yours minus the opponent's)";
        heroic: f64 = 2.5, "value of a heroic piece in the arena";
        legendary: f64 = 4.0, "value of a legendary piece in the arena";
        threat: f64 = 0.4,
            "share of a piece's value lost when it stands next to an enemy piece that can take it";
        tasks: f64 = 3.0, "High Form: value of progress towards a current task, per task point";
        patterns: f64 = 0.0, "value of the hand's readiness (how close each card's pattern is)";
        readiness_decay: f64 = 0.5,
            "readiness of a card is this to the power of the actions its pattern needs", min = 0.0, max = 1.0;
        legend_cards: f64 = 1.0, "factor on the value of legend cards in the hand's readiness";
        destruction: f64 = 0.0, "Deathmatch: extra value per enemy piece destroyed this turn";
        flare_margin: f64 = 0.0, "gain a flare must bring (in position value) to be invoked";
        max_placements: i64 = 5,
            "placements of one card tried in the sandbox (the most promising first)", min = 1;
        place_candidates: i64 = 4, "squares fully evaluated for a place", min = 1;
        explore: i64 = 3, "extra sandbox runs to try the branches and directions of an effect", min = 0;
        full_values: i64 = 1,
            "placements of one card valued with the hand's readiness (the best few)", min = 1;
        frozen: f64 = 2.0,
            "Everfrost: value of a frozen effect in play while its holder has a turn left to thaw it, less \
             as the end nears";
        pending: f64 = 0.25,
            "Etherweave: share of the causality penalty (2 points) counted while a pending being can still \
             be summoned, times how near the end is (all of it on its holder's last turn)",
            min = 0.0, max = 1.0;
        gateway: f64 = 1.0,
            "Nethervoid: value of having the Gateway (more where the Nethervoid cards in hand would use it)";
        stasis: f64 = 0.5, "Etherweave: share of its value a piece in stasis keeps for its owner",
            min = 0.0, max = 1.0;
        removed: f64 = 0.5,
            "Everfrost: value lost per piece of one's supply removed from the game (a legendary one twice)";
        free_action: f64 = 1.5, "value of an action gained by a free play (a thaw or a warp)";
        lost_action: f64 = 3.0,
            "Everfrost: value lost by a side whose next turn is cut to one action (Everfrost Sentinel)";
        pass_control: bool = true, PASS_CONTROL_DOC;
    }
}

/// The scripted strategies: presets of the lookahead's weights, each the values it changes from the
/// defaults.
pub const PRESETS: [(&str, &[(&str, ParamValue)]); 4] = [
    ("greedy", &[]),
    ("builder", &[("patterns", ParamValue::Float(1.5))]),
    (
        "hunter",
        &[
            ("patterns", ParamValue::Float(1.5)),
            ("heroic", ParamValue::Float(3.5)),
            ("legendary", ParamValue::Float(5.0)),
            ("legend_cards", ParamValue::Float(2.0)),
        ],
    ),
    (
        "brawler",
        &[
            ("patterns", ParamValue::Float(1.5)),
            ("destruction", ParamValue::Float(1.0)),
            ("threat", ParamValue::Float(0.6)),
            ("flare_margin", ParamValue::Float(2.0)),
        ],
    ),
];

/// The names of the scripted strategies.
pub const PRESET_NAMES: [&str; 4] = [PRESETS[0].0, PRESETS[1].0, PRESETS[2].0, PRESETS[3].0];

impl Params {
    /// The value of a piece of each rank in the arena.
    pub fn material(&self) -> [f64; 3] {
        [self.common, self.heroic, self.legendary]
    }

    /// The defaults of a named preset, or None for an unknown name.
    pub fn preset(name: &str) -> Option<Params> {
        let (_, changes) = PRESETS.iter().find(|(n, _)| *n == name)?;
        let mut params = Params::default();
        for &(field, value) in changes.iter() {
            params.set(field, value);
        }
        Some(params)
    }

    /// The preset `strategy` with the `given` values checked and filled in (strategies/params.py `resolve`).
    pub fn resolve(strategy: &str, given: &[(&str, ParamValue)]) -> Result<Params, String> {
        Params::preset(strategy)
            .ok_or_else(|| format!("unknown preset {strategy:?}"))?
            .with(strategy, given)
    }
}

declare! {
    /// The parameters of the expert search player (players/expert.rs).
    #[derive(Clone, Debug, PartialEq)]
    pub struct ExpertParams {
        iterations: i64 = 1000,
            "search iterations per main decision, each on a fresh deal of what the player cannot see", min = 1;
        exploration: f64 = 0.5, "UCB exploration constant (rewards are in 0..1)", min = 0.0;
        depth: i64 = 4, "turns searched: the rest of this one, then the next ones (2: the opponent's reply)",
            min = 1, max = 4;
        width: i64 = 5,
            "ways of taking each action searched at the root (the best squares of a place, the best \
             placements of a summon)", min = 1;
        shortlist: i64 = 12, "moves searched at the root, builder's best first (discard, flare and end always)",
            min = 1;
        effect_runs: i64 = 1,
            "extra sandbox runs per option for the choices inside the effects of the root's moves and of the \
             real game's decisions, each valued by the position reached (0: builder's quick rules)", min = 0;
        pass_control: bool = true, PASS_CONTROL_DOC;
    }
}

impl ExpertParams {
    /// The defaults with the `given` values checked and filled in (the lookahead's messages).
    pub fn resolve(given: &[(&str, ParamValue)]) -> Result<ExpertParams, String> {
        ExpertParams::default().with("expert", given)
    }
}

declare! {
    /// The parameters of the default player `planner` (players/planner.rs); `pass_margin` was measured
    /// against passing off (docs/strategies.md).
    #[derive(Clone, Debug, PartialEq)]
    pub struct PlannerParams {
        rollouts: i64 = 4, "rollouts per shortlisted option of an action decision", min = 1;
        shortlist: i64 = 4,
            "options of an action decision played out, the builder's best first (discard, flare and end \
             always)", min = 1;
        pass_control: bool = true, PASS_CONTROL_DOC;
        pass_margin: f64 = 10.0,
            "team games: how much better (in position value) passing control must play out than the best \
             other action to be chosen", min = 0.0;
        effect_runs: Option<i64> = Some(12),
            "extra sandbox runs per option tried for the choices inside its effects (moves, targets, \
             optional parts), each valued by the position it leads to", min = 0;
        halving: bool = false,
            "successive halving: the options are played out one rollout at a time, and after the 1st, 2nd, \
             4th... rollout the worse half of those left is dropped, down to the best two, which get every \
             rollout (false: every option gets every rollout)";
    }
}

/// `planner-classic` (the planner before issue 25's blind-spot work, `effect_runs` None) has the first
/// four of the planner's parameters.
const CLASSIC_SPECS: usize = 4;

impl PlannerParams {
    /// The defaults with the `given` values checked and filled in (the lookahead's messages).
    pub fn resolve(given: &[(&str, ParamValue)]) -> Result<PlannerParams, String> {
        PlannerParams::default().with(super::planner::NAME, given)
    }

    /// `planner-classic`'s parameters, checked as `resolve` checks them.
    pub fn resolve_classic(given: &[(&str, ParamValue)]) -> Result<PlannerParams, String> {
        PlannerParams::classic().with_only(
            super::planner::CLASSIC_NAME,
            &PlannerParams::SPECS[..CLASSIC_SPECS],
            given,
        )
    }

    fn classic() -> PlannerParams {
        PlannerParams {
            effect_runs: None,
            ..PlannerParams::default()
        }
    }
}

/// The players `mc` can improve on: the presets and the default player.
const MC_BASES: [&str; 5] = [
    PRESET_NAMES[0],
    PRESET_NAMES[1],
    PRESET_NAMES[2],
    PRESET_NAMES[3],
    "planner",
];

declare! {
    /// The parameters of `mc` (players/mc.rs).
    #[derive(Clone, Debug, PartialEq)]
    pub struct McParams {
        base: &'static str = "builder",
            "the scripted strategy that plays the rollouts and answers the other decisions",
            choices = MC_BASES;
        rollouts: i64 = 55, "rollouts per option of an action decision", min = 1;
        pass_control: bool = true, PASS_CONTROL_DOC;
    }
}

impl McParams {
    /// The defaults with the `given` values checked and filled in (the lookahead's messages).
    pub fn resolve(given: &[(&str, ParamValue)]) -> Result<McParams, String> {
        McParams::default().with("mc", given)
    }
}

declare! {
    /// The parameters of `swift`, the fast planner (players/swift.rs; docs/strategies.md, "A fast player").
    #[derive(Clone, Debug, PartialEq)]
    pub struct SwiftParams {
        rollouts: i64 = 2, "rollouts per close option of an action decision", min = 1;
        shortlist: i64 = 2, "close options of an action decision played out at most, the builder's best first",
            min = 1;
        margin: f64 = 1.0,
            "an option is close when builder values it within this of the best; with no other close option \
             the best is taken without rollouts", min = 0.0;
        effect_runs: i64 = 3,
            "choices inside effects (moves, targets, optional parts) valued by the position they lead to, \
             and this many extra sandbox runs per option tried for those the position cannot value \
             (a branch, a direction, a piece or card picked; 0: builder's quick rules for all)", min = 0;
        rollout_placements: i64 = 2, "placements of one card tried by the builder that plays the rollouts",
            min = 1;
        halving: bool = false,
            "successive halving: the close options are played out one rollout at a time, and after the 1st, \
             2nd, 4th... rollout the worse half of those left is dropped, down to the best two (false: every \
             one gets every rollout)";
        pass_control: bool = true, PASS_CONTROL_DOC;
        pass_margin: f64 = 10.0,
            "team games: how much better (in position value) passing control must play out than the best \
             other action to be chosen", min = 0.0;
    }
}

/// The weights of the lookahead's evaluation: the first `WEIGHTS` of `Params::SPECS` (`score` to
/// `flare_margin`), which `swift` also takes.
pub const WEIGHTS: usize = 11;

/// The lookahead preset `swift` builds on: its builder plays as it, with its weights unless given others.
pub const SWIFT_BASE: &str = "builder";

/// `swift`'s settings: its own parameters and the weights of its evaluation (`SWIFT_BASE`'s unless
/// given; declared once, in `Params`), so that `tashkalar tune-player` can search them.
#[derive(Clone, Debug, PartialEq)]
pub struct SwiftSettings {
    pub params: SwiftParams,
    pub weights: Params,
}

impl From<SwiftParams> for SwiftSettings {
    /// `params` with builder's weights.
    fn from(params: SwiftParams) -> SwiftSettings {
        SwiftSettings {
            params,
            weights: Params::preset(SWIFT_BASE).expect("the builder preset"),
        }
    }
}

impl SwiftParams {
    /// The defaults with the `given` values (its own parameters and evaluation weights) checked and filled
    /// in (the lookahead's messages).
    pub fn resolve(given: &[(&str, ParamValue)]) -> Result<SwiftSettings, String> {
        let name = super::swift::NAME;
        let weights = &Params::SPECS[..WEIGHTS];
        let specs: Vec<Spec> = SwiftParams::SPECS.iter().chain(weights).copied().collect();
        unknown_names(name, &specs, given)?;
        let (own, weighed): (Vec<_>, Vec<_>) = given
            .iter()
            .partition(|(n, _)| SwiftParams::SPECS.iter().any(|s| s.name == *n));
        let defaults = SwiftSettings::from(SwiftParams::default());
        Ok(SwiftSettings {
            params: defaults.params.with(name, &own)?,
            weights: defaults.weights.with_only(name, weights, &weighed)?,
        })
    }
}

/// Every strategy of the core but `random` (which takes none) with its parameters and their defaults, in
/// declaration order: what `_core.strategy_params()` gives Python.
pub fn declarations() -> Vec<(&'static str, Vec<(&'static Spec, ParamValue)>)> {
    fn of<P: Declared>(params: &P) -> Vec<(&'static Spec, ParamValue)> {
        P::SPECS.iter().zip(params.values()).collect()
    }
    let mut classic = of(&PlannerParams::classic());
    classic.truncate(CLASSIC_SPECS);
    let mut out: Vec<_> = PRESET_NAMES
        .iter()
        .map(|&n| (n, of(&Params::preset(n).expect("a preset"))))
        .collect();
    out.push((super::planner::NAME, of(&PlannerParams::default())));
    out.push((super::planner::CLASSIC_NAME, classic));
    out.push(("mc", of(&McParams::default())));
    out.push(("expert", of(&ExpertParams::default())));
    let swift = SwiftSettings::from(SwiftParams::default());
    let mut swift_specs = of(&swift.params);
    swift_specs.extend(of(&swift.weights).into_iter().take(WEIGHTS));
    out.push((super::swift::NAME, swift_specs));
    out
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
    let ok = matches!(
        (spec.kind, value),
        (Kind::Flag, ParamValue::Bool(_))
            | (Kind::Name, ParamValue::Text(_))
            | (Kind::Whole | Kind::Number, ParamValue::Int(_))
            | (Kind::Number, ParamValue::Float(_))
    );
    let fail = |expected: &str| {
        Err(format!(
            "strategy '{strategy}': parameter '{}' must be {expected} ({}), got {}",
            spec.name,
            spec.doc,
            value.repr()
        ))
    };
    if !ok {
        return fail(match spec.kind {
            Kind::Flag => "true or false",
            Kind::Whole => "a whole number",
            Kind::Number => "a number",
            Kind::Name => "a name",
        });
    }
    if let ParamValue::Text(name) = value {
        if !spec.choices.contains(&name) {
            let mut choices = spec.choices.to_vec();
            choices.sort_unstable();
            return fail(&format!("one of {}", choices.join(", ")));
        }
        return Ok(value);
    }
    let v = value.as_f64();
    let low = spec.minimum.map(|m| m.parse::<f64>().expect("a number"));
    let high = spec.maximum.map(|m| m.parse::<f64>().expect("a number"));
    if low.is_some_and(|l| v < l) || high.is_some_and(|h| v > h) {
        return fail(&match (spec.minimum, spec.maximum) {
            (Some(l), None) => format!("at least {l}"),
            (l, h) => format!(
                "between {} and {}",
                l.unwrap_or("None"),
                h.unwrap_or("None")
            ),
        });
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_consistent() {
        for (strategy, declared) in declarations() {
            let mut names: Vec<&str> = declared.iter().map(|(s, _)| s.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(
                names.len(),
                declared.len(),
                "{strategy}: a name declared twice"
            );
            for (spec, default) in declared {
                assert_eq!(
                    check(strategy, spec, default),
                    Ok(default),
                    "{strategy}.{}",
                    spec.name
                );
            }
        }
        for (preset, changes) in PRESETS {
            for &(name, value) in changes {
                let spec = Params::SPECS
                    .iter()
                    .find(|s| s.name == name)
                    .expect("a declared name");
                assert_eq!(check(preset, spec, value), Ok(value));
            }
        }
        let unknown = crate::players::make_strategy("nope", 0, 0).err();
        assert_eq!(
            unknown.as_deref(),
            Some(
                "unknown strategy 'nope'; known strategies: brawler, builder, expert, greedy, hunter, mc, \
                 planner, planner-classic, random, swift"
            )
        );
    }

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
            (
                e.iterations,
                e.exploration,
                e.depth,
                e.width,
                e.shortlist,
                e.effect_runs
            ),
            (50, 0.5, 4, 5, 12, 1)
        );
        assert_eq!(
            ExpertParams::resolve(&[("depth", ParamValue::Int(0))]).unwrap_err(),
            "strategy 'expert': parameter 'depth' must be between 1 and 4 (turns searched: the rest of \
             this one, then the next ones (2: the opponent's reply)), got 0"
        );
        assert_eq!(
            ExpertParams::resolve(&[("budget", ParamValue::Int(1))]).unwrap_err(),
            "strategy 'expert' has no parameter 'budget'; its parameters: depth, effect_runs, exploration, \
             iterations, pass_control, shortlist, width"
        );
    }
}
