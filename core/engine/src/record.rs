//! The record of one game (sim/record.py): a flat list of events plus the result, written as the same JSON
//! as Python's `json.dumps(record.to_dict(), separators=(",", ":"))`.

use std::fmt::Write;

use crate::state::{PerSeat, MAX_SEATS};

/// Card ids and causes are interned strings of the card set (see `cards::intern`).
pub type Id = &'static str;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawDeck {
    Personal,
    Legend,
    Flare,
}

impl DrawDeck {
    pub fn as_str(self) -> &'static str {
        match self {
            DrawDeck::Personal => "personal",
            DrawDeck::Legend => "legend",
            DrawDeck::Flare => "flare",
        }
    }
}

/// One event; every kind has `turn` (0 for the setup) and `seat` (-1 when no player is concerned).
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Draw {
        turn: u32,
        seat: i8,
        card: Id,
        opening: bool,
        deck: DrawDeck,
    },
    Discard {
        turn: u32,
        seat: i8,
        card: Id,
    },
    Return {
        turn: u32,
        seat: i8,
        card: Id,
    },
    ToDeck {
        turn: u32,
        seat: i8,
        card: Id,
    },
    Summon {
        turn: u32,
        seat: i8,
        card: Id,
        square: u8,
        orientation: u8,
    },
    EffectDone {
        turn: u32,
        seat: i8,
        card: Id,
        destroyed: i32,
    },
    Flare {
        turn: u32,
        seat: i8,
        card: Id,
        upper: bool,
        lower: bool,
        lead: i32,
        /// Melee: the opponent compared against (-1 in a duel, not written).
        against: i8,
    },
    Held {
        turn: u32,
        seat: i8,
        card: Id,
    },
    Place {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        rank: u8,
    },
    Destroy {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        owner: u8,
        rank: u8,
        counted: bool,
    },
    Upgrade {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        owner: u8,
        old_rank: u8,
    },
    Downgrade {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        owner: u8,
        old_rank: u8,
    },
    Convert {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        rank: u8,
    },
    Take {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
    },
    Points {
        turn: u32,
        seat: i8,
        source: Id,
        points: i32,
        /// Melee: the opponent colour the points are scored in (-1 in a duel, not written).
        colour: i8,
    },
    TaskReveal {
        turn: u32,
        seat: i8,
        task: Id,
    },
    TaskClaim {
        turn: u32,
        seat: i8,
        task: Id,
        points: i32,
    },
    /// Melee: a summoning improvised with a piece of `colour`, spending that colour's improvisation.
    Improvise {
        turn: u32,
        seat: i8,
        card: Id,
        colour: u8,
    },
    /// Team games: the active player hands the turn to his teammate `to`; `during` is the card whose
    /// effect was being resolved ("" before an action).
    PassControl {
        turn: u32,
        seat: i8,
        to: u8,
        during: Id,
    },
    /// Etherweave: `card`'s warp text played from hand; the card becomes the pending being.
    Warp {
        turn: u32,
        seat: i8,
        card: Id,
    },
    /// Etherweave: `card` stops being pending: `reason` "summon", "to-hand" or "discard".
    PendingEnd {
        turn: u32,
        seat: i8,
        card: Id,
        reason: Id,
    },
    /// Etherweave: `card`'s effect performs the warp text of `source` (a copy: nothing becomes pending).
    CopyWarp {
        turn: u32,
        seat: i8,
        card: Id,
        source: Id,
    },
    /// Etherweave: the pieces on `square` and `other` exchange squares.
    Swap {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        other: u8,
    },
    /// Etherweave: the piece on `square` is lifted onto the Merchant of Time (out of the arena, not in
    /// its owner's stock).
    Stasis {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        owner: u8,
        rank: u8,
    },
    /// Etherweave: the piece in stasis comes back onto `square`.
    Release {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        owner: u8,
        rank: u8,
    },
    // ----- Everfrost
    /// `card` becomes `seat`'s frozen effect in play; `cause`: the card whose summon put it there (itself,
    /// or Frozen Chest).
    Freeze {
        turn: u32,
        seat: i8,
        card: Id,
        cause: Id,
    },
    /// `seat` thaws its frozen effect `card` (a free play); the frozen text's events follow, then the card
    /// goes to the discard pile.
    Thaw {
        turn: u32,
        seat: i8,
        card: Id,
    },
    /// A card put on `seat`'s discard pile by a rule or an effect (not the discard action): the frozen
    /// card not kept, a frozen effect replaced by Frozen Chest, a flare thrown away by Winter Whisperer.
    ToDiscard {
        turn: u32,
        seat: i8,
        card: Id,
        cause: Id,
    },
    /// The piece of `owner` and `rank` just destroyed on `square` is removed from the game (Deathbringer):
    /// its owner's supply of that kind is one smaller for good; `twice`: an enemy piece counted a second
    /// time as destroyed.
    Remove {
        turn: u32,
        seat: i8,
        cause: Id,
        square: u8,
        owner: u8,
        rank: u8,
        twice: bool,
    },
    /// Everfrost Sentinel: every other player's (side's) next turn has 1 action.
    ActionLoss {
        turn: u32,
        seat: i8,
        cause: Id,
    },
    // ----- Nethervoid
    /// `seat`'s Gateway is now on `square` (-1: it has none any more).
    Gateway {
        turn: u32,
        seat: i8,
        square: i8,
    },
    /// Hell Hound: `card` went under `seat`'s personal deck at the end of the turn.
    UnderDeck {
        turn: u32,
        seat: i8,
        card: Id,
    },
    /// Possessed Summoner: `seat`'s next summoning this turn uses pieces of `colour` for its pattern.
    Possess {
        turn: u32,
        seat: i8,
        colour: u8,
    },
    /// `seat` discarded the flare `card` from his hand without invoking it (an effect's cost).
    FlareDiscard {
        turn: u32,
        seat: i8,
        card: Id,
    },
    /// Gate Master: the summon of `card` counts as summoning a legend on `square`.
    LegendCredit {
        turn: u32,
        seat: i8,
        card: Id,
        square: u8,
    },
}

