//! Turn flow: setup, actions, summoning, flares, end of turn, scoring and the end of the game (sim/game.py).

use std::sync::Arc;

use crate::board::{self, bit, Bits};
use crate::cards::{Being, BeingId, CardSet, TaskId};
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::effects::context::EffectContext;
use crate::effects::interpreter::run_steps;
use crate::effects::nethervoid;
use crate::patterns::{rank_or_better, Placement};
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Id;
use crate::record::{DrawDeck, Event, GameRecord};
use crate::state::{
    EndTrigger, GameState, Member, Mode, Piece, Teams, TurnCounters, MAX_SEATS, SIDEWAYS,
    TEAM_SEATS,
};

pub const HAND_BEINGS: usize = 3;
pub const HAND_LEGENDS: usize = 2;

/// Who answers the decisions of each seat.
pub enum Players<'s> {
    /// One strategy per seat.
    Seats(Vec<Box<dyn Strategy + 's>>),
    /// One strategy plays both seats (a sandbox recorder).
    Shared(&'s mut dyn Strategy),
    /// No strategy: for queries on a state (legal placements, options); asking panics.
    Nobody,
}

/// Options of a game beyond its cards, mode, decks, players and seed.
#[derive(Clone, Copy, Debug)]
pub struct GameOptions {
    /// Check the state's invariants after every action and turn (panics with the message on a breach).
    pub strict: bool,
    pub max_turns: u32,
    /// Ask decisions with a single option too (strict tests of the action flow).
    pub ask_all: bool,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            strict: false,
            max_turns: 200,
            ask_all: false,
        }
    }
}

/// One game between 2 to 4 strategies. `play()` runs it to the end and returns the record.
pub struct Game<'s> {
    pub state: Box<GameState>,
    pub players: Players<'s>,
    pub ask_all: bool,
}

impl<'s> Game<'s> {
    pub fn new(
        cards: Arc<CardSet>,
        mode: Mode,
        decks: [&str; 2],
        strategies: [Box<dyn Strategy + 's>; 2],
        seed: u64,
        options: GameOptions,
    ) -> Result<Game<'s>, String> {
        Game::table(cards, mode, &decks, Vec::from(strategies), seed, options)
    }

