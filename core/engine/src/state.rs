//! The game state and the primitive piece operations every rule and effect is built from (sim/state.py).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::board::{self, bit, Bits, Square};
use crate::cards::{BeingId, CardSet, FlareId, TaskId};
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::{Event, GameRecord, Id};
use crate::rng::PyRandom;

pub const LEGENDARY_PIECES: i32 = 3;
pub const MAX_LEGENDS_IN_ARENA: u32 = 3;
/// A duel has 2 seats, a Deathmatch melee 3 or 4; per-seat arrays are this long, the seats past
/// `GameState::seats` stay empty.
pub const MAX_SEATS: usize = 4;

/// One value per seat.
pub type PerSeat<T> = [T; MAX_SEATS];
/// Team games: the cards at the bottom of each deck that lie sideways (they do not count for the deck
/// trigger).
pub const SIDEWAYS: usize = 6;
/// Team games: the seats at the table (two teams of two); the rules engine plays two sides.
pub const TEAM_SEATS: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    HighForm,
    Deathmatch,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::HighForm => "high-form",
            Mode::Deathmatch => "deathmatch",
        }
    }

    pub fn parse(s: &str) -> Result<Mode, String> {
        match s {
            "high-form" => Ok(Mode::HighForm),
            "deathmatch" => Ok(Mode::Deathmatch),
            _ => Err(format!(
                "unknown mode {s:?}; expected one of high-form, deathmatch"
            )),
        }
    }

    /// Tokens in each stock: a Deathmatch score board holds one token of each opponent's colour.
    pub fn tokens(self, seats: usize) -> i32 {
        match self {
            Mode::HighForm => 17,
            Mode::Deathmatch => 18 - seats as i32,
        }
    }

    /// The score that triggers the end: a player's score in a duel, one colour's score in a melee.
    pub fn end_score(self, seats: usize) -> i32 {
        match (self, seats) {
            (Mode::HighForm, _) => 9,
            (Mode::Deathmatch, 2) => 18,
            (Mode::Deathmatch, 3) => 12,
            (Mode::Deathmatch, _) => 10,
        }
    }
}

/// Why the end was triggered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndTrigger {
    Deck,
    Score,
    TurnLimit,
}

impl EndTrigger {
    pub fn as_str(self) -> &'static str {
        match self {
            EndTrigger::Deck => "deck",
            EndTrigger::Score => "score",
            EndTrigger::TurnLimit => "turn-limit",
        }
    }
}

/// (owner, rank) of a piece.
pub type Piece = (usize, u8);

/// A random stream that a game state and a strategy may share, as Python shares one `random.Random`
/// between a strategy and its sandbox copies.
pub type SharedRng = Rc<RefCell<PyRandom>>;

pub fn shared_rng(seed: u64) -> SharedRng {
    Rc::new(RefCell::new(PyRandom::new(seed)))
}

/// What the active player did this turn, for tasks and Deathmatch scoring.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnCounters {
    /// Enemy pieces destroyed, by rank.
    pub destroyed: [i32; 3],
    /// The same by the destroyed piece's owner (melee scoring counts each colour apart).
    pub destroyed_of: PerSeat<[i32; 3]>,
    /// (square, rank) of the beings summoned.
    pub summoned: Vec<(Square, u8)>,
    pub extra_draws: i32,
    pub extra_legend_draws: i32,
    pub extra_turn: bool,
    /// War Summoner: the next summon may use one enemy piece.
    pub borrow_enemy_piece: bool,
}

/// A team member's personal cards while his teammate's cards are in play (team games).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Member {
    /// Deck index in `cards.decks`.
    pub deck_index: usize,
    pub deck: Vec<BeingId>,
    pub hand: Vec<BeingId>,
    pub flare_hand: Vec<FlareId>,
    pub discarded: Vec<BeingId>,
    /// Etherweave: the member's pending being and the piece on his pending Merchant of Time.
    pub pending: Option<BeingId>,
    pub stasis: Option<Piece>,
    /// Everfrost: the member's frozen effect in play.
    pub frozen: Option<BeingId>,
    /// Nethervoid: the member's Hell Hound waiting to go under his deck (see `GameState::hound_return`).
    pub hound_return: Option<BeingId>,
}

/// A team game (2 against 2) is played by the engine as a duel between two sides, the teams: pieces,
/// stocks, scores, tasks and the team's legend cards are the side's. Each side's personal slots (`deck`,
/// `hand`, `flare_hand`, `discarded`, `decks`) hold the cards of one member at a time, the `holder`; the
/// other member's wait in `bench`. Seat `s` (0..4, clockwise) is on side `s % 2`: seats 0 and 2 are team
/// A, 1 and 3 team B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Teams {
    /// For each side, the seat whose personal cards are in the side's slots.
    pub holder: [usize; 2],
    /// For each side, the other member's personal cards.
    pub bench: [Member; 2],
    /// The seat whose turn it is.
    pub turn_seat: usize,
    /// The teammate who took over the turn once the active player passed control.
    pub controller: Option<usize>,
    /// The card whose effect is being resolved, if any: control may be passed in the middle of it.
    pub resolving: Option<Id>,
}