impl Event {
    /// The `kind` name used in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Draw { .. } => "draw",
            Event::Discard { .. } => "discard",
            Event::Return { .. } => "return",
            Event::ToDeck { .. } => "to_deck",
            Event::Summon { .. } => "summon",
            Event::EffectDone { .. } => "effect",
            Event::Flare { .. } => "flare",
            Event::Held { .. } => "held",
            Event::Place { .. } => "place",
            Event::Destroy { .. } => "destroy",
            Event::Upgrade { .. } => "upgrade",
            Event::Downgrade { .. } => "downgrade",
            Event::Convert { .. } => "convert",
            Event::Take { .. } => "take",
            Event::Points { .. } => "points",
            Event::TaskReveal { .. } => "task_reveal",
            Event::TaskClaim { .. } => "task_claim",
            Event::Improvise { .. } => "improvise",
            Event::PassControl { .. } => "pass_control",
            Event::Warp { .. } => "warp",
            Event::PendingEnd { .. } => "pending_end",
            Event::CopyWarp { .. } => "copy_warp",
            Event::Swap { .. } => "swap",
            Event::Stasis { .. } => "stasis",
            Event::Release { .. } => "release",
            Event::Freeze { .. } => "freeze",
            Event::Thaw { .. } => "thaw",
            Event::ToDiscard { .. } => "to_discard",
            Event::Remove { .. } => "remove",
            Event::ActionLoss { .. } => "action_loss",
            Event::Gateway { .. } => "gateway",
            Event::UnderDeck { .. } => "under_deck",
            Event::Possess { .. } => "possess",
            Event::FlareDiscard { .. } => "flare_discard",
            Event::LegendCredit { .. } => "legend_credit",
        }
    }

    /// The event's seat.
    pub fn seat_mut(&mut self) -> &mut i8 {
        match self {
            Event::Draw { seat, .. }
            | Event::Discard { seat, .. }
            | Event::Return { seat, .. }
            | Event::ToDeck { seat, .. }
            | Event::Summon { seat, .. }
            | Event::EffectDone { seat, .. }
            | Event::Flare { seat, .. }
            | Event::Held { seat, .. }
            | Event::Place { seat, .. }
            | Event::Destroy { seat, .. }
            | Event::Upgrade { seat, .. }
            | Event::Downgrade { seat, .. }
            | Event::Convert { seat, .. }
            | Event::Take { seat, .. }
            | Event::Points { seat, .. }
            | Event::TaskReveal { seat, .. }
            | Event::TaskClaim { seat, .. }
            | Event::Improvise { seat, .. }
            | Event::PassControl { seat, .. }
            | Event::Warp { seat, .. }
            | Event::PendingEnd { seat, .. }
            | Event::CopyWarp { seat, .. }
            | Event::Swap { seat, .. }
            | Event::Stasis { seat, .. }
            | Event::Release { seat, .. }
            | Event::Freeze { seat, .. }
            | Event::Thaw { seat, .. }
            | Event::ToDiscard { seat, .. }
            | Event::Remove { seat, .. }
            | Event::ActionLoss { seat, .. }
            | Event::Gateway { seat, .. }
            | Event::UnderDeck { seat, .. }
            | Event::Possess { seat, .. }
            | Event::FlareDiscard { seat, .. }
            | Event::LegendCredit { seat, .. } => seat,
        }
    }

    /// The event as a JSON object: `kind` first, then the fields in Python's order.
    pub fn write_json(&self, out: &mut String) {
        let mut w = JsonObject::start(out);
        w.str("kind", self.kind());
        match *self {
            Event::Draw {
                turn,
                seat,
                card,
                opening,
                deck,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.bool("opening", opening);
                w.str("deck", deck.as_str());
            }
            Event::Discard { turn, seat, card }
            | Event::UnderDeck { turn, seat, card }
            | Event::FlareDiscard { turn, seat, card }
            | Event::Return { turn, seat, card }
            | Event::ToDeck { turn, seat, card }
            | Event::Held { turn, seat, card } => {
                w.head(turn, seat);
                w.str("card", card);
            }
            Event::Summon {
                turn,
                seat,
                card,
                square,
                orientation,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.int("square", square as i64);
                w.int("orientation", orientation as i64);
            }
            Event::EffectDone {
                turn,
                seat,
                card,
                destroyed,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.int("destroyed", destroyed as i64);
            }
            Event::Flare {
                turn,
                seat,
                card,
                upper,
                lower,
                lead,
                against,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.bool("upper", upper);
                w.bool("lower", lower);
                w.int("lead", lead as i64);
                if against >= 0 {
                    w.int("against", against as i64);
                }
            }
            Event::Place {
                turn,
                seat,
                cause,
                square,
                rank,
            }
            | Event::Convert {
                turn,
                seat,
                cause,
                square,
                rank,
            } => {
                w.head(turn, seat);
                w.str("cause", cause);
                w.int("square", square as i64);
                w.int("rank", rank as i64);
            }
            Event::Destroy {
                turn,
                seat,
                cause,
                square,
                owner,
                rank,
                counted,
            } => {
                w.head(turn, seat);
                w.str("cause", cause);
                w.int("square", square as i64);
                w.int("owner", owner as i64);
                w.int("rank", rank as i64);
                w.bool("counted", counted);
            }
            Event::Upgrade {
                turn,
                seat,
                cause,
                square,
                owner,
                old_rank,
            }
            | Event::Downgrade {
                turn,
                seat,
                cause,
                square,
                owner,
                old_rank,
            } => {
                w.head(turn, seat);
                w.str("cause", cause);
                w.int("square", square as i64);
                w.int("owner", owner as i64);
                w.int("old_rank", old_rank as i64);
            }
            Event::Take {
                turn,
                seat,
                cause,
                square,
            } => {
                w.head(turn, seat);
                w.str("cause", cause);
                w.int("square", square as i64);
            }
            Event::Points {
                turn,
                seat,
                source,
                points,
                colour,
            } => {
                w.head(turn, seat);
                w.str("source", source);
                w.int("points", points as i64);
                if colour >= 0 {
                    w.int("colour", colour as i64);
                }
            }
            Event::TaskReveal { turn, seat, task } => {
                w.head(turn, seat);
                w.str("task", task);
            }
            Event::TaskClaim {
                turn,
                seat,
                task,
                points,
            } => {
                w.head(turn, seat);
                w.str("task", task);
                w.int("points", points as i64);
            }
            Event::Improvise {
                turn,
                seat,
                card,
                colour,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.int("colour", colour as i64);
            }
            Event::PassControl {
                turn,
                seat,
                to,
                during,
            } => {
                w.head(turn, seat);
                w.int("to", to as i64);
                w.str("during", during);
            }
            Event::Warp { turn, seat, card } => {
                w.head(turn, seat);
                w.str("card", card);
            }
            Event::PendingEnd {
                turn,
                seat,
                card,
                reason,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.str("reason", reason);
            }
            Event::CopyWarp {
                turn,
                seat,
                card,
                source,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.str("source", source);
            }
            Event::Swap {
                turn,
                seat,
                cause,
                square,
                other,
            } => {
                w.head(turn, seat);
                w.str("cause", cause);
                w.int("square", square as i64);
                w.int("other", other as i64);
            }
            Event::Stasis {
                turn,
                seat,
                cause,
                square,
                owner,
                rank,
            }
            | Event::Release {
                turn,
                seat,
                cause,
                square,
                owner,
                rank,
            } => {
                w.head(turn, seat);
                w.str("cause", cause);
                w.int("square", square as i64);
                w.int("owner", owner as i64);
                w.int("rank", rank as i64);
            }
            Event::Freeze {
                turn,
                seat,
                card,
                cause,
            }
            | Event::ToDiscard {
                turn,
                seat,
                card,
                cause,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.str("cause", cause);
            }
            Event::Thaw { turn, seat, card } => {
                w.head(turn, seat);
                w.str("card", card);
            }
            Event::Remove {
                turn,
                seat,
                cause,
                square,
                owner,
                rank,
                twice,
            } => {
                w.head(turn, seat);
                w.str("cause", cause);
                w.int("square", square as i64);
                w.int("owner", owner as i64);
                w.int("rank", rank as i64);
                w.bool("twice", twice);
            }
            Event::ActionLoss { turn, seat, cause } => {
                w.head(turn, seat);
                w.str("cause", cause);
            }
            Event::Gateway { turn, seat, square } => {
                w.head(turn, seat);
                w.int("square", square as i64);
            }
            Event::Possess { turn, seat, colour } => {
                w.head(turn, seat);
                w.int("colour", colour as i64);
            }
            Event::LegendCredit {
                turn,
                seat,
                card,
                square,
            } => {
                w.head(turn, seat);
                w.str("card", card);
                w.int("square", square as i64);
            }
        }
        w.end();
    }
}