    /// A game of `decks.len()` players, one strategy each: a duel with 2, a Deathmatch melee with 3-4.
    pub fn table(
        cards: Arc<CardSet>,
        mode: Mode,
        decks: &[&str],
        strategies: Vec<Box<dyn Strategy + 's>>,
        seed: u64,
        options: GameOptions,
    ) -> Result<Game<'s>, String> {
        let seats = decks.len();
        if !(2..=MAX_SEATS).contains(&seats) || strategies.len() != seats {
            return Err(format!(
                "a game needs 2 to {MAX_SEATS} players, one deck and one strategy each; got {seats} \
                 decks and {} strategies",
                strategies.len()
            ));
        }
        if seats > 2 && mode != Mode::Deathmatch {
            return Err(format!(
                "{seats} players play a Deathmatch melee; {} is for 2 players",
                mode.as_str()
            ));
        }
        let d = deck_indices(&cards, decks)?;
        let state = GameState::with_seats(cards, mode, &d, seed, options.max_turns);
        Ok(Game::seated(state, decks, strategies, seed, options))
    }

    /// A new game over `state` (before its setup) with the record's config filled in.
    fn seated(
        mut state: GameState,
        decks: &[&str],
        strategies: Vec<Box<dyn Strategy + 's>>,
        seed: u64,
        options: GameOptions,
    ) -> Game<'s> {
        state.strict = options.strict;
        let teams = state.team_game();
        let config = &mut state.record.config;
        config.mode = state.mode.as_str().to_string();
        config.decks = decks.iter().map(|s| s.to_string()).collect();
        config.strategies = strategies.iter().map(|s| s.name().to_string()).collect();
        config.seed = seed;
        config.teams = teams;
        Game {
            state: Box::new(state),
            players: Players::Seats(strategies),
            ask_all: options.ask_all,
        }
    }

    /// A team game, 2 against 2: `decks` and `strategies` by seat (clockwise), seats 0 and 2 against 1
    /// and 3. The engine plays it as a duel between the two sides (`state::Teams`).
    pub fn teams(
        cards: Arc<CardSet>,
        mode: Mode,
        decks: &[&str],
        strategies: Vec<Box<dyn Strategy + 's>>,
        seed: u64,
        options: GameOptions,
    ) -> Result<Game<'s>, String> {
        if decks.len() != TEAM_SEATS || strategies.len() != TEAM_SEATS {
            return Err(format!(
                "a team game needs {TEAM_SEATS} players, one deck and one strategy each; got {} decks \
                 and {} strategies",
                decks.len(),
                strategies.len()
            ));
        }
        let d = deck_indices(&cards, decks)?;
        let state = team_state(cards, mode, &d, seed, options.max_turns);
        Ok(Game::seated(state, decks, strategies, seed, options))
    }

    /// A game over an existing state, e.g. a strategy's sandbox copy for lookahead; nothing is set up.
    pub fn around(state: impl Into<Box<GameState>>, players: Players<'s>) -> Game<'s> {
        Game {
            state: state.into(),
            players,
            ask_all: false,
        }
    }

    // ----- asking players
    /// The option `player` picks. A single option is taken without asking, unless `ask_all`.
    pub fn ask(
        &mut self,
        player: usize,
        kind: Kind,
        options: &[Opt],
        card: &'static str,
        prompt: &'static str,
    ) -> Opt {
        assert!(
            !options.is_empty(),
            "no options for decision {}",
            kind.as_str()
        );
        if self.state.team_game() {
            return self.ask_in_team(player, kind, options, card, prompt);
        }
        self.choose_for(player, player, kind, options, card, prompt)
    }

    /// Team games: a decision of side `player`. The active player may pass control in the middle of an
    /// effect (an extra `Action::Pass` option); once control has passed, his teammate answers the active
    /// side's decisions, holding his own cards while he chooses.
    fn ask_in_team(
        &mut self,
        player: usize,
        kind: Kind,
        options: &[Opt],
        card: &'static str,
        prompt: &'static str,
    ) -> Opt {
        let t = self.state.teams.as_deref().expect("a team game");
        let (turn_seat, resolving) = (t.turn_seat, t.resolving);
        let active = player == self.state.active && !self.state.over;
        if active && t.controller.is_none() && kind != Kind::Action {
            if let Some(during) = resolving {
                let mut with_pass = options.to_vec();
                with_pass.push(Opt::Action(Action::Pass));
                let choice = self.choose_for(player, turn_seat, kind, &with_pass, card, prompt);
                if choice != Opt::Action(Action::Pass) {
                    return choice;
                }
                self.pass_control(during);
            }
        }
        let controller = self.state.teams.as_deref().and_then(|t| t.controller);
        match controller {
            Some(seat) if active => {
                self.state.hold(seat);
                let choice = self.choose_for(player, seat, kind, options, card, prompt);
                self.state.hold(turn_seat);
                self.state.sync_record_seats();
                choice
            }
            _ => {
                let seat = self.state.seat_of(player);
                self.choose_for(player, seat, kind, options, card, prompt)
            }
        }
    }

    /// Team games: the active player hands the turn to his teammate (`during`: the card whose effect is
    /// being resolved, "" before an action).
    pub fn pass_control(&mut self, during: Id) {
        let s = &mut self.state;
        let t = s.teams.as_deref_mut().expect("a team game");
        let to = Teams::teammate(t.turn_seat);
        s.record.add(Event::PassControl {
            turn: s.turn,
            seat: s.active as i8,
            to: to as u8,
            during,
        });
        t.controller = Some(to);
        s.sync_record_seats();
    }

    /// The option `seat`'s strategy picks for side (or seat) `player`.
    fn choose_for(
        &mut self,
        player: usize,
        seat: usize,
        kind: Kind,
        options: &[Opt],
        card: &'static str,
        prompt: &'static str,
    ) -> Opt {
        if options.len() == 1 && !self.ask_all {
            return options[0];
        }
        let view = PlayerView::new(&self.state, player);
        let decision = Decision {
            kind,
            player,
            options,
            card,
            prompt,
        };
        let idx = match &mut self.players {
            Players::Seats(s) => s[seat].choose(&view, &decision),
            Players::Shared(s) => s.choose(&view, &decision),
            Players::Nobody => panic!("no strategy to ask {} of", kind.as_str()),
        };
        assert!(
            idx < options.len(),
            "strategy chose {idx} for {} with {} options",
            kind.as_str(),
            options.len()
        );
        options[idx]
    }

    fn check(&self) {
        if self.state.strict {
            if let Err(e) = self.state.check_invariants() {
                panic!("invariant broken: {e}");
            }
        }
    }

    // ----- whole game
    pub fn play(&mut self) -> &GameRecord {
        if self.state.turn == 0 {
            self.setup();
        }
        while !self.state.over {
            self.play_turn();
        }
        &self.state.record
    }

    /// The record, leaving an empty one in the game.
    pub fn take_record(&mut self) -> GameRecord {
        std::mem::take(&mut self.state.record)
    }

    pub fn setup(&mut self) {
        if self.state.team_game() {
            self.setup_teams();
            return;
        }
        let cards = Arc::clone(&self.state.cards);
        let s = &mut self.state;
        {
            let mut rng = s.rng.borrow_mut();
            s.first_player = rng.randrange(s.seats);
            s.record.first_player = s.first_player;
            for p in 0..s.seats {
                s.deck[p] = cards.decks[s.decks[p]].beings.clone();
                rng.shuffle(&mut s.deck[p]);
            }
            s.legend_deck = cards.legends.clone();
            rng.shuffle(&mut s.legend_deck);
            s.flare_deck = cards.flares.iter().map(|f| f.index).collect();
            rng.shuffle(&mut s.flare_deck);
        }
        let (first, seats) = (s.first_player, s.seats);
        for p in (0..seats).map(|i| (first + i) % seats) {
            self.draw_beings(p, HAND_BEINGS, true);
            for _ in 0..HAND_LEGENDS {
                self.draw_legend(p, true);
            }
            self.draw_flare(p, true);
        }
        let s = &mut self.state;
        if s.mode == Mode::HighForm {
            self.deal_tasks();
        } else if s.melee() {
            self.melee_start(first);
        } else {
            self.deathmatch_start(first);
        }
        self.state.active = first;
        self.check();
    }

    fn deal_tasks(&mut self) {
        let cards = Arc::clone(&self.state.cards);
        let s = &mut self.state;
        s.task_deck = cards.tasks.iter().map(|t| t.index).collect();
        s.rng.borrow_mut().shuffle(&mut s.task_deck);
        self.deal_task_row();
    }

    /// The team game's setup: a random first seat; every deck shuffled, its bottom 6 cards sideways
    /// (`GameState::upright`); each player draws 3 beings and a flare, and the earlier player of each team
    /// the team's 2 legends; tasks as in the duel, or the Deathmatch starting pieces placed by the last
    /// player in turn order.
    fn setup_teams(&mut self) {
        let cards = Arc::clone(&self.state.cards);
        let s = &mut self.state;
        let first = {
            let mut rng = s.rng.borrow_mut();
            let first = rng.randrange(TEAM_SEATS);
            for side in 0..2 {
                s.deck[side] = cards.decks[s.decks[side]].beings.clone();
                rng.shuffle(&mut s.deck[side]);
                let bench = &mut s.teams.as_deref_mut().expect("teams").bench[side];
                bench.deck = cards.decks[bench.deck_index].beings.clone();
                rng.shuffle(&mut bench.deck);
            }
            s.legend_deck = cards.legends.clone();
            rng.shuffle(&mut s.legend_deck);
            s.flare_deck = cards.flares.iter().map(|f| f.index).collect();
            rng.shuffle(&mut s.flare_deck);
            first
        };
        s.first_player = first % 2;
        s.record.first_player = first;
        for i in 0..TEAM_SEATS {
            let seat = (first + i) % TEAM_SEATS;
            self.state.hold(seat);
            self.draw_beings(seat % 2, HAND_BEINGS, true);
            if i < 2 {
                for _ in 0..HAND_LEGENDS {
                    self.draw_legend(seat % 2, true);
                }
            }
            self.draw_flare(seat % 2, true);
        }
        if self.state.mode == Mode::HighForm {
            self.deal_tasks();
        } else {
            // The loop left the last player in turn order holding his side's cards: he places the pieces.
            self.deathmatch_start(first % 2);
        }
        self.state.hold(first);
        self.state.hold((first + 1) % TEAM_SEATS);
        let s = &mut self.state;
        s.teams.as_deref_mut().expect("teams").turn_seat = first;
        s.active = first % 2;
        self.check();
    }

    /// The duel's Deathmatch starting pieces: the second player chooses the square of his own piece.
    fn deathmatch_start(&mut self, first: usize) {
        {
            let second = 1 - first;
            let starts = board::DEATHMATCH_START;
            let opts = [Opt::Square(starts[0]), Opt::Square(starts[1])];
            let Opt::Square(own) = self.ask(
                second,
                Kind::StartSquare,
                &opts,
                "",
                "square for your piece",
            ) else {
                unreachable!()
            };
            let other = if own == starts[0] {
                starts[1]
            } else {
                starts[0]
            };
            self.state.place(second, COMMON, own, "deathmatch-start");
            self.state.place(first, COMMON, other, "deathmatch-start");
        }
    }

    /// The melee's starting pieces: the last player in turn order puts three commons of different
    /// colours beside the three melee symbols, one on either square of each pair; with 4 players the
    /// second player's colour is left out.
    fn melee_start(&mut self, first: usize) {
        let seats = self.state.seats;
        let placer = (first + seats - 1) % seats;
        let mut colours: Vec<usize> = (0..seats)
            .filter(|&c| seats == 3 || c != (first + 1) % seats)
            .collect();
        for pair in board::MELEE_START {
            let options: Vec<Opt> = colours
                .iter()
                .flat_map(|&c| pair.iter().map(move |&sq| Opt::SeatSquare(c as u8, sq)))
                .collect();
            let Opt::SeatSquare(c, sq) = self.ask(
                placer,
                Kind::MeleeStart,
                &options,
                "",
                "colour and square for a starting piece",
            ) else {
                unreachable!()
            };
            colours.retain(|&x| x != c as usize);
            self.state.place(c as usize, COMMON, sq, "melee-start");
        }
    }

    pub fn deal_task_row(&mut self) {
        let cards = Arc::clone(&self.state.cards);
        let s = &mut self.state;
        let mut set_aside: Vec<TaskId> = Vec::new();
        while s.task_row.len() < 3 {
            let Some(t) = s.task_deck.pop() else { break };
            let task = cards.task(t);
            let third = s.task_row.len() == 2
                && cards.task(s.task_row[0]).category == cards.task(s.task_row[1]).category
                && cards.task(s.task_row[1]).category == task.category;
            if task.advanced || third {
                set_aside.push(t);
            } else {
                s.task_row.push(t);
                s.record.add(Event::TaskReveal {
                    turn: 0,
                    seat: -1,
                    task: task.id,
                });
            }
        }
        s.task_deck.extend(set_aside);
        s.rng.borrow_mut().shuffle(&mut s.task_deck);
        self.reveal_next_task();
    }

    /// Reveal the next task, putting to the bottom any that would be a third of one category.
    fn reveal_next_task(&mut self) {
        let s = &mut self.state;
        let cards = &s.cards;
        s.next_task = None;
        for _ in 0..s.task_deck.len() {
            let t = s.task_deck.pop().expect("task deck");
            let cat = cards.task(t).category;
            if s.task_row
                .iter()
                .filter(|&&x| cards.task(x).category == cat)
                .count()
                >= 2
            {
                s.task_deck.insert(0, t);
                continue;
            }
            s.next_task = Some(t);
            s.record.add(Event::TaskReveal {
                turn: s.turn,
                seat: -1,
                task: cards.task(t).id,
            });
            return;
        }
    }

    // ----- drawing
    fn draw_beings(&mut self, p: usize, n: usize, opening: bool) {
        let s = &mut self.state;
        // A team game's deck trigger is the last card that is not sideways.
        let last = if s.team_game() { SIDEWAYS } else { 0 };
        for _ in 0..n {
            let Some(card) = s.deck[p].pop() else { return };
            s.hand[p].push(card);
            let id = s.cards.being(card).id;
            s.record.add(Event::Draw {
                turn: s.turn,
                seat: p as i8,
                card: id,
                opening,
                deck: DrawDeck::Personal,
            });
            if s.deck[p].len() == last && s.end_trigger.is_none() {
                trigger_end(s, EndTrigger::Deck, p);
            }
        }
    }

    fn draw_legend(&mut self, p: usize, opening: bool) {
        let s = &mut self.state;
        if s.legend_deck.is_empty() {
            std::mem::swap(&mut s.legend_deck, &mut s.legend_discard);
            s.rng.borrow_mut().shuffle(&mut s.legend_deck);
        }
        if let Some(card) = s.legend_deck.pop() {
            s.legend_hand[p].push(card);
            let id = s.cards.being(card).id;
            s.record.add(Event::Draw {
                turn: s.turn,
                seat: p as i8,
                card: id,
                opening,
                deck: DrawDeck::Legend,
            });
        }
    }

    fn draw_flare(&mut self, p: usize, opening: bool) {
        let s = &mut self.state;
        if s.flare_deck.is_empty() {
            std::mem::swap(&mut s.flare_deck, &mut s.flare_discard);
            s.rng.borrow_mut().shuffle(&mut s.flare_deck);
        }
        if let Some(card) = s.flare_deck.pop() {
            s.flare_hand[p].push(card);
            let id = s.cards.flare(card).id;
            s.record.add(Event::Draw {
                turn: s.turn,
                seat: p as i8,
                card: id,
                opening,
                deck: DrawDeck::Flare,
            });
        }
    }
}

