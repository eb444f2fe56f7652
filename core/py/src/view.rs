//! `sim._core.PlayerView`: what one player may know of a `CoreGame`, read in place from the core's state
//! (the engine's `PlayerView`), the sandbox included. `sim.decisions.PlayerView` is this class with its
//! Python values (a sandbox as a `sim.state.GameState`, a seat's state as a `SeatState`).

use std::cell::RefCell;
use std::rc::Rc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use tk_engine::board::Bits;
use tk_engine::decisions::PlayerView;
use tk_engine::state::{GameState, Member, Piece, SharedRng, SIDEWAYS, TEAM_SEATS};

use crate::fields::{random_from_py, random_into_py};
use crate::game::CoreGame;

/// A team game: `seat`'s personal cards, from his side's slots or the bench.
pub(crate) fn member(s: &GameState, seat: usize) -> PyResult<Member> {
    let t = s
        .teams
        .as_deref()
        .ok_or_else(|| PyValueError::new_err("not a team game"))?;
    if seat >= TEAM_SEATS {
        return Err(PyValueError::new_err(format!(
            "no seat {seat} in a team game"
        )));
    }
    let side = seat % 2;
    if t.holder[side] != seat {
        return Ok(t.bench[side].clone());
    }
    Ok(Member {
        deck_index: s.decks[side],
        deck: s.deck[side].clone(),
        hand: s.hand[side].clone(),
        flare_hand: s.flare_hand[side].clone(),
        discarded: s.discarded[side].clone(),
        pending: s.pending[side],
        stasis: s.stasis[side],
        frozen: s.frozen[side],
        hound_return: s.hound_return[side],
    })
}

/// What one player may know: the arena, stocks, scores, tasks, own hand; never hidden orders. In a team game
/// `player` is the side (0 = team A, 1 = team B) and `seat` the seat answering, whose cards the side's slots
/// hold while he chooses.
#[pyclass(unsendable, subclass, name = "PlayerView", module = "sim._core")]
pub struct PyPlayerView {
    game: Py<CoreGame>,
    /// The player (a team game: the side) whose view this is.
    #[pyo3(get)]
    pub(crate) player: usize,
    seat: Option<usize>,
}

impl PyPlayerView {
    pub(crate) fn game<'py>(&self, py: Python<'py>) -> PyRef<'py, CoreGame> {
        self.game.bind(py).borrow()
    }

    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&PlayerView) -> T) -> PyResult<T> {
        self.game(py)
            .with_state(|s| f(&PlayerView::new(s, self.player)))
    }

    fn state<T>(&self, py: Python<'_>, f: impl FnOnce(&GameState) -> T) -> PyResult<T> {
        self.game(py).with_state(f)
    }

    fn cards<'py, T: Copy>(
        &self,
        py: Python<'py>,
        ids: impl FnOnce(&PlayerView) -> Vec<T>,
        card: impl Fn(&crate::python_player::Converter, T) -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let game = self.game(py);
        let conv = game.converter();
        let ids = game.with_state(|s| ids(&PlayerView::new(s, self.player)))?;
        PyTuple::new(
            py,
            ids.into_iter()
                .map(|c| card(conv, c))
                .collect::<PyResult<Vec<_>>>()?,
        )
    }

    fn card<'py, T>(
        &self,
        py: Python<'py>,
        id: Option<T>,
        f: impl Fn(&crate::python_player::Converter, T) -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let game = self.game(py);
        id.map(|c| f(game.converter(), c)).transpose()
    }
}

#[pymethods]
impl PyPlayerView {
    #[new]
    #[pyo3(signature = (game, player, seat=None))]
    fn new(game: Py<CoreGame>, player: usize, seat: Option<usize>) -> Self {
        PyPlayerView { game, player, seat }
    }

    /// The game this view reads.
    #[getter(game)]
    fn core_game(&self, py: Python<'_>) -> Py<CoreGame> {
        self.game.clone_ref(py)
    }

    // ----- team games
    /// The seat answering: the view's own seat, or the seat holding the side's cards now.
    #[getter]
    fn seat(&self, py: Python<'_>) -> PyResult<usize> {
        match self.seat {
            Some(seat) => Ok(seat),
            None => self.read(py, |v| v.seat()),
        }
    }

    #[getter]
    fn team_game(&self, py: Python<'_>) -> PyResult<bool> {
        self.state(py, GameState::team_game)
    }

    /// Players at the table (4 in a team game, whose `seats` are the 2 sides).
    #[getter]
    fn players(&self, py: Python<'_>) -> PyResult<usize> {
        self.state(py, GameState::players)
    }

    /// A team game: the seat of this player's teammate (None outside team games).
    #[getter]
    fn teammate(&self, py: Python<'_>) -> PyResult<Option<usize>> {
        let seat = self.seat(py)?;
        Ok(self.team_game(py)?.then_some((seat + 2) % TEAM_SEATS))
    }

