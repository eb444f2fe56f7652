//! Decisions offered to players, the strategy interface, and what a player may see (sim/decisions.py).

use crate::board::{Bits, Square};
use crate::cards::{BeingId, FlareId, TaskId};
use crate::state::{GameState, Mode, Piece, SharedRng};

/// An option of the main "action" decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Place,
    Summon(BeingId),
    Discard,
    Flare,
    End,
    /// Team games: hand the rest of the turn to the teammate (also offered inside an effect).
    Pass,
    /// Etherweave: play this card's warp text from hand (a free play); it becomes the pending being.
    Warp(BeingId),
    /// Everfrost: thaw the frozen effect in play (a free play: no action).
    Thaw,
}

impl Action {
    pub fn kind_str(self) -> &'static str {
        match self {
            Action::Place => "place",
            Action::Summon(_) => "summon",
            Action::Discard => "discard",
            Action::Flare => "flare",
            Action::End => "end",
            Action::Pass => "pass",
            Action::Warp(_) => "warp",
            Action::Thaw => "thaw",
        }
    }
}

/// One option of a decision; Python's option values, small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// Python's None: stop, pass, or do nothing.
    None,
    Action(Action),
    Square(Square),
    /// A placement of a being: index into `CardSet::being(id).placements`.
    Placement(BeingId, u16),
    Being(BeingId),
    Flare(FlareId),
    Task(TaskId),
    /// (from, to) squares of a move or leap.
    Move(Square, Square),
    /// 0..7, see `board::DIRECTIONS`.
    Direction(u8),
    /// A branch label.
    Label(&'static str),
    /// Melee: a seat, or its colour (the opponent a flare is compared against, the colour a point goes
    /// to).
    Seat(u8),
    /// Melee: a piece of a seat's colour on a square (the setup's starting pieces, an enemy piece placed
    /// by an effect).
    SeatSquare(u8, Square),
    /// Melee: an improvised summoning, a placement of a being whose pattern uses one piece of an
    /// opponent, paid with the improvisation against the colour given.
    Improvised(BeingId, u16, u8),
}

/// What a decision's options are; `as_str` is Python's kind string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Action,
    StartSquare,
    Summon,
    Take,
    Place,
    Discard,
    Return,
    Claim,
    Destroy,
    Upgrade,
    Downgrade,
    Convert,
    Move,
    Leap,
    Branch,
    Direction,
    Card,
    Piece,
    Square,
    MeleeStart,
    FlareOpponent,
    LegendColour,
    LeftoverColour,
    EnemyColour,
    /// Etherweave: two pieces exchanging squares (`Opt::Move(a, b)`).
    Swap,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Action => "action",
            Kind::StartSquare => "start-square",
            Kind::Summon => "summon",
            Kind::Take => "take",
            Kind::Place => "place",
            Kind::Discard => "discard",
            Kind::Return => "return",
            Kind::Claim => "claim",
            Kind::Destroy => "destroy",
            Kind::Upgrade => "upgrade",
            Kind::Downgrade => "downgrade",
            Kind::Convert => "convert",
            Kind::Move => "move",
            Kind::Leap => "leap",
            Kind::Branch => "branch",
            Kind::Direction => "direction",
            Kind::Card => "card",
            Kind::Piece => "piece",
            Kind::Square => "square",
            Kind::MeleeStart => "melee-start",
            Kind::FlareOpponent => "flare-opponent",
            Kind::LegendColour => "legend-colour",
            Kind::LeftoverColour => "leftover-colour",
            Kind::EnemyColour => "enemy-colour",
            Kind::Swap => "swap",
        }
    }
}

/// A choice a player must make: pick one of `options`. `card` is the id of the card whose summon or
/// effect asks ("" when none), as in Python.
#[derive(Clone, Copy, Debug)]
pub struct Decision<'a> {
    pub kind: Kind,
    pub player: usize,
    pub options: &'a [Opt],
    pub card: &'static str,
    pub prompt: &'static str,
}

pub trait Strategy {
    /// The name written in the record's config.
    fn name(&self) -> &str;
    /// The index of the chosen option.
    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize;
}