fn trigger_end(s: &mut GameState, reason: EndTrigger, player: usize) {
    s.end_trigger = Some(reason);
    s.end_trigger_player = player as i32;
    s.trigger_turn = s.turn;
    s.turns_after_trigger = 0;
}

impl<'s> Game<'s> {
    // ----- a turn
    pub fn play_turn(&mut self) {
        self.begin_turn();
        self.finish_turn();
    }

    /// The start of a turn: its number, the active player's actions, and what lasts a turn set anew.
    pub fn begin_turn(&mut self) {
        let s = &mut self.state;
        s.turn += 1;
        s.actions_left = if s.turn == 1 { 1 } else { 2 };
        s.discarded_this_turn = false;
        s.flare_used_this_turn = false;
        s.in_extra_turn = s.counters.extra_turn;
        s.counters = TurnCounters::default();
        s.warp_turn = Default::default();
        crate::everfrost::start_turn(s);
        s.possessed = [None; MAX_SEATS];
        if let Some(t) = s.teams.as_deref_mut() {
            t.controller = None;
        }
    }

    /// The rest of the turn in progress: the active player's actions, then the end of the turn.
    pub fn finish_turn(&mut self) {
        let p = self.state.active;
        let mut options = Vec::new();
        loop {
            self.action_options_into(p, &mut options);
            if options.is_empty() {
                break;
            }
            let Opt::Action(action) = self.ask(p, Kind::Action, &options, "", "") else {
                unreachable!()
            };
            if action == Action::End {
                break;
            }
            self.apply_action(p, action);
            self.check();
        }
        self.end_turn(p);
        self.check();
    }

    pub fn action_options(&self, p: usize) -> Vec<Opt> {
        let mut out = Vec::new();
        self.action_options_into(p, &mut out);
        out
    }

