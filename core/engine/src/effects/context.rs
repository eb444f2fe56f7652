//! The context a card effect acts through: the summoned being, its placement,
//! choices and piece operations. Operations keep track of the summoned being (`self_sq`) and the pieces
//! used to summon it (`pattern_sqs`) as pieces move or are destroyed, so later steps can refer to them.

use crate::board::{self, bit, Bits, Square};
use crate::cards::BeingId;
use crate::decisions::{Kind, Opt};
use crate::effects::steps::{MoveKind, Owner};
use crate::game::Game;
use crate::patterns::Placement;
use crate::ranks::COMMON;
use crate::state::{GameState, Piece};

pub struct EffectContext<'g, 's> {
    pub game: &'g mut Game<'s>,
    pub player: usize,
    /// The seats whose pieces are "enemy" pieces for this effect, a bit per seat: every opponent, unless
    /// a melee text names one colour at a time (`for_each_enemy_colour`) or the colours just placed.
    pub enemy_seats: u8,
    /// The id of the card whose effect this is (the cause of its events).
    pub card_id: &'static str,
    /// The summoned being (None for flares).
    pub being: Option<BeingId>,
    /// The summoning square (None for flares).
    pub origin: Option<Square>,
    /// Where the summoned being stands now; None once it is gone.
    pub self_sq: Option<Square>,
    pub placement: Option<Placement>,
    /// The squares of the pieces used to summon the being, lowest first at the start.
    pub pattern_sqs: Vec<Square>,
    /// Whether the previous step did something.
    pub did: bool,
}

impl<'g, 's> EffectContext<'g, 's> {
    pub fn new(
        game: &'g mut Game<'s>,
        player: usize,
        card_id: &'static str,
        being: Option<BeingId>,
        placement: Option<Placement>,
    ) -> EffectContext<'g, 's> {
        let origin = placement.as_ref().map(|p| p.origin);
        let pattern_sqs = placement
            .as_ref()
            .map_or_else(Vec::new, |p| board::bits(p.need_any).collect());
        let enemy_seats = ((1u8 << game.state.seats) - 1) & !(1 << player);
        EffectContext {
            game,
            player,
            enemy_seats,
            card_id,
            being,
            origin,
            self_sq: origin,
            placement,
            pattern_sqs,
            did: false,
        }
    }

    #[inline]
    pub fn state(&self) -> &GameState {
        &self.game.state
    }

    #[inline]
    pub fn state_mut(&mut self) -> &mut GameState {
        &mut self.game.state
    }

    // ----- choices
    /// The option the player picks; None when `optional` and they pass. Nothing to pick: None.
    pub fn choose(
        &mut self,
        kind: Kind,
        mut options: Vec<Opt>,
        optional: bool,
        prompt: &'static str,
    ) -> Option<Opt> {
        if options.is_empty() {
            return None;
        }
        if optional {
            options.push(Opt::None);
        }
        match self
            .game
            .ask(self.player, kind, &options, self.card_id, prompt)
        {
            Opt::None => None,
            o => Some(o),
        }
    }

    /// A square of `mask` (lowest first), as `choose` with square options.
    pub fn choose_square(
        &mut self,
        kind: Kind,
        mask: Bits,
        optional: bool,
        prompt: &'static str,
    ) -> Option<Square> {
        match self.choose(
            kind,
            board::bits(mask).map(Opt::Square).collect(),
            optional,
            prompt,
        )? {
            Opt::Square(sq) => Some(sq),
            o => panic!("expected a square, got {o:?}"),
        }
    }

    /// One of `moves` ((from, to) pairs), as `choose` with move or leap options.
    pub fn choose_move(
        &mut self,
        kind: Kind,
        moves: &[(Square, Square)],
        optional: bool,
        prompt: &'static str,
    ) -> Option<(Square, Square)> {
        match self.choose(
            kind,
            moves.iter().map(|&(a, b)| Opt::Move(a, b)).collect(),
            optional,
            prompt,
        )? {
            Opt::Move(a, b) => Some((a, b)),
            o => panic!("expected a move, got {o:?}"),
        }
    }

    /// One step of Python's `optional_moves` generator: an optional "move" decision among `moves`; after
    /// the move, `(from, to, destroyed piece)`. None when the player stops (or there is no move). Callers
    /// loop `times` times, recomputing `moves` each time, and stop at the first None.
    pub fn optional_move(
        &mut self,
        moves: &[(Square, Square)],
        prompt: &'static str,
    ) -> Option<(Square, Square, Option<Piece>)> {
        let (src, dst) = self.choose_move(Kind::Move, moves, true, prompt)?;
        Some((src, dst, self.move_piece(src, dst)))
    }

