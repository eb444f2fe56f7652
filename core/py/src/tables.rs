//! The study tables of `pipelines/schema.py`, built from each game's state and record as the core plays
//! a shard: no JSON, no Python events. `pipelines/tables.py` builds the same rows from Python records
//! (shards with Python strategies); tests/test_pipelines_arrow.py holds the two to each other row for
//! row and these columns to the Python schemas.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Int16Array, Int32Array, Int64Array, Int8Array,
    RecordBatch, StringArray,
};
use arrow_buffer::{Buffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Schema};

use tk_engine::cards::BeingId;
use tk_engine::record::{DrawDeck, Event, Id};
use tk_engine::state::GameState;

#[derive(Clone, Copy)]
pub enum Ty {
    I8,
    I16,
    I32,
    I64,
    Bool,
    Str,
}

impl Ty {
    /// The column's type in the record batch: a string column as a dictionary of strings (`Strings`).
    fn data_type(self) -> DataType {
        match self {
            Ty::I8 => DataType::Int8,
            Ty::I16 => DataType::Int16,
            Ty::I32 => DataType::Int32,
            Ty::I64 => DataType::Int64,
            Ty::Bool => DataType::Boolean,
            Ty::Str => DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        }
    }

    /// The type's name as pyarrow writes it (`str(pa.int8())`).
    pub fn name(self) -> &'static str {
        match self {
            Ty::I8 => "int8",
            Ty::I16 => "int16",
            Ty::I32 => "int32",
            Ty::I64 => "int64",
            Ty::Bool => "bool",
            Ty::Str => "string",
        }
    }
}

type Columns = &'static [(&'static str, Ty)];

use Ty::{Bool, Str, I16, I32, I64, I8};

const COUNTERS: usize = 8; // enemy_common, enemy_heroic, enemy_legendary, own_destroyed, upgrades, downgrades, placed, converted

/// A summed table's columns: the seat's kind first (`SEAT_KIND` in `pipelines/schema.py`: the columns the report
/// selects games by, and the seat's deck and player), then the table's own.
macro_rules! summed {
    ($($column:expr),* $(,)?) => {
        &[
            ("mode", Str),
            ("players", I8),
            ("teams", Bool),
            ("variant", Str),
            ("mirror", Bool),
            ("deck", Str),
            ("strategy", Str),
            $($column),*
        ]
    };
}

/// Every table's columns, in the order of `pipelines/schema.py` (which documents them). The last three are
/// summed within the shard by the seats' kind of game, deck and player (`pipelines/summaries.py` declares the
/// same sums, which the tests hold these to).
pub const TABLES: [(&str, Columns); 12] = [
    (
        "games",
        &[
            ("game_id", I64),
            ("cell", Str),
            ("seed", I64),
            ("mode", Str),
            ("players", I8),
            ("teams", Bool),
            ("deck_0", Str),
            ("deck_1", Str),
            ("strategy_0", Str),
            ("strategy_1", Str),
            ("first_player", I8),
            ("winner", I8),
            ("score_0", I16),
            ("score_1", I16),
            ("turns", I16),
            ("end_reason", Str),
            ("tiebreak", Str),
            ("card_set", Str),
            ("schema_version", I16),
            ("variant", Str),
            ("variant_seat", I8),
        ],
    ),
    (
        "card_events",
        &[
            ("game_id", I64),
            ("turn", I16),
            ("seat", I8),
            ("card_id", Str),
            ("card_type", Str),
            ("event", Str),
            ("opening", Bool),
            ("square", I16),
            ("enemy_common", I8),
            ("enemy_heroic", I8),
            ("enemy_legendary", I8),
            ("own_destroyed", I8),
            ("upgrades", I8),
            ("downgrades", I8),
            ("placed", I8),
            ("converted", I8),
        ],
    ),
    (
        "task_events",
        &[
            ("game_id", I64),
            ("turn", I16),
            ("seat", I8),
            ("task_id", Str),
            ("event", Str),
            ("points", I8),
        ],
    ),
    (
        "flare_events",
        &[
            ("game_id", I64),
            ("turn", I16),
            ("seat", I8),
            ("flare_id", Str),
            ("upper", Bool),
            ("lower", Bool),
            ("behind_by", I16),
            ("against", I8),
        ],
    ),
    (
        "points",
        &[
            ("game_id", I64),
            ("turn", I16),
            ("seat", I8),
            ("source", Str),
            ("points", I16),
            ("colour", I8),
        ],
    ),
    (
        "deck_order",
        &[
            ("game_id", I64),
            ("seat", I8),
            ("card_id", Str),
            ("position", I8),
        ],
    ),
    (
        "seat_results",
        &[
            ("game_id", I64),
            ("seat", I8),
            ("team", I8),
            ("deck", Str),
            ("strategy", Str),
            ("position", I8),
            ("score", I16),
            ("place", I8),
            ("improvised", I8),
        ],
    ),
    (
        "colour_points",
        &[
            ("game_id", I64),
            ("seat", I8),
            ("colour", I8),
            ("points", I16),
            ("lowest", Bool),
        ],
    ),
    (
        "pass_control",
        &[
            ("game_id", I64),
            ("turn", I16),
            ("seat", I8),
            ("to_seat", I8),
            ("during", Str),
        ],
    ),
    (
        "seat_cards",
        summed![
            ("card_id", Str),
            ("won", Bool),
            ("drawn", I32),
            ("opening", I32),
            ("played", I32),
            ("plays", I32),
            ("play_turns", I64),
            ("first_plays", I32),
            ("first_play_turns", I64),
            ("enemy_common", I32),
            ("enemy_heroic", I32),
            ("enemy_legendary", I32),
            ("own_destroyed", I32),
            ("upgrades", I32),
            ("downgrades", I32),
            ("placed", I32),
            ("converted", I32),
            ("turn_points", I64),
            ("frozen", I32),
            ("thawed", I32),
            ("warped", I32),
            ("invocations", I32),
            ("invoked", I32),
            ("upper_only", I32),
            ("lower_only", I32),
            ("both_halves", I32),
            ("behind", I32),
            ("behind_gap", I64),
        ],
    ),
    (
        "deck_positions",
        summed![
            ("card_id", Str),
            ("position", I8),
            ("won", Bool),
            ("games", I32),
        ],
    ),
    (
        "seat_tasks",
        summed![
            ("opp_strategy", Str),
            ("first", Bool),
            ("task_id", Str),
            ("won", Bool),
            ("dealt", I32),
            ("revealed", I32),
            ("claims", I32),
            ("points", I32),
            ("row_turns", I64),
        ],
    ),
];