    /// `action_options` into a reused buffer.
    pub fn action_options_into(&self, p: usize, out: &mut Vec<Opt>) {
        let s = &self.state;
        out.clear();
        if let Some(t) = s.teams.as_deref() {
            if t.controller.is_some() {
                // Control passed: the teammate spends the remaining actions on placing common pieces.
                if s.actions_left > 0 && (s.tokens[p] != 0 || s.pieces[p][0] | s.pieces[p][1] != 0)
                {
                    out.push(Opt::Action(Action::Place));
                }
                return;
            }
        }
        if s.actions_left > 0 {
            if s.tokens[p] != 0 || s.pieces[p][0] | s.pieces[p][1] != 0 {
                out.push(Opt::Action(Action::Place));
            }
            for &card in s.hand[p].iter().chain(s.legend_hand[p].iter()) {
                if self.has_placement(p, card) || self.can_improvise(p, card) {
                    out.push(Opt::Action(Action::Summon(card)));
                }
            }
            // Etherweave: a pending being cannot be discarded.
            if !s.discarded_this_turn && s.hand[p].iter().any(|&c| s.pending[p] != Some(c)) {
                out.push(Opt::Action(Action::Discard));
            }
        }
        if let Some(&flare) = s.flare_hand[p].first() {
            if !s.flare_used_this_turn && self.flare_playable(p, flare) {
                out.push(Opt::Action(Action::Flare));
            }
        }
        if self.can_thaw(p) {
            out.push(Opt::Action(Action::Thaw));
        }
        crate::etherweave::warp_options(self, p, out);
        if s.actions_left == 0 && !out.is_empty() && !out.contains(&Opt::Action(Action::End)) {
            out.push(Opt::Action(Action::End));
        }
        if s.team_game() && s.actions_left > 0 && !out.is_empty() {
            out.push(Opt::Action(Action::Pass));
        }
    }

    pub fn apply_action(&mut self, p: usize, action: Action) {
        if action == Action::Flare {
            self.invoke_flare(p);
            return;
        }
        if action == Action::Pass {
            self.pass_control("");
            return;
        }
        if let Action::Warp(card) = action {
            crate::etherweave::play_warp(self, p, card);
            return;
        }
        if action == Action::Thaw {
            self.thaw(p);
            return;
        }
        self.state.actions_left -= 1;
        match action {
            Action::Place => self.place_action(p),
            Action::Summon(card) => {
                let mut options: Vec<Opt> = self
                    .legal_placements(p, card)
                    .into_iter()
                    .map(|i| Opt::Placement(card, i))
                    .collect();
                options.extend(
                    self.improvised_placements(p, card)
                        .into_iter()
                        .map(|(i, c)| Opt::Improvised(card, i, c)),
                );
                let id = self.state.cards.being(card).id;
                match self.ask(p, Kind::Summon, &options, id, "") {
                    Opt::Placement(_, pl) => self.summon(p, card, pl),
                    Opt::Improvised(_, pl, colour) => {
                        self.summon_improvised(p, card, pl, colour as usize)
                    }
                    _ => unreachable!(),
                }
            }
            Action::Discard => self.discard_action(p),
            _ => panic!("unknown action {action:?}"),
        }
    }

    pub fn place_action(&mut self, p: usize) {
        if self.state.tokens[p] == 0 {
            let own = self.state.pieces[p][0] | self.state.pieces[p][1];
            let sq = self.ask_square(p, Kind::Take, own, "", "piece to take back for placing");
            let s = &mut self.state;
            let rank = if s.pieces[p][0] >> sq & 1 != 0 {
                COMMON
            } else {
                HEROIC
            };
            s.lift(p, rank, sq);
            s.record.add(Event::Take {
                turn: s.turn,
                seat: p as i8,
                cause: "place-action",
                square: sq,
            });
        }
        let sq = self.ask_square(p, Kind::Place, self.state.empty(), "", "");
        self.state.place(p, COMMON, sq, "place-action");
    }

    /// Ask for one of the seats (or colours) of `options`, all `Opt::Seat`.
    fn ask_seat(
        &mut self,
        p: usize,
        kind: Kind,
        options: &[Opt],
        card: &'static str,
        prompt: &'static str,
    ) -> usize {
        let Opt::Seat(c) = self.ask(p, kind, options, card, prompt) else {
            unreachable!("seat options")
        };
        c as usize
    }

    /// Ask for one of the squares of `mask` (lowest first).
    pub fn ask_square(
        &mut self,
        p: usize,
        kind: Kind,
        mask: Bits,
        card: &'static str,
        prompt: &'static str,
    ) -> u8 {
        let options: Vec<Opt> = board::bits(mask).map(Opt::Square).collect();
        let Opt::Square(sq) = self.ask(p, kind, &options, card, prompt) else {
            unreachable!()
        };
        sq
    }

    pub fn discard_action(&mut self, p: usize) {
        let pending = self.state.pending[p];
        let options: Vec<Opt> = self.state.hand[p]
            .iter()
            .filter(|&&c| Some(c) != pending)
            .map(|&c| Opt::Being(c))
            .collect();
        let Opt::Being(card) = self.ask(p, Kind::Discard, &options, "", "") else {
            unreachable!()
        };
        let s = &mut self.state;
        remove_first(&mut s.hand[p], card);
        s.discarded[p].push(card);
        s.discarded_this_turn = true;
        s.record.add(Event::Discard {
            turn: s.turn,
            seat: p as i8,
            card: s.cards.being(card).id,
        });
        loop {
            let s = &self.state;
            let mut rest = vec![Opt::None];
            rest.extend(
                s.hand[p]
                    .iter()
                    .filter(|&&c| Some(c) != s.pending[p])
                    .chain(s.legend_hand[p].iter())
                    .map(|&c| Opt::Being(c)),
            );
            rest.extend(s.flare_hand[p].iter().map(|&f| Opt::Flare(f)));
            if rest.len() == 1 {
                return;
            }
            let choice = self.ask(
                p,
                Kind::Return,
                &rest,
                "",
                "card to return to the bottom of its deck, or None",
            );
            if choice == Opt::None {
                return;
            }
            self.return_card(p, choice);
        }
    }

    /// Return a card (`Opt::Being` or `Opt::Flare`) from the hand to the bottom of its deck.
    pub fn return_card(&mut self, p: usize, card: Opt) {
        let s = &mut self.state;
        let id = match card {
            Opt::Flare(f) => {
                remove_first(&mut s.flare_hand[p], f);
                s.flare_deck.insert(0, f);
                s.cards.flare(f).id
            }
            Opt::Being(b) if s.cards.being(b).is_legend() => {
                remove_first(&mut s.legend_hand[p], b);
                s.legend_deck.insert(0, b);
                s.cards.being(b).id
            }
            Opt::Being(b) => {
                remove_first(&mut s.hand[p], b);
                s.deck[p].insert(0, b);
                s.cards.being(b).id
            }
            other => panic!("cannot return {other:?}"),
        };
        s.record.add(Event::Return {
            turn: s.turn,
            seat: p as i8,
            card: id,
        });
    }

    // ----- summoning
    /// Whether `p` may summon `card` at `pl`: the pattern filled (as `pattern_filled`), no piece of a
    /// higher rank on the summoning square, and a piece of the card's rank to summon it with.
    pub(crate) fn placement_ok(&self, p: usize, card: &Being, pl: &Placement, void: u8) -> bool {
        let at = self.state.piece_at(pl.origin);
        self.pattern_filled(p, pl, void)
            && at.is_none_or(|(_, r)| r <= card.rank)
            && self.piece_obtainable(p, card.rank, pl, at)
    }