impl Teams {
    /// The seat of `side`'s member who is not `seat`.
    #[inline]
    pub fn teammate(seat: usize) -> usize {
        (seat + 2) % TEAM_SEATS
    }
}

/// How many copies done with a thread keeps as spares (`GameState::recycle`).
const SPARES: usize = 32;

thread_local! {
    /// Lookahead copies done with, whose buffers the next copies reuse (`GameState::copy_for`): such a
    /// copy allocates nothing, where a clone allocated every card list anew.
    /// Boxed so that taking one out or putting it back moves a pointer, not the state (see `clone_for`).
    #[allow(clippy::vec_box)]
    static SPARE: RefCell<Vec<Box<GameState>>> = const { RefCell::new(Vec::new()) };
}

/// Everything about a game in progress. Pieces are bitboards per player and rank.
#[derive(Clone)]
pub struct GameState {
    pub cards: Arc<CardSet>,
    pub mode: Mode,
    /// How many players: 2 (a duel) or 3-4 (a Deathmatch melee).
    pub seats: usize,
    /// Deck indices in `cards.decks`, per seat.
    pub decks: PerSeat<usize>,
    pub max_turns: u32,
    pub rng: SharedRng,
    /// [player][rank] -> bitboard.
    pub pieces: PerSeat<[Bits; 3]>,
    pub tokens: PerSeat<i32>,
    pub legend_stock: PerSeat<i32>,
    pub token_total: PerSeat<i32>,
    pub legend_total: PerSeat<i32>,
    /// Personal decks; the top is the end of the list.
    pub deck: PerSeat<Vec<BeingId>>,
    pub hand: PerSeat<Vec<BeingId>>,
    pub legend_hand: PerSeat<Vec<BeingId>>,
    pub flare_hand: PerSeat<Vec<FlareId>>,
    pub discarded: PerSeat<Vec<BeingId>>,
    pub legend_deck: Vec<BeingId>,
    pub legend_discard: Vec<BeingId>,
    pub flare_deck: Vec<FlareId>,
    pub flare_discard: Vec<FlareId>,
    pub task_deck: Vec<TaskId>,
    pub task_row: Vec<TaskId>,
    pub next_task: Option<TaskId>,
    pub claimed: PerSeat<Vec<TaskId>>,
    pub task_points: PerSeat<i32>,
    pub unnamed_task_points: PerSeat<i32>,
    pub dm_points: PerSeat<i32>,
    /// Melee: `[scorer][colour]`, the scorer's points in an opponent's colour.
    pub colour_points: PerSeat<PerSeat<i32>>,
    /// Melee: `[player][colour]`, whether the player's improvised summoning against that colour is spent.
    pub improvised: PerSeat<PerSeat<bool>>,
    pub first_player: usize,
    pub active: usize,
    /// Number of the turn being played, from 1.
    pub turn: u32,
    pub actions_left: i32,
    pub discarded_this_turn: bool,
    pub flare_used_this_turn: bool,
    pub counters: TurnCounters,
    pub end_trigger: Option<EndTrigger>,
    pub end_trigger_player: i32,
    pub trigger_turn: u32,
    /// Turns completed after the trigger turn.
    pub turns_after_trigger: u32,
    pub in_extra_turn: bool,
    pub over: bool,
    pub strict: bool,
    pub record: GameRecord,
    /// Team games only (`seats` is then 2, the sides).
    pub teams: Option<Box<Teams>>,
    // ----- Etherweave (core/engine/src/etherweave.rs, docs/cards-etherweave.md)
    /// Each seat's pending being: a card of its hand whose warp text was played (it stays in the hand).
    pub pending: PerSeat<Option<BeingId>>,
    /// The piece in stasis on each seat's pending Merchant of Time: (owner, rank); out of the arena and
    /// out of its owner's stock.
    pub stasis: PerSeat<Option<Piece>>,
    /// The active player's Etherweave effects that last until the end of the turn.
    pub warp_turn: crate::etherweave::WarpTurn,
    // ----- Everfrost (crate::everfrost)
    /// The frozen effect in play in front of each seat (a team game: the holder's; the benched member's
    /// waits in `Member::frozen`).
    pub frozen: PerSeat<Option<BeingId>>,
    /// Pieces removed from the game (Deathbringer), by owner: [tokens, legendary pieces]. The owner's
    /// `token_total` / `legend_total` are that much smaller.
    pub removed: PerSeat<[i32; 2]>,
    /// Everfrost Sentinel: bit `s` of `action_loss[q]` set when seat `s`'s Sentinel cut seat `q`'s next
    /// turn to 1 action (cleared when `q`'s turn starts, or when `s`'s turn comes round again).
    pub action_loss: PerSeat<u8>,
    // ----- Nethervoid (rules in effects/nethervoid.rs)
    /// The square of each side's Gateway: a status on one of its non-legendary pieces; None when it has
    /// none (or while the Gateway's piece is out of the arena, see `gateway_suspended`).
    pub gateway: PerSeat<Option<Square>>,
    /// The Gateway's piece is out of the arena (Etherweave's stasis): it becomes the Gateway again when it
    /// comes back, unless a new Gateway appeared meanwhile (`nethervoid::gateway_to_stasis`, `_from_stasis`).
    pub gateway_suspended: PerSeat<bool>,
    /// Possessed Summoner: the colour whose pieces must form the player's next pattern this turn.
    pub possessed: PerSeat<Option<u8>>,
    /// Hell Hound: the card that goes under its owner's deck at the end of the turn instead of the discard
    /// pile (neither in hand, deck nor discard pile meanwhile).
    pub hound_return: PerSeat<Option<BeingId>>,
}