const GAMES: usize = 0;
const CARD_EVENTS: usize = 1;
const TASK_EVENTS: usize = 2;
const FLARE_EVENTS: usize = 3;
const POINTS: usize = 4;
const DECK_ORDER: usize = 5;
const SEAT_RESULTS: usize = 6;
const COLOUR_POINTS: usize = 7;
const PASS_CONTROL: usize = 8;
const SEAT_CARDS: usize = 9;
const DECK_POSITIONS: usize = 10;
const SEAT_TASKS: usize = 11;

/// One value of a row.
#[derive(Clone, Copy)]
enum V<'a> {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    B(bool),
    S(&'a str),
}

/// A number narrowed to its column's type; one out of range is an error, as pyarrow's cast of the
/// Python path makes it.
fn narrow<T: TryFrom<i64>>(v: impl Into<i64>) -> T {
    let v = v.into();
    T::try_from(v).unwrap_or_else(|_| panic!("table value {v} out of its column's range"))
}

fn i8v(v: impl Into<i64>) -> V<'static> {
    V::I8(narrow(v))
}

fn i16v(v: impl Into<i64>) -> V<'static> {
    V::I16(narrow(v))
}

fn i32v(v: impl Into<i64>) -> V<'static> {
    V::I32(narrow(v))
}

/// A string column as a dictionary: each distinct value once (found by its address: the card set interns its ids
/// and a shard's names are shared), each row an index into it. pyarrow's Parquet writer takes the dictionary as
/// it is, instead of hashing every row's string again (a quarter of card_events' encoding time); the files hold
/// plain strings (docs/core.md, "Shards as Arrow").
#[derive(Default)]
struct Strings<'a> {
    values: Vec<&'a str>,
    index: HashMap<(usize, usize), i32, BuildHasherDefault<FxHasher>>,
    keys: Vec<i32>,
}

impl<'a> Strings<'a> {
    fn push(&mut self, v: &'a str) {
        let values = &mut self.values;
        let key = *self
            .index
            .entry((v.as_ptr() as usize, v.len()))
            .or_insert_with(|| {
                values.push(v);
                narrow(values.len() as i64 - 1)
            });
        self.keys.push(key);
    }

    /// The dictionary array, the same text at two addresses made one entry.
    fn finish(self) -> DictionaryArray<Int32Type> {
        let mut first: HashMap<&str, i32, BuildHasherDefault<FxHasher>> = HashMap::default();
        let mut distinct = Vec::with_capacity(self.values.len());
        let remap: Vec<i32> = self
            .values
            .iter()
            .map(|&v| {
                *first.entry(v).or_insert_with(|| {
                    distinct.push(v);
                    narrow(distinct.len() as i64 - 1)
                })
            })
            .collect();
        let keys = if distinct.len() == self.values.len() {
            self.keys
        } else {
            self.keys.iter().map(|&k| remap[k as usize]).collect()
        };
        DictionaryArray::try_new(Int32Array::from(keys), Arc::new(string_array(&distinct)))
            .expect("every key within the dictionary")
    }
}

enum Column<'a> {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
    Str(Strings<'a>),
}

impl Column<'_> {
    fn len(&self) -> usize {
        match self {
            Column::I8(c) => c.len(),
            Column::I16(c) => c.len(),
            Column::I32(c) => c.len(),
            Column::I64(c) => c.len(),
            Column::Bool(c) => c.len(),
            Column::Str(c) => c.keys.len(),
        }
    }

    fn reserve(&mut self, n: usize) {
        match self {
            Column::I8(c) => c.reserve(n),
            Column::I16(c) => c.reserve(n),
            Column::I32(c) => c.reserve(n),
            Column::I64(c) => c.reserve(n),
            Column::Bool(c) => c.reserve(n),
            Column::Str(c) => c.keys.reserve(n),
        }
    }
}