    /// The seat whose turn it is (the active side outside team games).
    #[getter]
    fn turn_seat(&self, py: Python<'_>) -> PyResult<usize> {
        self.state(py, |s| s.teams.as_deref().map_or(s.active, |t| t.turn_seat))
    }

    /// A team game: the teammate who took over the turn once control was passed (None before).
    #[getter]
    fn controller(&self, py: Python<'_>) -> PyResult<Option<usize>> {
        self.state(py, |s| s.teams.as_deref().and_then(|t| t.controller))
    }

    #[getter]
    fn control_passed(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.controller(py)?.is_some())
    }

    /// A team game: the upright cards of `seat`'s deck (drawing the last one triggers the end).
    fn upright(&self, py: Python<'_>, seat: usize) -> PyResult<usize> {
        let m = self.state(py, |s| member(s, seat))??;
        Ok(m.deck.len().saturating_sub(SIDEWAYS))
    }

    /// A team game: how many beings and flares `seat` holds.
    fn seat_hand_sizes(&self, py: Python<'_>, seat: usize) -> PyResult<(usize, usize)> {
        let m = self.state(py, |s| member(s, seat))??;
        Ok((m.hand.len(), m.flare_hand.len()))
    }

    // ----- seats and scores
    /// The duel's opponent; a melee has several (`opponents`).
    #[getter]
    fn opponent(&self, py: Python<'_>) -> PyResult<usize> {
        if self.state(py, GameState::melee)? {
            return Err(PyValueError::new_err(
                "a melee has several opponents: use PlayerView.opponents",
            ));
        }
        Ok(1 - self.player)
    }

    #[getter]
    fn seats(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |v| v.seats())
    }

    #[getter]
    fn opponents(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        self.read(py, |v| v.opponents().collect())
    }

    /// Melee: `player`'s points in `colour`.
    fn colour_points(&self, py: Python<'_>, player: usize, colour: usize) -> PyResult<i32> {
        self.read(py, |v| v.colour_points(player, colour))
    }

    /// Melee: whether `player` may still improvise a summoning with a piece of `colour`.
    fn can_improvise(&self, py: Python<'_>, player: usize, colour: usize) -> PyResult<bool> {
        self.read(py, |v| v.can_improvise(player, colour))
    }

    #[getter]
    fn mode(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |v| v.mode().as_str())
    }

    #[getter]
    fn turn(&self, py: Python<'_>) -> PyResult<u32> {
        self.read(py, |v| v.turn())
    }

    #[getter]
    fn actions_left(&self, py: Python<'_>) -> PyResult<i32> {
        self.read(py, |v| v.actions_left())
    }

    /// Bitboards of `player`'s common, heroic and legendary pieces.
    fn pieces(&self, py: Python<'_>, player: usize) -> PyResult<(Bits, Bits, Bits)> {
        self.read(py, |v| {
            let [c, h, l] = v.pieces(player);
            (c, h, l)
        })
    }

    /// (owner, rank) of the piece on `sq`, or None.
    fn piece_at(&self, py: Python<'_>, sq: u8) -> PyResult<Option<Piece>> {
        self.read(py, |v| v.piece_at(sq))
    }

    fn occupied(&self, py: Python<'_>) -> PyResult<Bits> {
        self.read(py, |v| v.occupied())
    }

    /// Tokens and legendary pieces in `player`'s stock.
    fn stock(&self, py: Python<'_>, player: usize) -> PyResult<(i32, i32)> {
        self.read(py, |v| v.stock(player))
    }

    fn score(&self, py: Python<'_>, player: usize) -> PyResult<i32> {
        self.read(py, |v| v.score(player))
    }

    // ----- cards
    #[getter]
    fn hand<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.cards(py, |v| v.hand().to_vec(), |c, b| c.being(py, b.0))
    }

    #[getter]
    fn legend_hand<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.cards(py, |v| v.legend_hand().to_vec(), |c, b| c.being(py, b.0))
    }

    #[getter]
    fn flare_hand<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.cards(py, |v| v.flare_hand().to_vec(), |c, f| c.flare(py, f.0))
    }

    /// How many beings, legends and flares `player` holds.
    fn hand_sizes(&self, py: Python<'_>, player: usize) -> PyResult<(usize, usize, usize)> {
        self.read(py, |v| v.hand_sizes(player))
    }

    fn deck_size(&self, py: Python<'_>, player: usize) -> PyResult<usize> {
        self.read(py, |v| v.deck_size(player))
    }

    #[getter]
    fn task_row<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.cards(py, |v| v.task_row().to_vec(), |c, t| c.task(py, t.0))
    }

    #[getter]
    fn next_task<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let id = self.read(py, |v| v.next_task())?;
        self.card(py, id, |c, t| c.task(py, t.0))
    }

    /// Enemy pieces the active player destroyed this turn, by rank.
    #[getter]
    fn destroyed_this_turn(&self, py: Python<'_>) -> PyResult<(i32, i32, i32)> {
        self.read(py, |v| {
            let [c, h, l] = v.destroyed_this_turn();
            (c, h, l)
        })
    }

    #[getter]
    fn end_triggered(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |v| v.end_triggered())
    }

    // ----- the expansions' public state (../shared/EXPANSIONS.md, "Public information": the frozen effect in
    // play, the pending being, the Gateway and a piece in stasis are visible to every player; so is the rest
    // here, which follows from cards played in the open). In a team game `player` is a side: its slots hold
    // its holder's personal state; `seat_state` gives any seat's, benched or not.
    /// Everfrost: the frozen effect in play in front of `player`.
    fn frozen<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        let id = self.read(py, |v| v.frozen(player))?;
        self.card(py, id, |c, b| c.being(py, b.0))
    }

    /// Nethervoid: the square of `player`'s Gateway (None: none, or suspended).
    fn gateway(&self, py: Python<'_>, player: usize) -> PyResult<Option<u8>> {
        self.read(py, |v| v.gateway(player))
    }

    /// Nethervoid: `player`'s Gateway waits for its piece, put in stasis, to come back.
    fn gateway_suspended(&self, py: Python<'_>, player: usize) -> PyResult<bool> {
        self.read(py, |v| v.gateway_suspended(player))
    }

    /// Etherweave: `player`'s pending being (a card of his hand whose warp text was played).
    fn pending<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        let id = self.read(py, |v| v.pending(player))?;
        self.card(py, id, |c, b| c.being(py, b.0))
    }

    /// Etherweave: (owner, rank) of the piece in stasis on `player`'s pending Merchant of Time.
    fn stasis(&self, py: Python<'_>, player: usize) -> PyResult<Option<Piece>> {
        self.read(py, |v| v.stasis(player))
    }

    /// Nethervoid: the colour whose pieces `player`'s next summoning this turn must use (Possessed
    /// Summoner).
    fn possessed(&self, py: Python<'_>, player: usize) -> PyResult<Option<usize>> {
        self.read(py, |v| v.possessed(player))
    }

    /// Everfrost: `player`'s pieces removed from the game (Deathbringer): (tokens, legendary pieces).
    fn removed(&self, py: Python<'_>, player: usize) -> PyResult<(i32, i32)> {
        self.read(py, |v| v.removed(player))
    }

    /// Everfrost: whether `player`'s next turn has 1 action (an opponent's Everfrost Sentinel).
    fn action_loss(&self, py: Python<'_>, player: usize) -> PyResult<bool> {
        self.read(py, |v| v.action_loss(player))
    }

    /// Nethervoid: `player`'s Hell Hound waiting to go under his deck at the end of the turn.
    fn hound_return<'py>(
        &self,
        py: Python<'py>,
        player: usize,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let id = self.read(py, |v| v.hound_return(player))?;
        self.card(py, id, |c, b| c.being(py, b.0))
    }

    /// Etherweave: empty squares the active player's next summoning may count as commons (Void Summoner).
    #[getter]
    fn void_squares(&self, py: Python<'_>) -> PyResult<u8> {
        self.read(py, |v| v.turn_warps().0)
    }

    /// Etherweave: extra counts of each enemy piece the active player destroys this turn (Gate of
    /// Oblivion's warp).
    #[getter]
    fn extra_destruction(&self, py: Python<'_>) -> PyResult<i32> {
        self.read(py, |v| v.turn_warps().1)
    }

    /// A team game: `seat`'s public personal state (0-3), his cards in his side's slots or benched: (frozen,
    /// pending, stasis, hound_return).
    #[allow(clippy::type_complexity)]
    fn seat_state<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<(
        Option<Bound<'py, PyAny>>,
        Option<Bound<'py, PyAny>>,
        Option<Piece>,
        Option<Bound<'py, PyAny>>,
    )> {
        let Some(st) = self.read(py, |v| v.seat_state(seat))? else {
            return Err(PyValueError::new_err("not a team game"));
        };
        let being = |id| self.card(py, id, |c, b: tk_engine::cards::BeingId| c.being(py, b.0));
        Ok((
            being(st.frozen)?,
            being(st.pending)?,
            st.stasis,
            being(st.hound_return)?,
        ))
    }

    /// A copy of the game for lookahead that holds nothing this player may not know: what is hidden from
    /// them (the opponents' hands, every deck's order, the next shuffles) is dealt anew from `rng` (a
    /// `random.Random`, which advances by the draws) out of the cards that could be there. The copy's
    /// stream goes on from `rng`'s, apart from it.
    fn sandbox(&self, py: Python<'_>, rng: &Bound<'_, PyAny>) -> PyResult<CoreGame> {
        let shared: SharedRng = Rc::new(RefCell::new(random_from_py(rng)?));
        let copy = self.read(py, |v| v.sandbox(&shared))?;
        random_into_py(&shared.borrow(), rng)?;
        Ok(self.game(py).copy_over(py, copy))
    }
}