    /// Whether `p`'s pieces fill `pl`'s pattern, where up to `void` empty squares needing a piece of any
    /// rank may stay empty (Etherweave's void summoning) and, with War Summoner's permission, one square
    /// may hold an enemy piece of the rank needed.
    pub(crate) fn pattern_filled(&self, p: usize, pl: &Placement, void: u8) -> bool {
        let s = &self.state;
        let mut fails = pl.unfilled(rank_or_better(&s.pieces[p]));
        let voidable = fails & pl.need_any & !pl.need_heroic & !pl.need_legendary & s.empty();
        if voidable.count_ones() <= void as u32 {
            fails &= !voidable;
        }
        fails == 0
            || (s.counters.borrow_enemy_piece
                && fails & (fails - 1) == 0
                && pl.unfilled(rank_or_better(&s.enemy_pieces(p))) & fails == 0)
    }

    fn piece_obtainable(&self, p: usize, rank: u8, pl: &Placement, at: Option<Piece>) -> bool {
        let s = &self.state;
        let from_stock = if rank == LEGENDARY {
            let freed = (at == Some((p, LEGENDARY))) as i32;
            let in_arena = s.pieces[p][2].count_ones() as i32 - freed;
            s.legend_stock[p] + freed > 0 && in_arena < 3
        } else {
            s.tokens[p] > 0 || matches!(at, Some((o, r)) if o == p && r != LEGENDARY)
        };
        from_stock
            || s.of_ranks(p, GameState::take_back_ranks(rank)) & !pl.need_any & !bit(pl.origin) != 0
    }

    /// Placements (indices) whose pattern cells all hold `p`'s pieces of the needed ranks, found with shifts.
    /// With `out` None, stops at the first one; returns whether there is any.
    fn matching_placements(&self, p: usize, card: &Being, mut out: Option<&mut Vec<u16>>) -> bool {
        let s = &self.state;
        let bb = &s.pieces[p];
        // Possessed Summoner: another colour's pieces form the pattern.
        let pb = &s.pieces[s.possessed[p].map_or(p, usize::from)];
        let by_rank = rank_or_better(pb);
        let other = s.enemy_pieces(p);
        let mut blocked: Bits = 0;
        for r in card.rank as usize + 1..3 {
            blocked |= bb[r] | other[r];
        }
        let stock_ok = if card.rank == LEGENDARY {
            s.legend_stock[p] > 0 && bb[2].count_ones() < 3
        } else {
            s.tokens[p] > 0
        };
        for shape in &card.shapes {
            let mut m = shape.origins & !blocked;
            for &(shift, rank) in &shape.cells {
                if m == 0 {
                    break;
                }
                let r = by_rank[rank as usize];
                m &= if shift >= 0 { r >> shift } else { r << -shift };
            }
            for origin in board::bits(m) {
                let i = shape.by_origin[origin as usize];
                let pl = &card.placements[i as usize];
                if stock_ok || self.piece_obtainable(p, card.rank, pl, s.piece_at(origin)) {
                    match out.as_deref_mut() {
                        Some(out) => out.push(i),
                        None => return true,
                    }
                }
            }
        }
        out.is_some_and(|o| !o.is_empty())
    }

    /// Placements when one enemy piece may stand in for one of `p`'s pieces (War Summoner). With `out`
    /// None, stops at the first one; returns whether there is any.
    fn borrowing_placements(&self, p: usize, card: &Being, mut out: Option<&mut Vec<u16>>) -> bool {
        let mut any = false;
        for (i, pl) in card.placements.iter().enumerate() {
            if self.placement_ok(p, card, pl, 0) {
                any = true;
                match out.as_deref_mut() {
                    Some(out) => out.push(i as u16),
                    None => return true,
                }
            }
        }
        any
    }

    /// Melee: the placements of `card` that need one piece of an opponent (two with War Summoner's
    /// borrowing, which covers the other), each with a colour whose improvisation may pay for it:
    /// (placement index, colour).
    pub fn improvised_placements(&self, p: usize, card: BeingId) -> Vec<(u16, u8)> {
        let mut out = Vec::new();
        self.improvising(p, self.state.cards.being(card), Some(&mut out));
        out
    }

    /// Whether `p` may summon `card` by improvising.
    pub fn can_improvise(&self, p: usize, card: BeingId) -> bool {
        self.improvising(p, self.state.cards.being(card), None)
    }

    fn improvising(&self, p: usize, card: &Being, mut out: Option<&mut Vec<(u16, u8)>>) -> bool {
        let s = &self.state;
        let unused: Vec<usize> = s.opponents(p).filter(|&c| !s.improvised[p][c]).collect();
        if !s.melee() || unused.is_empty() || s.possessed[p].is_some() {
            return false;
        }
        let mine = rank_or_better(&s.pieces[p]);
        let enemy = rank_or_better(&s.enemy_pieces(p));
        let borrowed = 1 + s.counters.borrow_enemy_piece as u32;
        if enemy[0] == 0 || mine[0].count_ones() + borrowed < card.pattern.cells.len() as u32 {
            return false;
        }
        let candidates: Vec<u16> = if borrowed == 1 {
            one_enemy_cell(card, mine, enemy)
        } else {
            (0..card.placements.len() as u16).collect()
        };
        let mut any = false;
        for i in candidates {
            let pl = &card.placements[i as usize];
            let fails = pl.unfilled(mine);
            if fails.count_ones() != borrowed || pl.unfilled(enemy) & fails != 0 {
                continue;
            }
            let at = s.piece_at(pl.origin);
            if at.is_some_and(|(_, r)| r > card.rank)
                || !self.piece_obtainable(p, card.rank, pl, at)
            {
                continue;
            }
            let mut payers: Vec<u8> = board::bits(fails)
                .map(|sq| s.piece_at(sq).expect("an enemy piece").0)
                .filter(|c| unused.contains(c))
                .map(|c| c as u8)
                .collect();
            payers.dedup();
            for colour in payers {
                any = true;
                match out.as_deref_mut() {
                    Some(out) => out.push((i, colour)),
                    None => return true,
                }
            }
        }
        any
    }

    pub fn has_placement(&self, p: usize, card: BeingId) -> bool {
        if let Some(list) = crate::etherweave::placements(self, p, card) {
            return !list.is_empty();
        }
        let being = self.state.cards.being(card);
        let possessed = self.state.possessed[p];
        if self.state.counters.borrow_enemy_piece && possessed.is_none() {
            return self.borrowing_placements(p, being, None);
        }
        let pattern_owner = possessed.map_or(p, usize::from);
        if (self.state.mine(pattern_owner).count_ones() as usize) < being.pattern.cells.len() {
            return false;
        }
        self.matching_placements(p, being, None)
    }