fn string_array(values: &[&str]) -> StringArray {
    let mut offsets = Vec::with_capacity(values.len() + 1);
    let mut bytes = Vec::with_capacity(values.iter().map(|v| v.len()).sum());
    offsets.push(0i32);
    for v in values {
        bytes.extend_from_slice(v.as_bytes());
        offsets.push(i32::try_from(bytes.len()).expect("a string column under 2 GiB"));
    }
    StringArray::new(OffsetBuffer::new(offsets.into()), Buffer::from(bytes), None)
}

struct Table<'a> {
    fields: Columns,
    columns: Vec<Column<'a>>,
}

impl<'a> Table<'a> {
    fn new(fields: Columns) -> Table<'a> {
        let columns = fields
            .iter()
            .map(|&(_, ty)| match ty {
                Ty::I8 => Column::I8(Vec::new()),
                Ty::I16 => Column::I16(Vec::new()),
                Ty::I32 => Column::I32(Vec::new()),
                Ty::I64 => Column::I64(Vec::new()),
                Ty::Bool => Column::Bool(Vec::new()),
                Ty::Str => Column::Str(Strings::default()),
            })
            .collect();
        Table { fields, columns }
    }

    fn rows(&self) -> usize {
        self.columns[0].len()
    }

    fn push(&mut self, row: &[V<'a>]) {
        assert_eq!(row.len(), self.columns.len(), "row width");
        for (column, &value) in self.columns.iter_mut().zip(row) {
            match (column, value) {
                (Column::I8(c), V::I8(v)) => c.push(v),
                (Column::I16(c), V::I16(v)) => c.push(v),
                (Column::I32(c), V::I32(v)) => c.push(v),
                (Column::I64(c), V::I64(v)) => c.push(v),
                (Column::Bool(c), V::B(v)) => c.push(v),
                (Column::Str(c), V::S(v)) => c.push(v),
                _ => panic!("a row value of the wrong type"),
            }
        }
    }

    fn finish(self) -> RecordBatch {
        let schema = Schema::new(
            self.fields
                .iter()
                .map(|&(name, ty)| Field::new(name, ty.data_type(), true))
                .collect::<Vec<_>>(),
        );
        let arrays: Vec<ArrayRef> = self
            .columns
            .into_iter()
            .map(|c| -> ArrayRef {
                match c {
                    Column::I8(v) => Arc::new(Int8Array::from(v)),
                    Column::I16(v) => Arc::new(Int16Array::from(v)),
                    Column::I32(v) => Arc::new(Int32Array::from(v)),
                    Column::I64(v) => Arc::new(Int64Array::from(v)),
                    Column::Bool(v) => Arc::new(BooleanArray::from(v)),
                    Column::Str(v) => Arc::new(v.finish()),
                }
            })
            .collect();
        RecordBatch::try_new(Arc::new(schema), arrays).expect("columns match their schema")
    }
}

/// What a game's rows say beside its state: the study's names for it.
pub struct GameInfo<'a> {
    pub game_id: i64,
    pub cell: &'a str,
    pub mode: &'a str,
    pub card_set: &'a str,
    /// The decks the study names by seat (not the changed copy an ablation seat plays).
    pub decks: &'a [String],
    /// The study's player labels by seat.
    pub labels: Vec<&'a str>,
    pub variant: &'a str,
    pub variant_seat: i8,
    pub teams: bool,
}

/// A card row of a game waiting for its effect counters (a play's events follow it).
struct CardRow {
    turn: u32,
    seat: i8,
    card: Id,
    card_type: &'static str,
    event: &'static str,
    opening: bool,
    square: i16,
    counters: [i64; COUNTERS],
    /// An invocation's flare_events values: upper, lower, behind_by.
    flare: (bool, bool, i64),
}

fn card_type(card: &str) -> &'static str {
    if card.starts_with("legend/") {
        "legend"
    } else if card.starts_with("flare/") {
        "flare"
    } else {
        "being"
    }
}

fn deck_card_type(deck: DrawDeck) -> &'static str {
    match deck {
        DrawDeck::Personal => "being",
        DrawDeck::Legend => "legend",
        DrawDeck::Flare => "flare",
    }
}

/// One seat's card rows of one card in a game, summed (then added to the shard's seat_cards).
#[derive(Clone, Copy)]
struct SeatCard {
    seat: i8,
    card: Id,
    drawn: bool,
    opening: bool,
    played: bool,
    plays: i64,
    play_turns: i64,
    first_play: Option<u32>,
    counters: [i64; COUNTERS],
    turn_points: i64,
    expansion: [i64; 3], // frozen, thawed, warped
    invocations: i64,
    flare: (bool, bool, bool, i64), // over the invocations: upper used, lower used, behind, sum of behind_by
}