    // ----- queries
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.game.state.piece_at(sq)
    }

    pub fn owner_mask(&self, owner: Owner) -> Bits {
        let s = &self.game.state;
        match owner {
            Owner::Mine => s.mine(self.player),
            Owner::Enemy => {
                let [c, h, l] = self.enemy_pieces();
                c | h | l
            }
            Owner::Any => s.occupied(),
        }
    }

    /// The enemy pieces (of `enemy_seats`) by rank.
    pub fn enemy_pieces(&self) -> [Bits; 3] {
        let mut e = [0; 3];
        for (q, bb) in self.game.state.pieces.iter().enumerate() {
            if self.enemy_seats >> q & 1 != 0 {
                e = [e[0] | bb[0], e[1] | bb[1], e[2] | bb[2]];
            }
        }
        e
    }

    /// The opponents, in seat order.
    pub fn opponents(&self) -> Vec<usize> {
        self.game.state.opponents(self.player).collect()
    }

    /// Melee texts that apply "to each enemy colour": run `f` once per opponent, with only that
    /// opponent's pieces as enemy pieces; in a duel, once. Whether any run did something.
    pub fn for_each_enemy_colour(&mut self, f: &mut dyn FnMut(&mut Self) -> bool) -> bool {
        if !self.game.state.melee() {
            return f(self);
        }
        let all = self.enemy_seats;
        let mut done = false;
        for q in self.opponents() {
            self.enemy_seats = all & (1 << q);
            done |= f(self);
        }
        self.enemy_seats = all;
        done
    }

    /// The pieces of `ranks` of the owner (`Any`: both players).
    pub fn rank_mask(&self, ranks: &[u8], owner: Owner) -> Bits {
        self.rank_set_mask(ranks.iter().fold(0, |m, &r| m | 1 << r), owner)
    }

    /// `rank_mask` with the ranks as a bit set (bit r for rank r).
    pub fn rank_set_mask(&self, ranks: u8, owner: Owner) -> Bits {
        let s = &self.game.state;
        let seats: u8 = match owner {
            Owner::Mine => 1 << self.player,
            Owner::Enemy => self.enemy_seats,
            Owner::Any => u8::MAX,
        };
        let mut m = 0;
        for (p, bb) in s.pieces.iter().enumerate() {
            if seats >> p & 1 != 0 {
                for (r, &b) in bb.iter().enumerate() {
                    if ranks >> r & 1 != 0 {
                        m |= b;
                    }
                }
            }
        }
        m
    }

    pub fn marked_squares(&self) -> Bits {
        self.placement.as_ref().map_or(0, |p| p.marked)
    }

    /// Whether the piece on `src` may move or leap onto `dst` with a standard or combat move.
    pub fn can_enter(&self, src: Square, dst: Square, kind: MoveKind) -> bool {
        let s = &self.game.state;
        let Some(target) = s.piece_at(dst) else {
            return true;
        };
        let rank = s.piece_at(src).expect("no piece to move").1;
        target.1 < rank || (kind == MoveKind::Combat && target.1 == rank)
    }

    /// Squares the piece on `src` may move to (adjacent, `squares` None) or leap to (within `squares`).
    pub fn move_targets(
        &self,
        src: Square,
        kind: MoveKind,
        squares: Option<Bits>,
        empty_only: bool,
    ) -> Vec<Square> {
        let mut targets = match squares {
            None => board::ADJACENT[src as usize],
            Some(m) => m & !bit(src),
        };
        if empty_only {
            targets &= self.game.state.empty();
        }
        board::bits(targets)
            .filter(|&d| self.can_enter(src, d, kind))
            .collect()
    }

    /// The next square in `direction` the piece on `src` may move onto, or None.
    pub fn ray_targets(&self, src: Square, direction: u8, kind: MoveKind) -> Option<Square> {
        let ray = board::ray(src, direction);
        let &first = ray.first()?;
        self.can_enter(src, first, kind).then_some(first)
    }

    // ----- operations that keep track of the being and the pattern pieces
    fn follow(&mut self, src: Square, dst: Square) {
        if self.self_sq == Some(dst) {
            self.self_sq = None;
        }
        if let Some(i) = self.pattern_sqs.iter().position(|&s| s == dst) {
            self.pattern_sqs.remove(i);
        }
        if self.self_sq == Some(src) {
            self.self_sq = Some(dst);
        }
        if let Some(i) = self.pattern_sqs.iter().position(|&s| s == src) {
            self.pattern_sqs[i] = dst;
        }
    }

    /// Move or leap the piece on `src` to `dst`; returns the piece destroyed there, if any.
    pub fn move_piece(&mut self, src: Square, dst: Square) -> Option<Piece> {
        let destroyed = self.game.state.move_piece(src, dst, self.card_id);
        self.follow(src, dst);
        destroyed
    }

    pub fn destroy(&mut self, sq: Square, counts: bool) -> Option<Piece> {
        let piece = self.game.state.destroy(sq, self.card_id, counts);
        if piece.is_some() {
            if self.self_sq == Some(sq) {
                self.self_sq = None;
            }
            if let Some(i) = self.pattern_sqs.iter().position(|&s| s == sq) {
                self.pattern_sqs.remove(i);
            }
        }
        piece
    }

    pub fn upgrade(&mut self, sq: Square) -> bool {
        self.game.state.upgrade(sq, self.card_id)
    }

    pub fn downgrade(&mut self, sq: Square) -> bool {
        self.game.state.downgrade(sq, self.card_id)
    }

    /// Place a piece of `rank` for `player` (None: the effect's player).
    pub fn place(&mut self, sq: Square, rank: u8, player: Option<usize>) -> bool {
        let p = player.unwrap_or(self.player);
        self.game.state.place(p, rank, sq, self.card_id)
    }

    /// `place` of a common piece of the effect's player.
    pub fn place_common(&mut self, sq: Square) -> bool {
        self.place(sq, COMMON, None)
    }

    pub fn convert(&mut self, sq: Square, rank: Option<u8>) -> bool {
        self.game.state.convert(sq, self.player, self.card_id, rank)
    }

    pub fn gain_actions(&mut self, n: i32) {
        self.game.state.actions_left += n;
    }

    pub fn is_last_action(&self) -> bool {
        self.game.state.actions_left == 0
    }

    /// Nethervoid: the square of the player's Gateway, if any.
    #[inline]
    pub fn gateway(&self) -> Option<Square> {
        self.game.state.gateway[self.player]
    }
}