/// The game's configuration as Python's `record.config`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    pub mode: String,
    pub decks: Vec<String>,
    pub strategies: Vec<String>,
    pub seed: u64,
    /// A team game: seats 0 and 2 against 1 and 3 (written only when true).
    pub teams: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub events: Vec<Event>,
    pub config: Config,
    pub first_player: usize,
    /// One score per seat (in a melee, the lowest colour score).
    pub scores: Vec<i32>,
    /// Seat, or -1 for a tie (in a melee: a shared first place).
    pub winner: i32,
    /// "deck", "score" or "turn-limit".
    pub end_reason: &'static str,
    /// What decided the winner: "", "upgraded", "pieces" or "tie"; in a melee also "second-lowest" and
    /// "highest" (colour scores).
    pub tiebreak: &'static str,
    pub turns: u32,
    /// Melee only (empty in a duel): each seat's points per colour, None for its own colour.
    pub colour_scores: Vec<Vec<Option<i32>>>,
    /// Melee only: each seat's place, 1 for the first; tied seats share a place.
    pub places: Vec<u8>,
    points: PerSeat<i32>,
    colour_points: PerSeat<PerSeat<i32>>,
    /// Team games: the seat each side's events are recorded for (the engine plays sides 0 and 1).
    team_seats: Option<[i8; 2]>,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord {
            events: Vec::new(),
            config: Config::default(),
            first_player: 0,
            scores: vec![0, 0],
            winner: -1,
            end_reason: "",
            tiebreak: "",
            turns: 0,
            colour_scores: Vec::new(),
            places: Vec::new(),
            points: [0; MAX_SEATS],
            colour_points: [[0; MAX_SEATS]; MAX_SEATS],
            team_seats: None,
        }
    }
}