impl SeatCard {
    fn new(c: &CardRow) -> SeatCard {
        SeatCard {
            seat: c.seat,
            card: c.card,
            drawn: false,
            opening: false,
            played: false,
            plays: 0,
            play_turns: 0,
            first_play: None,
            counters: [0; COUNTERS],
            turn_points: 0,
            expansion: [0; 3],
            invocations: 0,
            flare: (false, false, false, 0),
        }
    }

    /// A card row of this seat and card; `points` are the game's (turn, seat, points).
    fn add(&mut self, c: &CardRow, points: &[(u32, i8, i64)]) {
        self.drawn |= c.event == "drawn";
        self.opening |= c.opening;
        self.played |= c.event == "played" || c.event == "invoked";
        match c.event {
            "played" => {
                self.plays += 1;
                self.play_turns += i64::from(c.turn);
                self.first_play = Some(self.first_play.map_or(c.turn, |t| t.min(c.turn)));
                for (sum, k) in self.counters.iter_mut().zip(c.counters) {
                    *sum += k;
                }
                self.turn_points += points
                    .iter()
                    .filter(|&&(turn, seat, _)| turn == c.turn && seat == c.seat)
                    .map(|&(_, _, p)| p)
                    .sum::<i64>();
            }
            "invoked" => {
                let (upper, lower, behind_by) = c.flare;
                self.invocations += 1;
                self.flare.0 |= upper;
                self.flare.1 |= lower;
                self.flare.2 |= behind_by < 0;
                self.flare.3 += behind_by;
            }
            "frozen" => self.expansion[0] += 1,
            "thawed" => self.expansion[1] += 1,
            "warped" => self.expansion[2] += 1,
            _ => {}
        }
    }

    fn merge(&mut self, o: &SeatCard) {
        self.drawn |= o.drawn;
        self.opening |= o.opening;
        self.played |= o.played;
        self.plays += o.plays;
        self.play_turns += o.play_turns;
        self.first_play = match (self.first_play, o.first_play) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        for (sum, k) in self.counters.iter_mut().zip(o.counters) {
            *sum += k;
        }
        self.turn_points += o.turn_points;
        for (sum, k) in self.expansion.iter_mut().zip(o.expansion) {
            *sum += k;
        }
        self.invocations += o.invocations;
        self.flare = (
            self.flare.0 | o.flare.0,
            self.flare.1 | o.flare.1,
            self.flare.2 | o.flare.2,
            self.flare.3 + o.flare.3,
        );
    }
}

/// A seat of a game as the summed tables key it: the columns the report selects games by (the game's mode,
/// players, teams, variant and whether both seats 0 and 1 had one player label) and the seat's deck and player.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct SeatKind<'a> {
    mode: &'a str,
    players: i8,
    teams: bool,
    variant: &'a str,
    mirror: bool,
    deck: &'a str,
    strategy: &'a str,
}

/// A seat of the game being added: its kind (an index into the shard's kinds), whether it won (the winner is
/// its team: in a team game seat % 2, else the seat), whether it took the first turn, and (a duel) the other
/// seat's player label, else "".
#[derive(Clone, Copy)]
struct Seat<'a> {
    kind: u16,
    won: bool,
    first: bool,
    opponent: &'a str,
}

/// rustc's FxHash: the summed tables' keys (a few small integers and card ids) are hashed about a hundred times a
/// game, and SipHash's defence against chosen keys buys nothing here.
#[derive(Default)]
struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        for &b in words.remainder() {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A string as a key by its address: the card set interns its ids and a shard's labels are shared, so a key is
/// hashed and compared as two integers; the same text at two addresses is merged when the sums are sorted by
/// their text (`Sums::into_sorted`).
#[derive(Clone, Copy)]
struct Interned<'a>(&'a str);

impl PartialEq for Interned<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Interned<'_> {}

impl Hash for Interned<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.as_ptr() as usize);
        state.write_usize(self.0.len());
    }
}

/// Values summed by key over a shard's games, in the order the keys came (sorted when the shard is done).
struct Sums<K, const N: usize> {
    index: HashMap<K, usize, BuildHasherDefault<FxHasher>>,
    rows: Vec<(K, [i64; N])>,
}

impl<K: Copy + Eq + Hash, const N: usize> Sums<K, N> {
    fn new() -> Self {
        Sums {
            index: HashMap::default(),
            rows: Vec::new(),
        }
    }

    /// The sums sorted by `key` (the row's columns, by text), the rows of equal keys summed into one.
    fn into_sorted<T: Ord>(self, key: impl Fn(&K) -> T) -> Vec<(T, [i64; N])> {
        let mut rows: Vec<(T, [i64; N])> =
            self.rows.into_iter().map(|(k, v)| (key(&k), v)).collect();
        rows.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(T, [i64; N])> = Vec::with_capacity(rows.len());
        for (k, v) in rows {
            match out.last_mut() {
                Some((last, sums)) if *last == k => {
                    for (sum, x) in sums.iter_mut().zip(v) {
                        *sum += x;
                    }
                }
                _ => out.push((k, v)),
            }
        }
        out
    }