impl GameState {
    /// A duel's state before the setup.
    pub fn new(
        cards: Arc<CardSet>,
        mode: Mode,
        decks: [usize; 2],
        seed: u64,
        max_turns: u32,
    ) -> GameState {
        GameState::with_seats(cards, mode, &decks, seed, max_turns)
    }

    /// A state before the setup for `decks.len()` players (2 to `MAX_SEATS`).
    pub fn with_seats(
        cards: Arc<CardSet>,
        mode: Mode,
        decks: &[usize],
        seed: u64,
        max_turns: u32,
    ) -> GameState {
        let seats = decks.len();
        assert!((2..=MAX_SEATS).contains(&seats), "{seats} seats");
        let t = mode.tokens(seats);
        let per_seat = |v: i32| std::array::from_fn(|p| if p < seats { v } else { 0 });
        let mut deck_of = [0; MAX_SEATS];
        deck_of[..seats].copy_from_slice(decks);
        GameState {
            cards,
            mode,
            seats,
            decks: deck_of,
            max_turns,
            rng: shared_rng(seed),
            pieces: [[0; 3]; MAX_SEATS],
            tokens: per_seat(t),
            legend_stock: per_seat(LEGENDARY_PIECES),
            token_total: per_seat(t),
            legend_total: per_seat(LEGENDARY_PIECES),
            deck: Default::default(),
            hand: Default::default(),
            legend_hand: Default::default(),
            flare_hand: Default::default(),
            discarded: Default::default(),
            legend_deck: Vec::new(),
            legend_discard: Vec::new(),
            flare_deck: Vec::new(),
            flare_discard: Vec::new(),
            task_deck: Vec::new(),
            task_row: Vec::new(),
            next_task: None,
            claimed: Default::default(),
            task_points: [0; MAX_SEATS],
            unnamed_task_points: [0; MAX_SEATS],
            dm_points: [0; MAX_SEATS],
            colour_points: [[0; MAX_SEATS]; MAX_SEATS],
            improvised: [[false; MAX_SEATS]; MAX_SEATS],
            first_player: 0,
            active: 0,
            turn: 0,
            actions_left: 0,
            discarded_this_turn: false,
            flare_used_this_turn: false,
            counters: TurnCounters::default(),
            end_trigger: None,
            end_trigger_player: -1,
            trigger_turn: 0,
            turns_after_trigger: 0,
            in_extra_turn: false,
            over: false,
            strict: false,
            record: GameRecord::default(),
            teams: None,
            pending: [None; MAX_SEATS],
            stasis: [None; MAX_SEATS],
            warp_turn: Default::default(),
            frozen: [None; MAX_SEATS],
            removed: [[0; 2]; MAX_SEATS],
            action_loss: [0; MAX_SEATS],
            gateway: [None; MAX_SEATS],
            gateway_suspended: [false; MAX_SEATS],
            possessed: [None; MAX_SEATS],
            hound_return: [None; MAX_SEATS],
        }
    }

    /// A copy for lookahead: everything copied, cards shared, the record starts empty and `rng` replaces
    /// the game's random stream (a copy of it would predict the real shuffles).
    /// Copied into one of the thread's spare states when it has one (`recycle`).
    /// Boxed: a state is about 2 kB, and a sandbox copy passes through several owners (the game played on
    /// it, the outcome that keeps it, the spares), each a move that copied it whole when unboxed.
    pub fn clone_for(&self, rng: &SharedRng) -> Box<GameState> {
        if let Some(mut c) = SPARE.with(|spare| spare.borrow_mut().pop()) {
            c.copy_for(self, rng);
            return c;
        }
        let mut c = Box::new(self.clone_without_record());
        c.rng = Rc::clone(rng);
        c
    }