impl GameRecord {
    /// Back to `GameRecord::default()`, keeping the buffers (a sandbox copied into a spare one).
    pub fn restart(&mut self) {
        let GameRecord {
            events,
            config,
            first_player,
            scores,
            winner,
            end_reason,
            tiebreak,
            turns,
            colour_scores,
            places,
            points,
            colour_points,
            team_seats,
        } = self;
        events.clear();
        *config = Config::default();
        *first_player = 0;
        scores.clear();
        scores.extend_from_slice(&[0, 0]);
        *winner = -1;
        *end_reason = "";
        *tiebreak = "";
        *turns = 0;
        colour_scores.clear();
        places.clear();
        *points = [0; MAX_SEATS];
        *colour_points = [[0; MAX_SEATS]; MAX_SEATS];
        *team_seats = None;
    }

    #[inline]
    pub fn add(&mut self, mut event: Event) {
        if let Some(map) = self.team_seats {
            let seat = event.seat_mut();
            if (0..2).contains(seat) {
                *seat = map[*seat as usize];
            }
        }
        self.events.push(event);
    }

    /// Points scored; only this adds Points events, so the totals stay right. In a team game the totals
    /// are the side's and the event names the side's seat.
    pub fn points(&mut self, turn: u32, seat: usize, source: Id, amount: i32) {
        self.points[seat] += amount;
        self.add(Event::Points {
            turn,
            seat: seat as i8,
            source,
            points: amount,
            colour: -1,
        });
    }