    fn add(&mut self, key: K, values: [i64; N]) {
        let rows = &mut self.rows;
        let i = *self.index.entry(key).or_insert_with(|| {
            rows.push((key, [0; N]));
            rows.len() - 1
        });
        for (sum, v) in rows[i].1.iter_mut().zip(values) {
            *sum += v;
        }
    }
}

const CARD_SUMS: usize = 26; // seat_cards' columns after its keys
const TASK_SUMS: usize = 5; // seat_tasks' columns after its keys

/// A task of a game: revealed (at setup, turn 0: dealt), the turn it entered the row (setup's first three: 0;
/// a later one: at the first claim after its reveal, which freed the place it moved into), its claim.
struct GameTask {
    task: Id,
    dealt: bool,
    entered: Option<u32>,
    claim: Option<(i8, u32, i64)>, // seat, turn, points
}

/// A shard's tables, a game at a time.
pub struct ShardTables<'a> {
    tables: Vec<Table<'a>>,
    schema_version: i16,
    rows: Vec<CardRow>,
    /// The game's points events as (turn, seat, points), and its card rows in seat order.
    points: Vec<(u32, i8, i64)>,
    order: Vec<usize>,
    seat_sums: Vec<SeatCard>,
    /// The game's deck order after its setup: (seat, being id, position).
    deck: Vec<(usize, Id, i64)>,
    tasks: Vec<GameTask>,
    kinds: Vec<SeatKind<'a>>,
    seat_cards: Sums<(u16, Interned<'static>, bool), CARD_SUMS>,
    deck_positions: Sums<(u16, Interned<'static>, i64, bool), 1>,
    seat_tasks: Sums<(u16, Interned<'a>, bool, Interned<'static>, bool), TASK_SUMS>,
}

impl<'a> ShardTables<'a> {
    pub fn new(schema_version: i16) -> ShardTables<'a> {
        ShardTables {
            tables: TABLES
                .iter()
                .map(|&(_, fields)| Table::new(fields))
                .collect(),
            schema_version,
            rows: Vec::new(),
            points: Vec::new(),
            order: Vec::new(),
            seat_sums: Vec::new(),
            deck: Vec::new(),
            tasks: Vec::new(),
            kinds: Vec::new(),
            seat_cards: Sums::new(),
            deck_positions: Sums::new(),
            seat_tasks: Sums::new(),
        }
    }

    /// Room for `games` more games like those so far (the columns then grow without copies).
    pub fn reserve(&mut self, games_so_far: usize, games: usize) {
        for t in &mut self.tables {
            let n = t.rows() * games / games_so_far.max(1);
            for c in &mut t.columns {
                c.reserve(n);
            }
        }
    }

    /// Each seat's being deck as the setup shuffle left it, first drawn first (the opening hand, then the
    /// deck from its top); a team game's 4 players from their side's slots or the bench. Call it right
    /// after the setup; `add` counts its positions by the seat's result.
    pub fn deck_order(&mut self, game_id: i64, s: &GameState) {
        let mut seats: Vec<(&[BeingId], &[BeingId])> = Vec::new();
        match &s.teams {
            Some(t) => {
                for seat in 0..s.players() {
                    let side = seat % 2;
                    seats.push(if t.holder[side] == seat {
                        (&s.hand[side], &s.deck[side])
                    } else {
                        (&t.bench[side].hand, &t.bench[side].deck)
                    });
                }
            }
            None => seats.extend((0..s.seats).map(|p| (&s.hand[p][..], &s.deck[p][..]))),
        }
        self.deck.clear();
        let table = &mut self.tables[DECK_ORDER];
        for (seat, (hand, deck)) in seats.into_iter().enumerate() {
            for (pos, &b) in hand.iter().chain(deck.iter().rev()).enumerate() {
                let card = s.cards.being(b).id;
                table.push(&[
                    V::I64(game_id),
                    i8v(seat as i64),
                    V::S(card),
                    i8v(pos as i64),
                ]);
                self.deck.push((seat, card, pos as i64));
            }
        }
    }

    /// The seats of a game as the summed tables key them.
    fn seats(&mut self, g: &GameInfo<'a>, winner: i32, first: usize) -> Vec<Seat<'a>> {
        let n = g.decks.len();
        let mirror = g.labels[0] == g.labels[1];
        (0..n)
            .map(|p| {
                let kind = SeatKind {
                    mode: g.mode,
                    players: narrow(n as i64),
                    teams: g.teams,
                    variant: g.variant,
                    mirror,
                    deck: &g.decks[p],
                    strategy: g.labels[p],
                };
                let at = match self.kinds.iter().position(|k| *k == kind) {
                    Some(at) => at,
                    None => {
                        self.kinds.push(kind);
                        self.kinds.len() - 1
                    }
                };
                let team = if g.teams { p % 2 } else { p };
                Seat {
                    kind: narrow(at as i64),
                    won: winner == team as i32,
                    first: p == first,
                    opponent: if n == 2 && !g.teams {
                        g.labels[1 - p]
                    } else {
                        ""
                    },
                }
            })
            .collect()
    }

    /// The rows of a finished game.
    pub fn add(&mut self, g: &GameInfo<'a>, s: &GameState) {
        let r = &s.record;
        let n = g.decks.len();
        let id = V::I64(g.game_id);
        let teams = g.teams;
        // the colour an event's seat plays: its team in a team game (a destroy's owner is the team)
        let side = |seat: i8| if teams { seat.rem_euclid(2) } else { seat };
        let mut improvised = [0i64; 4];
        let mut play: Option<(usize, Id)> = None; // the last summon, thaw or warp: its row and card
        let mut rows = std::mem::take(&mut self.rows);
        rows.clear();
        let mut tasks = std::mem::take(&mut self.tasks);
        tasks.clear();
        let mut reveals = 0;
        let mut pending: Vec<usize> = Vec::new(); // revealed tasks waiting to enter the row
        let mut points = std::mem::take(&mut self.points);
        points.clear();
        let mut row = |turn: u32,
                       seat: i8,
                       card: Id,
                       card_type: &'static str,
                       event: &'static str,
                       opening: bool,
                       square: i16| {
            rows.push(CardRow {
                turn,
                seat,
                card,
                card_type,
                event,
                opening,
                square,
                counters: [0; COUNTERS],
                flare: (false, false, 0),
            });
            rows.len() - 1
        };
        // the counter an effect event of `cause` adds to, if it follows a play of `cause`
        let mut effects: Vec<(usize, usize)> = Vec::new();
        let mut invoked: Vec<(usize, (bool, bool, i64))> = Vec::new();
        let mut count = |play: Option<(usize, Id)>, cause: Id, counter: usize| {
            if let Some((at, card)) = play {
                if card == cause {
                    effects.push((at, counter));
                }
            }
        };
        for e in &r.events {
            match *e {
                Event::Draw {
                    turn,
                    seat,
                    card,
                    opening,
                    deck,
                } => {
                    row(turn, seat, card, deck_card_type(deck), "drawn", opening, -1);
                }
                Event::Summon {
                    turn,
                    seat,
                    card,
                    square,
                    ..
                } => {
                    let at = row(
                        turn,
                        seat,
                        card,
                        card_type(card),
                        "played",
                        false,
                        i16::from(square),
                    );
                    play = Some((at, card));
                }
                Event::Thaw { turn, seat, card } => {
                    play = Some((
                        row(turn, seat, card, card_type(card), "thawed", false, -1),
                        card,
                    ));
                }
                Event::Warp { turn, seat, card } => {
                    play = Some((
                        row(turn, seat, card, card_type(card), "warped", false, -1),
                        card,
                    ));
                }
                Event::Discard { turn, seat, card } => {
                    row(turn, seat, card, card_type(card), "discarded", false, -1);
                }
                Event::Return { turn, seat, card } => {
                    row(turn, seat, card, card_type(card), "returned", false, -1);
                }
                Event::Held { turn, seat, card } => {
                    row(turn, seat, card, card_type(card), "held", false, -1);
                }
                Event::Freeze {
                    turn, seat, card, ..
                } => {
                    row(turn, seat, card, card_type(card), "frozen", false, -1);
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
                    let at = row(turn, seat, card, card_type(card), "invoked", false, -1);
                    invoked.push((at, (upper, lower, i64::from(lead))));
                    self.tables[FLARE_EVENTS].push(&[
                        id,
                        i16v(turn),
                        V::I8(seat),
                        V::S(card),
                        V::B(upper),
                        V::B(lower),
                        i16v(lead),
                        V::I8(against),
                    ]);
                }
                Event::Destroy {
                    seat,
                    cause,
                    owner,
                    rank,
                    ..
                } => {
                    if i8::try_from(owner).map_or(true, |o| o != side(seat)) {
                        if rank <= 2 {
                            count(play, cause, usize::from(rank));
                        }
                    } else {
                        count(play, cause, 3);
                    }
                }
                Event::Upgrade { cause, .. } => count(play, cause, 4),
                Event::Downgrade { cause, .. } => count(play, cause, 5),
                Event::Place { cause, .. } => count(play, cause, 6),
                Event::Convert { cause, .. } => count(play, cause, 7),
                Event::TaskReveal { turn, task, .. } => {
                    self.tables[TASK_EVENTS].push(&[
                        id,
                        i16v(turn),
                        V::I8(-1),
                        V::S(task),
                        V::S("revealed"),
                        V::I8(0),
                    ]);
                    reveals += 1;
                    if reveals > 3 {
                        pending.push(tasks.len());
                    }
                    tasks.push(GameTask {
                        task,
                        dealt: turn == 0,
                        entered: (reveals <= 3).then_some(0),
                        claim: None,
                    });
                }
                Event::TaskClaim {
                    turn,
                    seat,
                    task,
                    points,
                } => {
                    self.tables[TASK_EVENTS].push(&[
                        id,
                        i16v(turn),
                        V::I8(seat),
                        V::S(task),
                        V::S("claimed"),
                        i8v(points),
                    ]);
                    for at in pending.drain(..) {
                        tasks[at].entered = Some(turn);
                    }
                    if let Some(t) = tasks.iter_mut().rev().find(|t| t.task == task) {
                        t.claim = Some((seat, turn, i64::from(points)));
                    }
                }
                Event::Points {
                    turn,
                    seat,
                    source,
                    points: p,
                    colour,
                } => {
                    points.push((turn, seat, i64::from(p)));
                    self.tables[POINTS].push(&[
                        id,
                        i16v(turn),
                        V::I8(seat),
                        V::S(source),
                        i16v(p),
                        V::I8(colour),
                    ]);
                }
                Event::Improvise { seat, .. } => improvised[seat as usize] += 1,
                Event::PassControl {
                    turn,
                    seat,
                    to,
                    during,
                } => self.tables[PASS_CONTROL].push(&[
                    id,
                    i16v(turn),
                    V::I8(seat),
                    i8v(to),
                    V::S(during),
                ]),
                _ => {}
            }
        }
        for (at, counter) in effects {
            rows[at].counters[counter] += 1;
        }
        for (at, flare) in invoked {
            rows[at].flare = flare;
        }
        let table = &mut self.tables[CARD_EVENTS];
        for c in &rows {
            let k = c.counters;
            table.push(&[
                id,
                i16v(c.turn),
                V::I8(c.seat),
                V::S(c.card),
                V::S(c.card_type),
                V::S(c.event),
                V::B(c.opening),
                V::I16(c.square),
                i8v(k[0]),
                i8v(k[1]),
                i8v(k[2]),
                i8v(k[3]),
                i8v(k[4]),
                i8v(k[5]),
                i8v(k[6]),
                i8v(k[7]),
            ]);
        }
        let first = r.first_player;
        let seats = self.seats(g, r.winner, first);
        self.sum_seat_cards(&seats, &rows, &points);
        self.sum_deck_positions(&seats);
        self.sum_seat_tasks(&seats, &tasks);
        self.rows = rows;
        self.points = points;
        self.tasks = tasks;

        let first = first as i64;
        self.tables[GAMES].push(&[
            id,
            V::S(g.cell),
            V::I64(i64::try_from(r.config.seed).expect("a seed within int64")),
            V::S(g.mode),
            i8v(n as i64),
            V::B(teams),
            V::S(&g.decks[0]),
            V::S(&g.decks[1]),
            V::S(g.labels[0]),
            V::S(g.labels[1]),
            i8v(first),
            i8v(r.winner),
            i16v(r.scores[0]),
            i16v(r.scores[1]),
            i16v(r.turns),
            V::S(r.end_reason),
            V::S(r.tiebreak),
            V::S(g.card_set),
            V::I16(self.schema_version),
            V::S(g.variant),
            V::I8(g.variant_seat),
        ]);
        for (p, &improvised) in improvised.iter().enumerate().take(n) {
            let team = if teams { p % 2 } else { p };
            let place = match r.places.get(p) {
                Some(&place) => i64::from(place),
                None if r.winner == -1 || r.winner == team as i32 => 1,
                None => 2,
            };
            self.tables[SEAT_RESULTS].push(&[
                id,
                i8v(p as i64),
                i8v(team as i64),
                V::S(&g.decks[p]),
                V::S(g.labels[p]),
                i8v((p as i64 - first).rem_euclid(n as i64)),
                i16v(r.scores[team]),
                i8v(place),
                i8v(improvised),
            ]);
        }
        for (p, colours) in r.colour_scores.iter().enumerate() {
            for (c, v) in colours.iter().enumerate() {
                if let Some(v) = *v {
                    self.tables[COLOUR_POINTS].push(&[
                        id,
                        i8v(p as i64),
                        i8v(c as i64),
                        i16v(v),
                        V::B(v == r.scores[p]),
                    ]);
                }
            }
        }
    }

    /// A game's card rows and points events summed per seat and card, as `summarize` in
    /// `pipelines/summaries.py` sums them from the card_events and points tables, then added to the shard's
    /// seat_cards by the seat's kind, card and result, as `seat_cards` there sums them.
    fn sum_seat_cards(&mut self, seats: &[Seat<'a>], rows: &[CardRow], points: &[(u32, i8, i64)]) {
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(0..rows.len());
        // grouped by the id's address first (integers sort fast; the card set interns its ids), then any
        // groups of one id at two addresses merged
        let key = |c: &CardRow| (c.seat, c.card.as_ptr() as usize, c.card.len());
        order.sort_unstable_by_key(|&i| key(&rows[i]));
        let mut sums = std::mem::take(&mut self.seat_sums);
        sums.clear();
        for group in order.chunk_by(|&a, &b| key(&rows[a]) == key(&rows[b])) {
            let mut sum = SeatCard::new(&rows[group[0]]);
            for &i in group {
                sum.add(&rows[i], points);
            }
            sums.push(sum);
        }
        sums.sort_unstable_by(|a, b| (a.seat, a.card).cmp(&(b.seat, b.card)));
        for same in sums.chunk_by(|a, b| (a.seat, a.card) == (b.seat, b.card)) {
            let mut sum = same[0];
            for other in &same[1..] {
                sum.merge(other);
            }
            let seat = seats[sum.seat as usize];
            let (k, x) = (sum.counters, sum.expansion);
            let first_play = sum.first_play.filter(|_| sum.plays > 0);
            let (invoked, (upper, lower, behind, gap)) = (sum.invocations > 0, sum.flare);
            self.seat_cards.add(
                (seat.kind, Interned(sum.card), seat.won),
                [
                    i64::from(sum.drawn),
                    i64::from(sum.drawn && sum.opening),
                    i64::from(sum.drawn && sum.played),
                    sum.plays,
                    sum.play_turns,
                    i64::from(first_play.is_some()),
                    first_play.map_or(0, i64::from),
                    k[0],
                    k[1],
                    k[2],
                    k[3],
                    k[4],
                    k[5],
                    k[6],
                    k[7],
                    sum.turn_points,
                    x[0],
                    x[1],
                    x[2],
                    sum.invocations,
                    i64::from(invoked),
                    i64::from(invoked && upper && !lower),
                    i64::from(invoked && lower && !upper),
                    i64::from(invoked && upper && lower),
                    i64::from(invoked && behind),
                    gap,
                ],
            );
        }
        self.order = order;
        self.seat_sums = sums;
    }

    /// The game's deck order (`deck_order` at its setup) counted by the seat's kind, card, position and result.
    fn sum_deck_positions(&mut self, seats: &[Seat<'a>]) {
        for &(seat, card, pos) in &self.deck {
            let s = seats[seat];
            self.deck_positions
                .add((s.kind, Interned(card), pos, s.won), [1]);
        }
    }

    /// The game's tasks per seat: for every task revealed in the game and every seat, whether it was dealt at
    /// setup, revealed, and the seat's claim of it (its points, and the turns from entering the row to the
    /// claim), by the seat's kind, opponent, first turn, task and result.
    fn sum_seat_tasks(&mut self, seats: &[Seat<'a>], tasks: &[GameTask]) {
        for (p, s) in seats.iter().enumerate() {
            for t in tasks {
                let (claims, points, turns) = match t.claim {
                    Some((seat, turn, points)) if seat as usize == p => {
                        (1, points, i64::from(turn) - t.entered.map_or(0, i64::from))
                    }
                    _ => (0, 0, 0),
                };
                self.seat_tasks.add(
                    (
                        s.kind,
                        Interned(s.opponent),
                        s.first,
                        Interned(t.task),
                        s.won,
                    ),
                    [i64::from(t.dealt), 1, claims, points, turns],
                );
            }
        }
    }

    /// One record batch per table, by name.
    pub fn finish(mut self) -> Vec<(&'static str, RecordBatch)> {
        let kinds = std::mem::take(&mut self.kinds);
        let kind = |k: SeatKind<'a>| {
            [
                V::S(k.mode),
                V::I8(k.players),
                V::B(k.teams),
                V::S(k.variant),
                V::B(k.mirror),
                V::S(k.deck),
                V::S(k.strategy),
            ]
        };
        let cards = std::mem::replace(&mut self.seat_cards, Sums::new())
            .into_sorted(|&(k, card, won)| (kinds[usize::from(k)], card.0, won));
        for ((k, card, won), v) in cards {
            let mut row: Vec<V<'a>> = kind(k).to_vec();
            row.extend([V::S(card), V::B(won)]);
            row.extend(
                v.iter()
                    .enumerate()
                    .map(|(i, &x)| match TABLES[SEAT_CARDS].1[9 + i].1 {
                        I64 => V::I64(x),
                        _ => i32v(x),
                    }),
            );
            self.tables[SEAT_CARDS].push(&row);
        }
        let deck = std::mem::replace(&mut self.deck_positions, Sums::new())
            .into_sorted(|&(k, card, pos, won)| (kinds[usize::from(k)], card.0, pos, won));
        for ((k, card, pos, won), [games]) in deck {
            let mut row: Vec<V<'a>> = kind(k).to_vec();
            row.extend([V::S(card), i8v(pos), V::B(won), i32v(games)]);
            self.tables[DECK_POSITIONS].push(&row);
        }
        let tasks = std::mem::replace(&mut self.seat_tasks, Sums::new()).into_sorted(
            |&(k, opp, first, task, won)| (kinds[usize::from(k)], opp.0, first, task.0, won),
        );
        for ((k, opp, first, task, won), v) in tasks {
            let mut row: Vec<V<'a>> = kind(k).to_vec();
            row.extend([V::S(opp), V::B(first), V::S(task), V::B(won)]);
            row.extend([i32v(v[0]), i32v(v[1]), i32v(v[2]), i32v(v[3]), V::I64(v[4])]);
            self.tables[SEAT_TASKS].push(&row);
        }
        TABLES
            .iter()
            .zip(self.tables)
            .map(|(&(name, _), t)| (name, t.finish()))
            .collect()
    }
}