/// A team member's public personal expansion state (`PlayerView::seat_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatState {
    pub frozen: Option<BeingId>,
    pub pending: Option<BeingId>,
    pub stasis: Option<Piece>,
    pub hound_return: Option<BeingId>,
}

/// What one player may know: the arena, stocks, scores, tasks, own hand; never hidden orders.
pub struct PlayerView<'a> {
    state: &'a GameState,
    pub player: usize,
}

impl<'a> PlayerView<'a> {
    pub fn new(state: &'a GameState, player: usize) -> PlayerView<'a> {
        PlayerView { state, player }
    }

    /// The whole state, hidden parts included: only for a strategy's policy inside its own sandbox
    /// (where nothing hidden is left), as the Python sandbox recorder reads `self.state`.
    pub fn sandbox_state(&self) -> &'a GameState {
        self.state
    }

    /// The duel's opponent (a melee has several: `opponents`).
    pub fn opponent(&self) -> usize {
        self.state.opponent(self.player)
    }
    pub fn seats(&self) -> usize {
        self.state.seats
    }
    pub fn opponents(&self) -> impl Iterator<Item = usize> + 'a {
        self.state.opponents(self.player)
    }
    /// Melee: `player`'s points in `colour`.
    pub fn colour_points(&self, player: usize, colour: usize) -> i32 {
        self.state.colour_points[player][colour]
    }
    /// Melee: whether `player` may still improvise a summoning with a piece of `colour`.
    pub fn can_improvise(&self, player: usize, colour: usize) -> bool {
        self.state.melee() && player != colour && !self.state.improvised[player][colour]
    }
    pub fn mode(&self) -> Mode {
        self.state.mode
    }
    pub fn turn(&self) -> u32 {
        self.state.turn
    }
    pub fn actions_left(&self) -> i32 {
        self.state.actions_left
    }
    /// Bitboards of `player`'s common, heroic and legendary pieces.
    pub fn pieces(&self, player: usize) -> [Bits; 3] {
        self.state.pieces[player]
    }
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.state.piece_at(sq)
    }
    pub fn occupied(&self) -> Bits {
        self.state.occupied()
    }
    /// Tokens and legendary pieces in `player`'s stock.
    pub fn stock(&self, player: usize) -> (i32, i32) {
        (self.state.tokens[player], self.state.legend_stock[player])
    }
    pub fn score(&self, player: usize) -> i32 {
        self.state.score(player)
    }
    pub fn hand(&self) -> &'a [BeingId] {
        &self.state.hand[self.player]
    }
    pub fn legend_hand(&self) -> &'a [BeingId] {
        &self.state.legend_hand[self.player]
    }
    pub fn flare_hand(&self) -> &'a [FlareId] {
        &self.state.flare_hand[self.player]
    }
    pub fn hand_sizes(&self, player: usize) -> (usize, usize, usize) {
        let s = self.state;
        (
            s.hand[player].len(),
            s.legend_hand[player].len(),
            s.flare_hand[player].len(),
        )
    }
    pub fn deck_size(&self, player: usize) -> usize {
        self.state.deck[player].len()
    }
    pub fn task_row(&self) -> &'a [TaskId] {
        &self.state.task_row
    }
    pub fn next_task(&self) -> Option<TaskId> {
        self.state.next_task
    }
    pub fn destroyed_this_turn(&self) -> [i32; 3] {
        self.state.counters.destroyed
    }
    pub fn end_triggered(&self) -> bool {
        self.state.end_trigger.is_some()
    }
    pub fn cards(&self) -> &'a crate::cards::CardSet {
        &self.state.cards
    }
    /// Team games: the seat whose turn it is, and the teammate who took control of it, if any.
    pub fn team_turn(&self) -> Option<(usize, Option<usize>)> {
        self.state
            .teams
            .as_deref()
            .map(|t| (t.turn_seat, t.controller))
    }
    /// Nethervoid: the square of `player`'s Gateway, if any (public information).
    pub fn gateway(&self, player: usize) -> Option<Square> {
        self.state.gateway[player]
    }
    /// The seat answering for this view's side (the side itself outside team games).
    pub fn seat(&self) -> usize {
        self.state.seat_of(self.player)
    }

    // ----- the expansions' public state (/work/shared/EXPANSIONS.md, "Public information": the frozen
    // effect, the pending being, the Gateway and a piece in stasis are visible to every player; so is
    // everything else here, which follows from cards played in the open)
    /// Nethervoid: whether `player`'s Gateway waits for its piece, put in stasis, to come back.
    pub fn gateway_suspended(&self, player: usize) -> bool {
        self.state.gateway_suspended[player]
    }
    /// Everfrost: the frozen effect in play in front of `player` (a team game: the side's holder's).
    pub fn frozen(&self, player: usize) -> Option<BeingId> {
        self.state.frozen[player]
    }
    /// Etherweave: `player`'s pending being, a card of his hand whose warp text was played.
    pub fn pending(&self, player: usize) -> Option<BeingId> {
        self.state.pending[player]
    }
    /// Etherweave: the piece (owner, rank) in stasis on `player`'s pending Merchant of Time.
    pub fn stasis(&self, player: usize) -> Option<Piece> {
        self.state.stasis[player]
    }
    /// Nethervoid: the colour whose pieces `player`'s next summoning this turn must use (Possessed
    /// Summoner).
    pub fn possessed(&self, player: usize) -> Option<usize> {
        self.state.possessed[player].map(usize::from)
    }
    /// Everfrost: `player`'s pieces removed from the game (Deathbringer): (tokens, legendary pieces).
    pub fn removed(&self, player: usize) -> (i32, i32) {
        let r = self.state.removed[player];
        (r[0], r[1])
    }
    /// Everfrost: whether `player`'s next turn has 1 action (an opponent's Everfrost Sentinel).
    pub fn action_loss(&self, player: usize) -> bool {
        self.state.action_loss[player] != 0
    }
    /// Nethervoid: the Hell Hound card of `player` waiting to go under his deck at the end of the turn
    /// (it was summoned in the open).
    pub fn hound_return(&self, player: usize) -> Option<BeingId> {
        self.state.hound_return[player]
    }
    /// Etherweave: the active player's effects lasting this turn: empty squares his next summoning may
    /// count as commons (Void Summoner), and extra counts of each enemy piece destroyed (Gate of
    /// Oblivion's warp).
    pub fn turn_warps(&self) -> (u8, i32) {
        let w = &self.state.warp_turn;
        (w.void_squares, w.extra_destruction)
    }
    /// A team game: the public personal state of `seat` (0-3), whether his cards are in his side's slots
    /// or on the bench (None outside team games).
    pub fn seat_state(&self, seat: usize) -> Option<SeatState> {
        let t = self.state.teams.as_deref()?;
        let side = seat % 2;
        Some(if t.holder[side] == seat {
            SeatState {
                frozen: self.state.frozen[side],
                pending: self.state.pending[side],
                stasis: self.state.stasis[side],
                hound_return: self.state.hound_return[side],
            }
        } else {
            let m = &t.bench[side];
            SeatState {
                frozen: m.frozen,
                pending: m.pending,
                stasis: m.stasis,
                hound_return: m.hound_return,
            }
        })
    }

    /// A copy of the game for lookahead that holds nothing this player may not know: what is hidden from
    /// them (the opponent's hands, every deck's order, the next shuffles) is dealt anew from `rng` out of
    /// the cards that could be there. The copy shares `rng` as its random stream, as in Python.
    pub fn sandbox(&self, rng: &SharedRng) -> Box<GameState> {
        let mut c = self.state.clone_for(rng);
        let me = self.player;
        // Etherweave: pending beings are public, they stay in their hands.
        let aside = crate::etherweave::pending_aside(&mut c, me);
        let mut r = rng.borrow_mut();
        deal(&mut r, &mut c.deck[me]);
        if !c.melee() {
            let them = c.opponent(me);
            redeal(&mut r, &mut c.hand[them], &mut c.deck[them]);
            redeal(&mut r, &mut c.legend_hand[them], &mut c.legend_deck);
            redeal(&mut r, &mut c.flare_hand[them], &mut c.flare_deck);
        } else {
            for them in self.state.opponents(me) {
                redeal(&mut r, &mut c.hand[them], &mut c.deck[them]);
            }
            redeal_shared(&mut r, &mut c.legend_hand, me, &mut c.legend_deck);
            redeal_shared(&mut r, &mut c.flare_hand, me, &mut c.flare_deck);
        }
        if let Some(t) = c.teams.as_deref_mut() {
            // Neither the teammate's hand nor the other team's benched member's is seen.
            for m in t.bench.iter_mut() {
                redeal(&mut r, &mut m.hand, &mut m.deck);
            }
            let mut flare_hands: Vec<Vec<FlareId>> =
                t.bench.iter().map(|m| m.flare_hand.clone()).collect();
            redeal_shared(&mut r, &mut flare_hands, usize::MAX, &mut c.flare_deck);
            for (m, hand) in t.bench.iter_mut().zip(flare_hands) {
                m.flare_hand = hand;
            }
        }
        deal(&mut r, &mut c.task_deck);
        drop(r);
        crate::etherweave::pending_back(&mut c, aside);
        c
    }
}