    /// Team games: record side `side`'s events as `seat`'s from now on.
    pub fn set_team_seat(&mut self, side: usize, seat: usize) {
        self.team_seats.get_or_insert([0, 1])[side] = seat as i8;
    }

    /// Melee points: `seat` scores `amount` in the opponent colour `colour`.
    pub fn colour_points(
        &mut self,
        turn: u32,
        seat: usize,
        colour: usize,
        source: Id,
        amount: i32,
    ) {
        self.colour_points[seat][colour] += amount;
        self.events.push(Event::Points {
            turn,
            seat: seat as i8,
            source,
            points: amount,
            colour: colour as i8,
        });
    }

    pub fn points_total(&self, seat: usize) -> i32 {
        self.points[seat]
    }

    /// The melee points recorded for `seat` in `colour`.
    pub fn colour_total(&self, seat: usize, colour: usize) -> i32 {
        self.colour_points[seat][colour]
    }

    /// Start the totals at the points of events recorded elsewhere (a record continued from Python's).
    pub fn set_points_totals(&mut self, totals: &[i32]) {
        self.points[..totals.len()].copy_from_slice(totals);
    }

    /// `set_points_totals` for one seat's melee points per colour.
    pub fn set_colour_totals(&mut self, seat: usize, totals: &[i32]) {
        self.colour_points[seat][..totals.len()].copy_from_slice(totals);
    }

    /// The JSON of Python's `GameRecord.to_dict()` with separators (",", ":").
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(64 * self.events.len() + 256);
        self.write_json(&mut out);
        out
    }

    pub fn write_json(&self, out: &mut String) {
        out.push_str("{\"config\":{\"mode\":");
        json_str(out, &self.config.mode);
        out.push_str(",\"decks\":");
        json_list(out, &self.config.decks);
        out.push_str(",\"strategies\":");
        json_list(out, &self.config.strategies);
        let _ = write!(out, ",\"seed\":{}", self.config.seed);
        if self.config.teams {
            out.push_str(",\"teams\":true");
        }
        out.push('}');
        let scores: Vec<String> = self.scores.iter().map(i32::to_string).collect();
        let _ = write!(
            out,
            ",\"first_player\":{},\"scores\":[{}],\"winner\":{},\"end_reason\":",
            self.first_player,
            scores.join(","),
            self.winner
        );
        json_str(out, self.end_reason);
        out.push_str(",\"tiebreak\":");
        json_str(out, self.tiebreak);
        if !self.places.is_empty() {
            let rows: Vec<String> = self
                .colour_scores
                .iter()
                .map(|row| {
                    let cells: Vec<String> = row
                        .iter()
                        .map(|c| c.map_or("null".into(), |v| v.to_string()))
                        .collect();
                    format!("[{}]", cells.join(","))
                })
                .collect();
            let places: Vec<String> = self.places.iter().map(u8::to_string).collect();
            let _ = write!(
                out,
                ",\"colour_scores\":[{}],\"places\":[{}]",
                rows.join(","),
                places.join(",")
            );
        }
        let _ = write!(out, ",\"turns\":{},\"events\":[", self.turns);
        for (i, e) in self.events.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            e.write_json(out);
        }
        out.push_str("]}");
    }
}

fn json_list(out: &mut String, items: &[String]) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_str(out, s);
    }
    out.push(']');
}

/// A JSON string as Python's `json.dumps` writes it (ensure_ascii).
pub fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    let _ = write!(out, "\\u{:04x}", u);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

struct JsonObject<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> JsonObject<'a> {
    fn start(out: &'a mut String) -> Self {
        out.push('{');
        JsonObject { out, first: true }
    }
    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push('"');
        self.out.push_str(k);
        self.out.push_str("\":");
    }
    fn head(&mut self, turn: u32, seat: i8) {
        self.int("turn", turn as i64);
        self.int("seat", seat as i64);
    }
    fn str(&mut self, k: &str, v: &str) {
        self.key(k);
        json_str(self.out, v);
    }
    fn int(&mut self, k: &str, v: i64) {
        self.key(k);
        let _ = write!(self.out, "{v}");
    }
    fn bool(&mut self, k: &str, v: bool) {
        self.key(k);
        self.out.push_str(if v { "true" } else { "false" });
    }
    fn end(self) {
        self.out.push('}');
    }
}