    /// The legal placements of `card` for `p`, as indices into the being's placements, in Python's order.
    pub fn legal_placements(&self, p: usize, card: BeingId) -> Vec<u16> {
        if let Some(list) = crate::etherweave::placements(self, p, card) {
            return list;
        }
        let being = self.state.cards.being(card);
        let mut out = Vec::new();
        if self.state.counters.borrow_enemy_piece && self.state.possessed[p].is_none() {
            self.borrowing_placements(p, being, Some(&mut out));
        } else {
            self.matching_placements(p, being, Some(&mut out));
        }
        out
    }

    /// Melee: summon `card` with placement `pl` by improvising, paid with the improvisation against
    /// `colour`.
    pub fn summon_improvised(&mut self, p: usize, card: BeingId, pl: u16, colour: usize) {
        let s = &mut self.state;
        s.improvised[p][colour] = true;
        s.record.add(Event::Improvise {
            turn: s.turn,
            seat: p as i8,
            card: s.cards.being(card).id,
            colour: colour as u8,
        });
        self.summon(p, card, pl);
    }

    /// Summon `card` with its placement number `pl` and resolve its effect.
    pub fn summon(&mut self, p: usize, card: BeingId, pl: u16) {
        let cards = Arc::clone(&self.state.cards);
        let being = cards.being(card);
        // Etherweave: summoning the pending being ends its pending status; Time Traveler's square.
        crate::etherweave::summon_starts(&mut self.state, p, card);
        let anywhere;
        let placement = if being.summon_anywhere {
            anywhere = crate::etherweave::anywhere_placement(self, p, being, pl);
            &anywhere
        } else {
            &being.placements[pl as usize]
        };
        let s = &mut self.state;
        if being.is_legend() {
            remove_first(&mut s.legend_hand[p], card);
        } else {
            remove_first(&mut s.hand[p], card);
        }
        let destroyed_before: i32 = s.counters.destroyed.iter().sum();
        s.counters.borrow_enemy_piece = false;
        s.possessed[p] = None;
        s.record.add(Event::Summon {
            turn: s.turn,
            seat: p as i8,
            card: being.id,
            square: placement.origin,
            orientation: placement.orientation,
        });
        if s.occupied() >> placement.origin & 1 != 0 {
            s.destroy(placement.origin, being.id, true);
        }
        if !s.can_have_piece(p, being.rank) {
            let spare = s.of_ranks(p, GameState::take_back_ranks(being.rank)) & !placement.need_any;
            let sq = self.ask_square(
                p,
                Kind::Take,
                spare,
                being.id,
                "piece to take back for the summon",
            );
            let s = &mut self.state;
            let rank = s.piece_at(sq).expect("piece to take").1;
            s.lift(p, rank, sq);
            s.record.add(Event::Take {
                turn: s.turn,
                seat: p as i8,
                cause: being.id,
                square: sq,
            });
        }
        let s = &mut self.state;
        s.put(p, being.rank, placement.origin);
        s.counters.summoned.push((placement.origin, being.rank));
        nethervoid::gateway_on_summon(s, p, being, placement.origin);
        if being.rank == LEGENDARY && s.melee() {
            let options: Vec<Opt> = s.opponents(p).map(|c| Opt::Seat(c as u8)).collect();
            let c = self.ask_seat(
                p,
                Kind::LegendColour,
                &options,
                being.id,
                "colour to score the legend's point in",
            );
            self.state.score_in_colour(p, c, "legend-summon", 1);
        } else if being.rank == LEGENDARY && s.mode == Mode::Deathmatch {
            s.dm_points[p] += 1;
            s.record.points(s.turn, p, "legend-summon", 1);
        }
        self.set_resolving(Some(being.id));
        let mut ctx = EffectContext::new(self, p, being.id, Some(card), Some(placement.clone()));
        run_steps(&mut ctx, &being.effect);
        self.set_resolving(None);
        let s = &mut self.state;
        if being.is_legend() {
            s.legend_discard.push(card);
        } else if being.frozen.is_some() {
            self.freeze(p, card, being.id);
        } else if s.hound_return[p] != Some(card) {
            s.discarded[p].push(card);
        }
        let s = &mut self.state;
        let destroyed = s.counters.destroyed.iter().sum::<i32>() - destroyed_before;
        s.record.add(Event::EffectDone {
            turn: s.turn,
            seat: p as i8,
            card: being.id,
            destroyed,
        });
    }

    // ----- flares
    /// Which halves `flare` may resolve now in a duel: bit 1 upper, bit 2 lower.
    pub fn flare_halves(&self, p: usize, flare: crate::cards::FlareId) -> u8 {
        self.flare_halves_against(p, self.state.opponent(p), flare)
    }

    /// The opponents `p` may invoke `flare` against (the duel's one, if a half holds).
    pub fn flare_opponents(&self, p: usize, flare: crate::cards::FlareId) -> Vec<usize> {
        self.state
            .opponents(p)
            .filter(|&q| self.flare_halves_against(p, q, flare) != 0)
            .collect()
    }

    /// Whether `p` may invoke `flare` against some opponent.
    pub fn flare_playable(&self, p: usize, flare: crate::cards::FlareId) -> bool {
        self.state
            .opponents(p)
            .any(|q| self.flare_halves_against(p, q, flare) != 0)
    }

    /// Which halves `flare` may resolve compared against opponent `q`: bit 1 upper, bit 2 lower.
    pub fn flare_halves_against(&self, p: usize, q: usize, flare: crate::cards::FlareId) -> u8 {
        let s = &self.state;
        let f = s.cards.flare(flare);
        let (me, them) = (&s.pieces[p], &s.pieces[q]);
        let mut halves = 0;
        if (them[1] | them[2]).count_ones() as i32 - (me[1] | me[2]).count_ones() as i32
            >= f.upper.threshold
        {
            halves |= 1;
        }
        if (them[0] | them[1] | them[2]).count_ones() as i32
            - (me[0] | me[1] | me[2]).count_ones() as i32
            >= f.lower.threshold
        {
            halves |= 2;
        }
        halves
    }