/// The cards in an order drawn from `rng` alone, whatever order they came in (ids sort as `card.index`).
fn deal<T: Ord>(rng: &mut crate::rng::PyRandom, cards: &mut [T]) {
    cards.sort();
    rng.shuffle(cards);
}

/// The hands of every player but `me`, drawn from one shared deck, dealt anew with that deck.
fn redeal_shared<T: Ord + Copy>(
    rng: &mut crate::rng::PyRandom,
    hands: &mut [Vec<T>],
    me: usize,
    deck: &mut Vec<T>,
) {
    let mut pool: Vec<T> = deck.clone();
    for (p, hand) in hands.iter().enumerate() {
        if p != me {
            pool.extend_from_slice(hand);
        }
    }
    deal(rng, &mut pool);
    let mut rest = &pool[..];
    for (p, hand) in hands.iter_mut().enumerate() {
        if p != me {
            let n = hand.len();
            hand.clear();
            hand.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
        }
    }
    deck.clear();
    deck.extend_from_slice(rest);
}

/// A hidden hand and its deck dealt anew from their cards: (hand, deck) of the same sizes.
fn redeal<T: Ord + Copy>(rng: &mut crate::rng::PyRandom, hand: &mut Vec<T>, deck: &mut Vec<T>) {
    let n = hand.len();
    let mut pool: Vec<T> = hand.iter().chain(deck.iter()).copied().collect();
    deal(rng, &mut pool);
    hand.clear();
    hand.extend_from_slice(&pool[..n]);
    deck.clear();
    deck.extend_from_slice(&pool[n..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::testing::{being, sq, table};
    use crate::game::remove_first;
    use crate::state::{shared_rng, EndTrigger};

    /// A melee of Etherweave, Everfrost and Nethervoid with every kind of public expansion state set.
    fn expansion_table() -> crate::game::Game<'static> {
        let (mut game, _) = table(
            &["etherweave", "everfrost", "nethervoid"],
            "etherweave/merchant-of-time",
            "e5=3c e6=2h",
            &[],
        );
        let merchant = being(&game, "etherweave/merchant-of-time");
        let queen = being(&game, "everfrost/ice-queen");
        let hound = being(&game, "nethervoid/hell-hound");
        let s = &mut game.state;
        s.pending[0] = Some(merchant);
        s.stasis[0] = Some((1, 1)); // a heroic piece of seat 1, out of the arena and the stock
        s.tokens[1] -= 1;
        remove_first(&mut s.deck[1], queen);
        s.frozen[1] = Some(queen);
        s.removed[1] = [1, 0];
        s.token_total[1] -= 1;
        s.tokens[1] -= 1;
        s.action_loss[2] = 1 << 1;
        s.gateway[2] = Some(sq("e5"));
        s.possessed[0] = Some(1);
        remove_first(&mut s.deck[2], hound);
        s.hound_return[2] = Some(hound);
        s.warp_turn.void_squares = 1;
        s.check_invariants().expect("invariants");
        game
    }

    #[test]
    fn a_view_shows_every_players_public_expansion_state() {
        let game = expansion_table();
        let s = &game.state;
        for me in 0..3 {
            let v = PlayerView::new(s, me);
            assert_eq!(v.pending(0), s.pending[0]);
            assert_eq!(v.stasis(0), Some((1, 1)));
            assert_eq!(v.frozen(1), Some(being(&game, "everfrost/ice-queen")));
            assert_eq!(v.removed(1), (1, 0));
            assert!(v.action_loss(2) && !v.action_loss(1));
            assert_eq!(v.gateway(2), Some(sq("e5")));
            assert!(!v.gateway_suspended(2));
            assert_eq!(v.possessed(0), Some(1));
            assert_eq!(
                v.hound_return(2),
                Some(being(&game, "nethervoid/hell-hound"))
            );
            assert_eq!(v.turn_warps(), (1, 0));
            assert_eq!(v.seat_state(0), None);
        }
    }

    #[test]
    fn a_view_shows_every_players_stock_hand_and_deck_sizes() {
        let game = expansion_table();
        let s = &game.state;
        for me in 0..3 {
            let v = PlayerView::new(s, me);
            for p in 0..3 {
                assert_eq!(v.stock(p), (s.tokens[p], s.legend_stock[p]));
                let sizes = (
                    s.hand[p].len(),
                    s.legend_hand[p].len(),
                    s.flare_hand[p].len(),
                );
                assert_eq!(v.hand_sizes(p), sizes);
                assert!(s.deck[p].len() > 1, "a deck after the deal");
                assert_eq!(v.deck_size(p), s.deck[p].len());
            }
            assert_eq!(v.team_turn(), None, "not a team game");
        }
    }

    #[test]
    fn a_view_offers_improvising_only_in_a_melee_with_another_colour_not_yet_used() {
        let mut game = expansion_table();
        assert!(game.state.melee());
        let view = PlayerView::new(&game.state, 0);
        assert!(view.can_improvise(0, 1) && view.can_improvise(0, 2) && !view.can_improvise(0, 0));
        game.state.improvised[0][1] = true;
        assert!(!PlayerView::new(&game.state, 0).can_improvise(0, 1));
        let (duel, _) = crate::effects::testing::position(
            Mode::Deathmatch,
            ["imperial", "sylvan"],
            "imperial/swordmaster",
            "",
            &[],
        );
        assert!(
            !PlayerView::new(&duel.state, 0).can_improvise(0, 1),
            "no improvising in a duel"
        );
    }

    #[test]
    fn a_view_says_whether_the_end_is_triggered() {
        let mut game = expansion_table();
        assert!(!PlayerView::new(&game.state, 1).end_triggered());
        game.state.end_trigger = Some(EndTrigger::Deck);
        assert!(PlayerView::new(&game.state, 1).end_triggered());
    }

    #[test]
    fn a_sandbox_keeps_the_public_expansion_state() {
        let game = expansion_table();
        let s = &game.state;
        for me in 0..3 {
            for seed in 0..10 {
                let sb = PlayerView::new(s, me).sandbox(&shared_rng(seed));
                sb.check_invariants().expect("invariants");
                assert_eq!(sb.pending, s.pending);
                assert!(sb.hand[0].contains(&s.pending[0].unwrap()));
                assert_eq!(sb.stasis, s.stasis);
                assert_eq!(sb.frozen, s.frozen);
                assert_eq!(sb.removed, s.removed);
                assert_eq!(sb.action_loss, s.action_loss);
                assert_eq!(sb.gateway, s.gateway);
                assert_eq!(sb.gateway_suspended, s.gateway_suspended);
                assert_eq!(sb.possessed, s.possessed);
                assert_eq!(sb.hound_return, s.hound_return);
                assert_eq!(sb.warp_turn.void_squares, 1);
            }
        }
    }
}