    /// Keep a copy that is done with as a spare, for the next `clone_for` to copy into.
    pub fn recycle(self: Box<Self>) {
        // at thread exit the spares may be gone already: the state is then dropped
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARES {
                spare.push(self);
            }
        });
    }

    /// `*self = src.clone_for(rng)`, reusing this state's buffers (its card lists, its record's events):
    /// the sandboxes of a lookahead are copied by the thousand, and allocating their lists anew was a
    /// large share of their cost.
    pub fn copy_for(&mut self, src: &GameState, rng: &SharedRng) {
        // every field named: a new one fails to compile until it is copied here
        let GameState {
            cards,
            mode,
            seats,
            decks,
            max_turns,
            rng: _,
            pieces,
            tokens,
            legend_stock,
            token_total,
            legend_total,
            deck,
            hand,
            legend_hand,
            flare_hand,
            discarded,
            legend_deck,
            legend_discard,
            flare_deck,
            flare_discard,
            task_deck,
            task_row,
            next_task,
            claimed,
            task_points,
            unnamed_task_points,
            dm_points,
            colour_points,
            improvised,
            first_player,
            active,
            turn,
            actions_left,
            discarded_this_turn,
            flare_used_this_turn,
            counters,
            end_trigger,
            end_trigger_player,
            trigger_turn,
            turns_after_trigger,
            in_extra_turn,
            over,
            strict,
            record: _,
            teams,
            pending,
            stasis,
            warp_turn,
            frozen,
            removed,
            action_loss,
            gateway,
            gateway_suspended,
            possessed,
            hound_return,
        } = src;
        fn lists<T: Clone>(to: &mut PerSeat<Vec<T>>, from: &PerSeat<Vec<T>>) {
            for (t, f) in to.iter_mut().zip(from.iter()) {
                t.clone_from(f);
            }
        }
        self.cards.clone_from(cards);
        self.mode = *mode;
        self.seats = *seats;
        self.decks = *decks;
        self.max_turns = *max_turns;
        self.rng = Rc::clone(rng);
        self.pieces = *pieces;
        self.tokens = *tokens;
        self.legend_stock = *legend_stock;
        self.token_total = *token_total;
        self.legend_total = *legend_total;
        lists(&mut self.deck, deck);
        lists(&mut self.hand, hand);
        lists(&mut self.legend_hand, legend_hand);
        lists(&mut self.flare_hand, flare_hand);
        lists(&mut self.discarded, discarded);
        self.legend_deck.clone_from(legend_deck);
        self.legend_discard.clone_from(legend_discard);
        self.flare_deck.clone_from(flare_deck);
        self.flare_discard.clone_from(flare_discard);
        self.task_deck.clone_from(task_deck);
        self.task_row.clone_from(task_row);
        self.next_task = *next_task;
        lists(&mut self.claimed, claimed);
        self.task_points = *task_points;
        self.unnamed_task_points = *unnamed_task_points;
        self.dm_points = *dm_points;
        self.colour_points = *colour_points;
        self.improvised = *improvised;
        self.first_player = *first_player;
        self.active = *active;
        self.turn = *turn;
        self.actions_left = *actions_left;
        self.discarded_this_turn = *discarded_this_turn;
        self.flare_used_this_turn = *flare_used_this_turn;
        let TurnCounters {
            destroyed,
            destroyed_of,
            summoned,
            extra_draws,
            extra_legend_draws,
            extra_turn,
            borrow_enemy_piece,
        } = counters;
        self.counters.destroyed = *destroyed;
        self.counters.destroyed_of = *destroyed_of;
        self.counters.summoned.clone_from(summoned);
        self.counters.extra_draws = *extra_draws;
        self.counters.extra_legend_draws = *extra_legend_draws;
        self.counters.extra_turn = *extra_turn;
        self.counters.borrow_enemy_piece = *borrow_enemy_piece;
        self.end_trigger = *end_trigger;
        self.end_trigger_player = *end_trigger_player;
        self.trigger_turn = *trigger_turn;
        self.turns_after_trigger = *turns_after_trigger;
        self.in_extra_turn = *in_extra_turn;
        self.over = *over;
        self.strict = *strict;
        self.record.restart();
        self.teams.clone_from(teams);
        self.pending = *pending;
        self.stasis = *stasis;
        self.warp_turn = *warp_turn;
        self.frozen = *frozen;
        self.removed = *removed;
        self.action_loss = *action_loss;
        self.gateway = *gateway;
        self.gateway_suspended = *gateway_suspended;
        self.possessed = *possessed;
        self.hound_return = *hound_return;
    }

    fn clone_without_record(&self) -> GameState {
        GameState {
            cards: Arc::clone(&self.cards),
            rng: Rc::clone(&self.rng),
            deck: self.deck.clone(),
            hand: self.hand.clone(),
            legend_hand: self.legend_hand.clone(),
            flare_hand: self.flare_hand.clone(),
            discarded: self.discarded.clone(),
            legend_deck: self.legend_deck.clone(),
            legend_discard: self.legend_discard.clone(),
            flare_deck: self.flare_deck.clone(),
            flare_discard: self.flare_discard.clone(),
            task_deck: self.task_deck.clone(),
            task_row: self.task_row.clone(),
            claimed: self.claimed.clone(),
            counters: self.counters.clone(),
            record: GameRecord::default(),
            teams: self.teams.clone(),
            ..*self
        }
    }

    // ----- seats
    /// Whether this is a Deathmatch melee (3-4 players, every one for himself).
    #[inline]
    pub fn melee(&self) -> bool {
        self.seats > 2
    }

    /// Whether this is a team game (two sides of two players).
    #[inline]
    pub fn team_game(&self) -> bool {
        self.teams.is_some()
    }

    /// How many players sit at the table: the seats, or 4 in a team game.
    #[inline]
    pub fn players(&self) -> usize {
        if self.team_game() {
            TEAM_SEATS
        } else {
            self.seats
        }
    }

    /// The seat that holds side `p`'s personal cards now (`p` itself outside team games).
    #[inline]
    pub fn seat_of(&self, p: usize) -> usize {
        self.teams.as_ref().map_or(p, |t| t.holder[p])
    }

    /// Team games: exchange side `side`'s personal slots with its benched member's cards, so that the
    /// benched member becomes the holder. The record names the new holder's seat for the side.
    pub fn swap_members(&mut self, side: usize) {
        let t = self.teams.as_mut().expect("a team game");
        let b = &mut t.bench[side];
        std::mem::swap(&mut self.decks[side], &mut b.deck_index);
        std::mem::swap(&mut self.deck[side], &mut b.deck);
        std::mem::swap(&mut self.hand[side], &mut b.hand);
        std::mem::swap(&mut self.flare_hand[side], &mut b.flare_hand);
        std::mem::swap(&mut self.discarded[side], &mut b.discarded);
        std::mem::swap(&mut self.pending[side], &mut b.pending);
        std::mem::swap(&mut self.stasis[side], &mut b.stasis);
        std::mem::swap(&mut self.frozen[side], &mut b.frozen);
        std::mem::swap(&mut self.hound_return[side], &mut b.hound_return);
        t.holder[side] = Teams::teammate(t.holder[side]);
        self.sync_record_seats();
    }

    /// Team games: the seat that acts for side `side`: once control has passed, the teammate who took
    /// it acts for the active side; otherwise the seat holding the side's cards.
    pub fn acting_seat(&self, side: usize) -> usize {
        match self.teams.as_deref() {
            Some(t) if side == self.active && t.controller.is_some() && !self.over => {
                t.controller.expect("a controller")
            }
            Some(t) => t.holder[side],
            None => side,
        }
    }

    /// Team games: record each side's events for the seat acting for it.
    pub fn sync_record_seats(&mut self) {
        if self.team_game() {
            for side in 0..2 {
                let seat = self.acting_seat(side);
                self.record.set_team_seat(side, seat);
            }
        }
    }

    /// Team games: make `seat`'s cards the ones in his side's slots.
    pub fn hold(&mut self, seat: usize) {
        let side = seat % 2;
        if self.seat_of(side) != seat {
            self.swap_members(side);
        }
    }

    /// Team games: the cards of the deck in `side`'s slots that stand upright (above the sideways ones).
    #[inline]
    pub fn upright(&self, side: usize) -> usize {
        self.deck[side].len().saturating_sub(SIDEWAYS)
    }

    /// The seat after `p` in turn order (clockwise).
    #[inline]
    pub fn next_seat(&self, p: usize) -> usize {
        (p + 1) % self.seats
    }

    /// `p`'s opponents, in seat order.
    pub fn opponents(&self, p: usize) -> impl Iterator<Item = usize> {
        (0..self.seats).filter(move |&q| q != p)
    }

    /// The duel's other player; a melee has several (see `opponents`).
    #[inline]
    pub fn opponent(&self, p: usize) -> usize {
        debug_assert!(!self.melee(), "a melee has no single opponent");
        1 - p
    }

    /// The pieces of all of `p`'s opponents together, by rank: "enemy" pieces in card texts.
    #[inline]
    pub fn enemy_pieces(&self, p: usize) -> [Bits; 3] {
        let mut e = [0; 3];
        for (q, bb) in self.pieces.iter().enumerate() {
            if q != p {
                e = [e[0] | bb[0], e[1] | bb[1], e[2] | bb[2]];
            }
        }
        e
    }

    /// All the pieces of `p`'s opponents.
    #[inline]
    pub fn enemies(&self, p: usize) -> Bits {
        let [c, h, l] = self.enemy_pieces(p);
        c | h | l
    }

    /// The pieces of every player, by rank.
    #[inline]
    pub fn all_pieces(&self) -> [Bits; 3] {
        let mut e = [0; 3];
        for bb in &self.pieces {
            e = [e[0] | bb[0], e[1] | bb[1], e[2] | bb[2]];
        }
        e
    }

    // ----- queries
    #[inline]
    pub fn occupied(&self) -> Bits {
        let [c, h, l] = self.all_pieces();
        c | h | l
    }

    #[inline]
    pub fn empty(&self) -> Bits {
        board::ARENA & !self.occupied()
    }

    #[inline]
    pub fn mine(&self, player: usize) -> Bits {
        let p = &self.pieces[player];
        p[0] | p[1] | p[2]
    }

    #[inline]
    pub fn upgraded(&self, player: usize) -> Bits {
        let p = &self.pieces[player];
        p[1] | p[2]
    }

    /// (owner, rank) of the piece on `sq`, or None.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = bit(sq);
        for owner in 0..self.seats {
            for rank in 0..3 {
                if self.pieces[owner][rank] & b != 0 {
                    return Some((owner, rank as u8));
                }
            }
        }
        None
    }

    pub fn of_ranks(&self, player: usize, ranks: &[u8]) -> Bits {
        ranks
            .iter()
            .fold(0, |m, &r| m | self.pieces[player][r as usize])
    }

    /// The score that wins: in a melee, the player's lowest colour score.
    pub fn score(&self, player: usize) -> i32 {
        match self.mode {
            Mode::HighForm => self.task_points[player] + self.pieces[player][2].count_ones() as i32,
            Mode::Deathmatch if self.melee() => self
                .opponents(player)
                .map(|c| self.colour_points[player][c])
                .min()
                .unwrap_or(0),
            Mode::Deathmatch => self.dm_points[player],
        }
    }

    /// The player's colour scores, lowest first (a melee's ranking compares them in this order).
    pub fn colour_scores_sorted(&self, player: usize) -> Vec<i32> {
        let mut v: Vec<i32> = self
            .opponents(player)
            .map(|c| self.colour_points[player][c])
            .collect();
        v.sort_unstable();
        v
    }

    /// The score that triggers the end: the best score in a duel, the best colour score in a melee.
    pub fn best_score(&self) -> i32 {
        let seats = 0..self.seats;
        if self.melee() {
            seats
                .flat_map(|p| self.opponents(p).map(move |c| (p, c)))
                .map(|(p, c)| self.colour_points[p][c])
                .max()
                .unwrap_or(0)
        } else {
            seats.map(|p| self.score(p)).max().unwrap_or(0)
        }
    }

    /// The ranks of the pieces of their own on the arena a player may take back for a being of `rank`
    /// when `can_have_piece` is false: a legendary piece for a legendary being, else a common or heroic one.
    pub fn take_back_ranks(rank: u8) -> &'static [u8] {
        if rank == LEGENDARY {
            &[LEGENDARY]
        } else {
            &[COMMON, HEROIC]
        }
    }

    /// Whether the stock holds a piece that can stand as `rank`.
    #[inline]
    pub fn can_have_piece(&self, player: usize, rank: u8) -> bool {
        if rank == LEGENDARY {
            return self.legend_stock[player] > 0
                && self.pieces[player][2].count_ones() < MAX_LEGENDS_IN_ARENA;
        }
        self.tokens[player] > 0
    }

    /// The deck of `player`'s faction, as dealt at the setup.
    pub fn deck_name(&self, player: usize) -> &'static str {
        self.cards.decks[self.decks[player]].name
    }

    // ----- primitive operations (no choices, no checks beyond their own preconditions)
    /// Python's `_put`: a piece from the stock onto `sq`, no event.
    pub fn put(&mut self, player: usize, rank: u8, sq: Square) {
        if rank == LEGENDARY {
            self.legend_stock[player] -= 1;
        } else {
            self.tokens[player] -= 1;
        }
        self.pieces[player][rank as usize] |= bit(sq);
    }

    /// Python's `_lift`: the piece on `sq` back to its owner's stock, no event.
    pub fn lift(&mut self, owner: usize, rank: u8, sq: Square) {
        self.pieces[owner][rank as usize] &= !bit(sq);
        if self.gateway[owner] == Some(sq) {
            self.lose_gateway(owner);
        }
        if rank == LEGENDARY {
            self.legend_stock[owner] += 1;
        } else {
            self.tokens[owner] += 1;
        }
    }

    /// Put a piece of `rank` from the stock on an empty square; false when the stock has none.
    pub fn place(&mut self, player: usize, rank: u8, sq: Square, cause: Id) -> bool {
        if !self.can_have_piece(player, rank) {
            return false;
        }
        self.put(player, rank, sq);
        self.record.add(Event::Place {
            turn: self.turn,
            seat: player as i8,
            cause,
            square: sq,
            rank,
        });
        true
    }

    /// Melee: `player` scores `points` in `colour`'s colour, recorded with `source`.
    pub fn score_in_colour(&mut self, player: usize, colour: usize, source: Id, points: i32) {
        self.colour_points[player][colour] += points;
        self.record
            .colour_points(self.turn, player, colour, source, points);
    }

    /// Remove the piece on `sq` to its owner's stock. Enemy pieces count as destroyed this turn.
    pub fn destroy(&mut self, sq: Square, cause: Id, counts: bool) -> Option<Piece> {
        let (owner, rank) = self.piece_at(sq)?;
        self.lift(owner, rank, sq);
        let counted = counts && owner != self.active;
        if counted {
            // Gate of Oblivion's warp: each one counts once more per play.
            let n = 1 + self.warp_turn.extra_destruction;
            self.counters.destroyed[rank as usize] += n;
            self.counters.destroyed_of[owner][rank as usize] += n;
        }
        self.record.add(Event::Destroy {
            turn: self.turn,
            seat: self.active as i8,
            cause,
            square: sq,
            owner: owner as u8,
            rank,
            counted,
        });
        Some((owner, rank))
    }

    /// Move the piece on `src` to `dst`, destroying what stands there. Returns the destroyed piece.
    pub fn move_piece(&mut self, src: Square, dst: Square, cause: Id) -> Option<Piece> {
        let (owner, rank) = self.piece_at(src).expect("move from an empty square");
        let destroyed = if self.occupied() >> dst & 1 != 0 {
            self.destroy(dst, cause, true)
        } else {
            None
        };
        let b = &mut self.pieces[owner][rank as usize];
        *b = (*b & !bit(src)) | bit(dst);
        if self.gateway[owner] == Some(src) {
            self.gateway[owner] = Some(dst);
        }
        destroyed
    }

    pub fn upgrade(&mut self, sq: Square, cause: Id) -> bool {
        let Some((owner, rank)) = self.piece_at(sq) else {
            return false;
        };
        let b = bit(sq);
        if rank == COMMON {
            self.pieces[owner][0] &= !b;
            self.pieces[owner][1] |= b;
        } else if rank == HEROIC && self.can_have_piece(owner, LEGENDARY) {
            self.lift(owner, HEROIC, sq);
            self.put(owner, LEGENDARY, sq);
        } else {
            return false;
        }
        self.record.add(Event::Upgrade {
            turn: self.turn,
            seat: self.active as i8,
            cause,
            square: sq,
            owner: owner as u8,
            old_rank: rank,
        });
        true
    }

    pub fn downgrade(&mut self, sq: Square, cause: Id) -> bool {
        let Some((owner, rank)) = self.piece_at(sq) else {
            return false;
        };
        let b = bit(sq);
        if rank == HEROIC {
            self.pieces[owner][1] &= !b;
            self.pieces[owner][0] |= b;
        } else if rank == LEGENDARY && self.tokens[owner] > 0 {
            self.lift(owner, LEGENDARY, sq);
            self.put(owner, HEROIC, sq);
        } else {
            return false;
        }
        self.record.add(Event::Downgrade {
            turn: self.turn,
            seat: self.active as i8,
            cause,
            square: sq,
            owner: owner as u8,
            old_rank: rank,
        });
        true
    }

    /// Replace the enemy piece on `sq` by `player`'s piece of the same rank (or `rank`).
    pub fn convert(&mut self, sq: Square, player: usize, cause: Id, rank: Option<u8>) -> bool {
        let Some(piece) = self.piece_at(sq) else {
            return false;
        };
        if piece.0 == player {
            return false;
        }
        let new_rank = rank.unwrap_or(piece.1);
        if !self.can_have_piece(player, new_rank) {
            return false;
        }
        self.destroy(sq, cause, true);
        self.put(player, new_rank, sq);
        self.record.add(Event::Convert {
            turn: self.turn,
            seat: player as i8,
            cause,
            square: sq,
            rank: new_rank,
        });
        true
    }

    // ----- invariants (strict mode)
    /// The team game's own checks: each side's slots and bench hold its two members' cards.
    fn check_team(&self, t: &Teams) -> Result<(), String> {
        for side in 0..2 {
            if t.holder[side] % 2 != side {
                return Err(format!("side {side} holds seat {}'s cards", t.holder[side]));
            }
            let m = &t.bench[side];
            let seat = Teams::teammate(t.holder[side]);
            let total = m.deck.len()
                + m.hand.len()
                + m.discarded.len()
                + m.frozen.is_some() as usize
                + m.hound_return.is_some() as usize;
            if total != self.cards.decks[m.deck_index].beings.len() {
                return Err(format!("seat {seat}: {total} beings accounted for"));
            }
            if m.flare_hand.len() > 1 {
                return Err(format!("seat {seat} holds {} flares", m.flare_hand.len()));
            }
        }
        if t.turn_seat % 2 != self.active && !self.over && self.turn > 0 {
            return Err(format!(
                "seat {} plays side {}'s turn",
                t.turn_seat, self.active
            ));
        }
        Ok(())
    }

    // ----- invariants (strict mode)
    /// The checks of Python's `check_invariants`; Err carries the same message.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut seen: Bits = 0;
        for p in 0..self.seats {
            let bb = &self.pieces[p];
            for (r, &m) in bb.iter().enumerate() {
                if m & !board::ARENA != 0 {
                    return Err(format!("player {p} has a rank-{r} piece off the arena"));
                }
                if m & seen != 0 {
                    return Err("two pieces share a square".into());
                }
                seen |= m;
            }
            // Etherweave: pieces in stasis are neither in the arena nor in the stock.
            let (held_tokens, held_legends) = crate::etherweave::in_stasis(self, p);
            let tokens_on = (bb[0] | bb[1]).count_ones() as i32 + held_tokens;
            if self.tokens[p] < 0 || tokens_on + self.tokens[p] != self.token_total[p] {
                return Err(format!(
                    "player {p}: {tokens_on} tokens on the arena + {} in stock",
                    self.tokens[p]
                ));
            }
            let legends_on = bb[2].count_ones() as i32;
            if self.legend_stock[p] < 0
                || legends_on + held_legends + self.legend_stock[p] != self.legend_total[p]
            {
                return Err(format!(
                    "player {p}: legendary pieces {legends_on} + {}",
                    self.legend_stock[p]
                ));
            }
            if legends_on > MAX_LEGENDS_IN_ARENA as i32 {
                return Err(format!(
                    "player {p} has {legends_on} legendary pieces in the arena"
                ));
            }
            let claimed: i32 = self.claimed[p]
                .iter()
                .map(|&t| self.cards.task(t).points)
                .sum();
            if self.mode == Mode::HighForm
                && self.task_points[p] != self.unnamed_task_points[p] + claimed
            {
                return Err(format!(
                    "player {p}: task points do not match the claimed tasks"
                ));
            }
            let on_arena = if self.mode == Mode::HighForm {
                legends_on
            } else {
                0
            };
            if self.melee() {
                for c in self.opponents(p) {
                    let (points, recorded) =
                        (self.colour_points[p][c], self.record.colour_total(p, c));
                    if points != recorded {
                        return Err(format!(
                            "player {p}: {points} points in colour {c}, {recorded} recorded"
                        ));
                    }
                }
                if self.colour_points[p][p] != 0 || self.dm_points[p] != 0 {
                    return Err(format!(
                        "player {p} has points outside the opponents' colours"
                    ));
                }
            } else if self.record.points_total(p) != self.score(p) - on_arena {
                return Err(format!(
                    "player {p}: score {} does not match the points recorded",
                    self.score(p)
                ));
            }
            let total = self.deck[p].len()
                + self.hand[p].len()
                + self.discarded[p].len()
                + self.frozen[p].is_some() as usize
                + self.hound_return[p].is_some() as usize;
            self.check_nethervoid(p)?;
            if total != self.cards.decks[self.decks[p]].beings.len() {
                return Err(format!("player {p}: {total} beings accounted for"));
            }
            if self.flare_hand[p].len() > 1 {
                return Err(format!(
                    "player {p} holds {} flares",
                    self.flare_hand[p].len()
                ));
            }
        }
        let legends = self.legend_deck.len()
            + self.legend_discard.len()
            + self.legend_hand.iter().map(Vec::len).sum::<usize>();
        if legends != self.cards.legends.len() {
            return Err(format!("{legends} legend cards accounted for"));
        }
        let mut flares = self.flare_deck.len()
            + self.flare_discard.len()
            + self.flare_hand.iter().map(Vec::len).sum::<usize>();
        if let Some(t) = self.teams.as_deref() {
            flares += t.bench.iter().map(|m| m.flare_hand.len()).sum::<usize>();
            self.check_team(t)?;
        }
        if flares != self.cards.flares.len() {
            return Err(format!("{flares} flare cards accounted for"));
        }
        crate::etherweave::check_invariants(self)?;
        crate::everfrost::check(self)
    }
}