    pub fn invoke_flare(&mut self, p: usize) {
        let cards = Arc::clone(&self.state.cards);
        let flare = self.state.flare_hand[p][0];
        let f = cards.flare(flare);
        let q = if self.state.melee() {
            let options: Vec<Opt> = self
                .flare_opponents(p, flare)
                .into_iter()
                .map(|q| Opt::Seat(q as u8))
                .collect();
            self.ask_seat(
                p,
                Kind::FlareOpponent,
                &options,
                f.id,
                "opponent to compare the flare against",
            )
        } else {
            self.state.opponent(p)
        };
        let halves = self.flare_halves_against(p, q, flare);
        let s = &mut self.state;
        remove_first(&mut s.flare_hand[p], flare);
        s.flare_used_this_turn = true;
        let lead = s.score(p) - s.score(q);
        s.record.add(Event::Flare {
            turn: s.turn,
            seat: p as i8,
            card: f.id,
            upper: halves & 1 > 0,
            lower: halves & 2 > 0,
            lead,
            against: if s.melee() { q as i8 } else { -1 },
        });
        self.set_resolving(Some(f.id));
        for (b, half) in [(1, &f.upper), (2, &f.lower)] {
            if halves & b != 0 {
                let mut ctx = EffectContext::new(self, p, f.id, None, None);
                run_steps(&mut ctx, &half.effect);
            }
        }
        self.set_resolving(None);
        let s = &mut self.state;
        s.flare_discard.push(flare);
        if s.melee() {
            s.score_in_colour(q, p, "flare", 1);
        } else if s.mode == Mode::Deathmatch {
            s.dm_points[q] += 1;
            s.record.points(s.turn, q, "flare", 1);
        }
    }

    /// Team games: the card whose effect is being resolved (control may pass in its middle).
    pub(crate) fn set_resolving(&mut self, card: Option<Id>) {
        if let Some(t) = self.state.teams.as_deref_mut() {
            t.resolving = card;
        }
    }

    // ----- end of turn
    pub fn end_turn(&mut self, p: usize) {
        if let Some(t) = self.state.teams.as_deref_mut() {
            // The active player ends his turn himself, control passed or not.
            t.controller = None;
            let seat = t.turn_seat;
            self.state.hold(seat);
            self.state.sync_record_seats();
        }
        let s = &mut self.state;
        if s.melee() {
            self.score_melee_destruction(p);
        } else if s.mode == Mode::Deathmatch {
            let d = s.counters.destroyed;
            let pts = 2 * d[2] + d[1] + d[0] / 2;
            if pts != 0 {
                s.dm_points[p] += pts;
                s.record.points(s.turn, p, "destruction", pts);
            }
        } else {
            self.claim_task(p);
        }
        nethervoid::return_hound(&mut self.state, p);
        let s = &self.state;
        let n = HAND_BEINGS.saturating_sub(s.hand[p].len()) as i32 + s.counters.extra_draws;
        self.draw_beings(p, n.max(0) as usize, false);
        if self.state.team_game() {
            if self.state.flare_hand[p].is_empty() {
                self.draw_flare(p, false);
            }
            if !self.state.counters.extra_turn {
                // The team's legends go to the teammate, who plays the team's next turn and draws them.
                self.state.swap_members(p);
            }
            self.draw_legends(p);
        } else {
            self.draw_legends(p);
            if self.state.flare_hand[p].is_empty() {
                self.draw_flare(p, false);
            }
        }
        self.check_end(p);
        if !self.state.counters.extra_turn {
            self.state.active = self.state.next_seat(p);
            if let Some(t) = self.state.teams.as_deref_mut() {
                t.turn_seat = (t.turn_seat + 1) % TEAM_SEATS;
            }
        }
    }

    /// Legends up to the hand's 2, plus the turn's extra legend draws.
    fn draw_legends(&mut self, p: usize) {
        let s = &self.state;
        let n = HAND_LEGENDS.saturating_sub(s.legend_hand[p].len()) as i32
            + s.counters.extra_legend_draws;
        for _ in 0..n.max(0) {
            self.draw_legend(p, false);
        }
    }

    /// Melee, end of the turn: the pieces destroyed score in their owners' colours (2 per legendary, 1
    /// per heroic, 1 per pair of commons); if 2 or more colours have a common left over, one point in
    /// one of them, the player's choice.
    fn score_melee_destruction(&mut self, p: usize) {
        let s = &mut self.state;
        let mut leftovers = Vec::new();
        for c in (0..s.seats).filter(|&c| c != p) {
            let d = s.counters.destroyed_of[c];
            let pts = 2 * d[2] + d[1] + d[0] / 2;
            if pts != 0 {
                s.score_in_colour(p, c, "destruction", pts);
            }
            if d[0] % 2 == 1 {
                leftovers.push(Opt::Seat(c as u8));
            }
        }
        if leftovers.len() >= 2 {
            let c = self.ask_seat(
                p,
                Kind::LeftoverColour,
                &leftovers,
                "",
                "colour to score the unpaired commons in",
            );
            self.state.score_in_colour(p, c, "leftover-commons", 1);
        }
    }

    pub fn claimable_tasks(&self, p: usize) -> Vec<TaskId> {
        let s = &self.state;
        s.task_row
            .iter()
            .copied()
            .filter(|&t| (s.cards.task(t).condition)(s, p))
            .collect()
    }

    pub fn claim_task(&mut self, p: usize) {
        let claimable = self.claimable_tasks(p);
        if claimable.is_empty() {
            return;
        }
        let mut options: Vec<Opt> = claimable.into_iter().map(Opt::Task).collect();
        options.push(Opt::None);
        let Opt::Task(task) = self.ask(p, Kind::Claim, &options, "", "task to claim, or None")
        else {
            return;
        };
        let s = &mut self.state;
        let t = s.cards.task(task);
        let (id, points) = (t.id, t.points);
        remove_first(&mut s.task_row, task);
        s.claimed[p].push(task);
        s.task_points[p] += points;
        s.record.add(Event::TaskClaim {
            turn: s.turn,
            seat: p as i8,
            task: id,
            points,
        });
        s.record.points(s.turn, p, id, points);
        self.refill_task_row();
    }

    /// Move next tasks into the row until it holds three, then reveal a new next task.
    fn refill_task_row(&mut self) {
        while self.state.task_row.len() < 3 {
            if self.state.next_task.is_none() {
                self.reveal_next_task();
            }
            let Some(t) = self.state.next_task.take() else {
                return;
            };
            self.state.task_row.push(t);
        }
        self.reveal_next_task();
    }

    /// Trigger the end on score; after the trigger, one more turn for every player (extra turns not
    /// counted).
    fn check_end(&mut self, p: usize) {
        let s = &self.state;
        // Etherweave: a pending being lowers its player's score by 2 for this check.
        let best = crate::etherweave::end_check_score(s);
        if s.end_trigger.is_none() && best >= s.mode.end_score(s.seats) {
            trigger_end(&mut self.state, EndTrigger::Score, p);
        }
        let s = &mut self.state;
        if s.end_trigger.is_some() && s.turn > s.trigger_turn && !s.in_extra_turn {
            s.turns_after_trigger += 1;
        }
        if s.end_trigger.is_some()
            && s.turns_after_trigger >= s.players() as u32
            && !s.counters.extra_turn
        {
            self.finish();
        } else if s.turn >= s.max_turns {
            s.end_trigger = Some(EndTrigger::TurnLimit);
            self.finish();
        }
    }

    fn finish(&mut self) {
        crate::etherweave::apply_causality(&mut self.state);
        let s = &mut self.state;
        s.over = true;
        let scores: Vec<i32> = (0..s.seats).map(|p| s.score(p)).collect();
        let melee = s.melee();
        let r = &mut s.record;
        r.scores = scores.clone();
        r.turns = s.turn;
        r.end_reason = s.end_trigger.map_or("", EndTrigger::as_str);
        if melee {
            self.rank_melee();
        } else if scores[0] != scores[1] {
            r.winner = if scores[0] > scores[1] { 0 } else { 1 };
        } else {
            let up = [s.upgraded(0).count_ones(), s.upgraded(1).count_ones()];
            let all = [s.mine(0).count_ones(), s.mine(1).count_ones()];
            let r = &mut s.record;
            if up[0] != up[1] {
                (r.winner, r.tiebreak) = (if up[0] > up[1] { 0 } else { 1 }, "upgraded");
            } else if all[0] != all[1] {
                (r.winner, r.tiebreak) = (if all[0] > all[1] { 0 } else { 1 }, "pieces");
            } else {
                (r.winner, r.tiebreak) = (-1, "tie");
            }
        }
        let s = &mut self.state;
        let cards = &s.cards;
        for p in 0..s.seats {
            let ids = s.hand[p]
                .iter()
                .chain(s.legend_hand[p].iter())
                .map(|&b| cards.being(b).id)
                .chain(s.flare_hand[p].iter().map(|&f| cards.flare(f).id));
            for id in ids {
                s.record.events.push(Event::Held {
                    turn: s.turn,
                    seat: s.teams.as_deref().map_or(p, |t| t.holder[p]) as i8,
                    card: id,
                });
            }
        }
        if let Some(t) = s.teams.as_deref() {
            for (side, bench) in t.bench.iter().enumerate() {
                let ids = bench
                    .hand
                    .iter()
                    .map(|&b| cards.being(b).id)
                    .chain(bench.flare_hand.iter().map(|&f| cards.flare(f).id));
                for id in ids {
                    s.record.events.push(Event::Held {
                        turn: s.turn,
                        seat: Teams::teammate(t.holder[side]) as i8,
                        card: id,
                    });
                }
            }
        }
    }
}

impl Game<'_> {
    /// Melee ranking: the lowest colour score, then the second-lowest, then (4 players) the highest,
    /// then upgraded pieces, then pieces in the arena; seats equal on all of them share a place.
    fn rank_melee(&mut self) {
        let s = &mut self.state;
        let keys: Vec<Vec<i32>> = (0..s.seats)
            .map(|p| {
                let mut k = s.colour_scores_sorted(p);
                k.push(s.upgraded(p).count_ones() as i32);
                k.push(s.mine(p).count_ones() as i32);
                k
            })
            .collect();
        let r = &mut s.record;
        r.places = keys
            .iter()
            .map(|k| 1 + keys.iter().filter(|o| *o > k).count() as u8)
            .collect();
        r.colour_scores = (0..s.seats)
            .map(|p| {
                (0..s.seats)
                    .map(|c| (c != p).then(|| s.colour_points[p][c]))
                    .collect()
            })
            .collect();
        let best = keys.iter().max().expect("seats");
        let winners: Vec<usize> = (0..s.seats).filter(|&p| keys[p] == *best).collect();
        if winners.len() > 1 {
            (r.winner, r.tiebreak) = (-1, "tie");
            return;
        }
        let w = winners[0];
        let runner_up = (0..s.seats)
            .filter(|&p| p != w)
            .map(|p| &keys[p])
            .max()
            .expect("an opponent");
        let decided = (0..best.len())
            .find(|&i| best[i] != runner_up[i])
            .expect("different keys");
        let colours = s.seats - 1;
        r.winner = w as i32;
        r.tiebreak = match decided {
            0 => "",
            i if i == colours => "upgraded",
            i if i == colours + 1 => "pieces",
            1 => "second-lowest",
            _ => "highest",
        };
    }
}

/// The placements of `card` (indices, ascending) with exactly one pattern cell that `own` pieces (by minimum
/// rank: any, upgraded, legendary) do not fill and `enemy` pieces do, found with shifts as
/// `matching_placements` does: a cell's origins where it is filled, and the cells' origins ANDed but one.
pub(crate) fn one_enemy_cell(card: &Being, own: [Bits; 3], enemy: [Bits; 3]) -> Vec<u16> {
    const MAX_CELLS: usize = 8;
    let shifted = |m: Bits, shift: i32| if shift >= 0 { m >> shift } else { m << -shift };
    let mut out = Vec::new();
    for shape in &card.shapes {
        let n = shape.cells.len();
        assert!(n <= MAX_CELLS, "a pattern of {n} cells");
        let mut own_ok = [0; MAX_CELLS];
        let mut enemy_ok = [0; MAX_CELLS];
        for (c, &(shift, rank)) in shape.cells.iter().enumerate() {
            own_ok[c] = shifted(own[rank as usize], shift);
            enemy_ok[c] = shifted(enemy[rank as usize], shift);
        }
        let mut after = [Bits::MAX; MAX_CELLS + 1]; // after[c]: the cells from c on, all own
        for c in (0..n).rev() {
            after[c] = after[c + 1] & own_ok[c];
        }
        let (mut before, mut found) = (Bits::MAX, 0);
        for c in 0..n {
            found |= before & enemy_ok[c] & !own_ok[c] & after[c + 1];
            before &= own_ok[c];
        }
        out.extend(board::bits(found & shape.origins).map(|o| shape.by_origin[o as usize]));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A team game's state before the setup: `decks` (indices in `cards.decks`) by seat, 4 of them; seats 0 and
/// 1 hold their sides' slots, 2 and 3 wait on the bench.
pub fn team_state(
    cards: Arc<CardSet>,
    mode: Mode,
    decks: &[usize],
    seed: u64,
    max_turns: u32,
) -> GameState {
    let mut state = GameState::with_seats(cards, mode, &decks[..2], seed, max_turns);
    state.teams = Some(Box::new(Teams {
        holder: [0, 1],
        bench: [2, 3].map(|seat| Member {
            deck_index: decks[seat],
            ..Member::default()
        }),
        turn_seat: 0,
        controller: None,
        resolving: None,
    }));
    state.sync_record_seats();
    state
}

/// The indices in `cards.decks` of the decks named.
fn deck_indices(cards: &CardSet, decks: &[&str]) -> Result<Vec<usize>, String> {
    decks.iter().map(|name| cards.deck_index(name)).collect()
}

/// Python's `list.remove(x)`: remove the first equal element.
pub fn remove_first<T: PartialEq>(list: &mut Vec<T>, x: T) {
    let i = list
        .iter()
        .position(|y| *y == x)
        .expect("list.remove(x): x not in list");
    list.remove(i);
}
