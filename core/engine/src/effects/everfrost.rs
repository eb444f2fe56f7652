//! Effect functions of the Everfrost cards that the step vocabulary cannot express (normal and frozen
//! texts; the deck's rules are in `crate::everfrost`).

use super::context::EffectContext;
use super::steps::{MoveKind, Owner, Step};
use super::Registry;
use crate::board::{self, bit, Bits, Square};
use crate::decisions::{Kind, Opt};
use crate::everfrost;
use crate::game::remove_first;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;
use crate::state::Piece;

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("everfrost.royal_reindeer", royal_reindeer));
    table.push(("everfrost.crystal_mirror", crystal_mirror));
    table.push(("everfrost.frostweave", frostweave));
    table.push(("everfrost.winter_whisperer", winter_whisperer));
    table.push(("everfrost.frozen_chest", frozen_chest));
    table.push(("everfrost.sentinel", sentinel));
    table.push(("everfrost.glacier_giant", glacier_giant));
    table.push(("everfrost.polar_bear", polar_bear));
    table.push(("everfrost.war_sled", war_sled));
    table.push(("everfrost.snow_monster", snow_monster));
    table.push(("everfrost.frost_imp", frost_imp));
    table.push(("everfrost.ice_wyvern", ice_wyvern));
    table.push(("everfrost.ice_wyvern_frozen", ice_wyvern_frozen));
    table.push(("everfrost.deathbringer", deathbringer));
    table.push(("everfrost.illusionist", illusionist));
}

/// The piece the summoning itself destroyed on the summoning square (oversummoning), read from the
/// record: the summon event of this card and the destroy event right after it.
fn summon_took(ctx: &EffectContext) -> Option<Piece> {
    let origin = ctx.origin?;
    let events = &ctx.state().record.events;
    let i = events
        .iter()
        .rposition(|e| matches!(e, Event::Summon { card, .. } if *card == ctx.card_id))?;
    match events.get(i + 1) {
        Some(&Event::Destroy {
            cause,
            square,
            owner,
            rank,
            ..
        }) if cause == ctx.card_id && square == origin => Some((owner as usize, rank)),
        _ => None,
    }
}

/// The card's arrows: the directions from the summoning square to each marked square on the arena.
fn indicated_directions(ctx: &EffectContext) -> Vec<u8> {
    let origin = ctx.origin.expect("a being's effect");
    let placement = ctx.placement.as_ref().expect("a being's effect");
    placement
        .marked_squares
        .iter()
        .flatten()
        .map(|&m| board::direction_between(origin, m).expect("marked squares next to the being"))
        .collect()
}

/// How many squares the piece on `src` goes by successive moves in `direction` before it meets one it
/// may not enter.
fn path_len(ctx: &EffectContext, src: Square, direction: u8, kind: MoveKind) -> usize {
    board::ray(src, direction)
        .iter()
        .take_while(|&&sq| ctx.can_enter(src, sq, kind))
        .count()
}

/// The piece on `src` goes `n` successive moves in `direction`.
fn slide(ctx: &mut EffectContext, src: Square, direction: u8, n: usize) {
    let mut cur = src;
    for &sq in &board::ray(src, direction)[..n] {
        ctx.move_piece(cur, sq);
        cur = sq;
    }
}

/// Squares next to any square of `mask`.
fn around(mask: Bits) -> Bits {
    board::bits(mask).fold(0, |m, sq| m | board::ADJACENT[sq as usize])
}

/// May make a combat leap to a square exactly 2 away; becomes heroic unless the summoning or the leap
/// destroyed a piece (of any colour).
fn royal_reindeer(ctx: &mut EffectContext, _step: &Step) -> bool {
    let took = summon_took(ctx).is_some();
    let (mut leapt, mut leap_took) = (false, false);
    if let Some(me) = ctx.self_sq {
        let ring = board::WITHIN[2][me as usize] & !board::WITHIN[1][me as usize];
        let moves: Vec<_> = ctx
            .move_targets(me, MoveKind::Combat, Some(ring), false)
            .into_iter()
            .map(|d| (me, d))
            .collect();
        let prompt = "combat leap to a square exactly 2 away";
        if let Some((a, b)) = ctx.choose_move(Kind::Leap, &moves, true, prompt) {
            leap_took = ctx.move_piece(a, b).is_some();
            leapt = true;
        }
    }
    let upgraded = match ctx.self_sq {
        Some(me) if !took && !leap_took => ctx.upgrade(me),
        _ => false,
    };
    leapt || upgraded
}

/// The square opposite `sq` across the Mirror (a point reflection through the summoning square; for the
/// card's one marked square, beside the Mirror, the mirror image across the Mirror's line).
fn reflected(origin: Square, sq: Square) -> Option<Square> {
    let (ox, oy) = board::coords(origin);
    let (x, y) = board::coords(sq);
    board::offset(origin, ox - x, oy - y)
}

/// May choose 1 heroic or up to 2 common pieces (any colour) on the marked squares: for each, one of your
/// pieces of that rank is placed on the reflected square, if it is empty. The first choice fixes the rank.
fn crystal_mirror(ctx: &mut EffectContext, _step: &Step) -> bool {
    let origin = ctx.origin.expect("a being's effect");
    let mut rank: Option<u8> = None;
    let mut chosen: Bits = 0;
    let mut done = 0;
    while rank.is_none_or(|r| done < if r == COMMON { 2 } else { 1 }) {
        let s = ctx.state();
        let mut options: Bits = 0;
        for sq in board::bits(ctx.marked_squares() & !chosen) {
            let Some((_, r)) = s.piece_at(sq) else {
                continue;
            };
            let fits = rank.map_or(r != LEGENDARY, |want| want == r);
            let target = reflected(origin, sq).filter(|&t| s.empty() & bit(t) != 0);
            if fits && target.is_some() && s.can_have_piece(ctx.player, r) {
                options |= bit(sq);
            }
        }
        let prompt = "piece on a marked square to mirror";
        let Some(sq) = ctx.choose_square(Kind::Piece, options, true, prompt) else {
            break;
        };
        let r = ctx.piece_at(sq).expect("a piece").1;
        rank = Some(r);
        chosen |= bit(sq);
        let target = reflected(origin, sq).expect("a reflected square");
        ctx.place(target, r, None);
        done += 1;
    }
    done > 0
}

/// Frozen text: the next summon this turn may use one enemy piece in its pattern (the War Summoner's
/// permission; the game applies it).
fn frostweave(ctx: &mut EffectContext, _step: &Step) -> bool {
    ctx.state_mut().counters.borrow_enemy_piece = true;
    true
}

/// Frozen text: may destroy one of your common pieces; may discard your flare (not invoked); doing both
/// gains an action.
fn winter_whisperer(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let commons = ctx.state().pieces[p][COMMON as usize];
    let destroyed = ctx
        .choose_square(Kind::Destroy, commons, true, "your common piece to destroy")
        .is_some_and(|sq| ctx.destroy(sq, true).is_some());
    let flares: Vec<Opt> = ctx.state().flare_hand[p]
        .iter()
        .map(|&f| Opt::Flare(f))
        .collect();
    let thrown = match ctx.choose(Kind::Card, flares, true, "flare to discard") {
        Some(Opt::Flare(f)) => {
            let cause = ctx.card_id;
            let s = ctx.state_mut();
            remove_first(&mut s.flare_hand[p], f);
            s.flare_discard.push(f);
            s.record.add(Event::ToDiscard {
                turn: s.turn,
                seat: p as i8,
                card: s.cards.flare(f).id,
                cause,
            });
            true
        }
        _ => false,
    };
    if destroyed && thrown {
        ctx.gain_actions(1);
    }
    destroyed || thrown
}

/// May take a card with a frozen text from your discard pile and make it your frozen effect in play; the
/// one in play, if any, goes to the discard pile.
fn frozen_chest(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let s = ctx.state();
    let options: Vec<Opt> = s.discarded[p]
        .iter()
        .filter(|&&c| s.cards.being(c).frozen.is_some())
        .map(|&c| Opt::Being(c))
        .collect();
    let prompt = "card from your discard pile to put into play as your frozen effect";
    let Some(Opt::Being(card)) = ctx.choose(Kind::Card, options, true, prompt) else {
        return false;
    };
    let cause = ctx.card_id;
    let s = ctx.state_mut();
    remove_first(&mut s.discarded[p], card);
    if let Some(old) = s.frozen[p].take() {
        everfrost::to_discard(s, p, old, cause);
    }
    everfrost::set_frozen(s, p, card, cause);
    true
}

/// If the summoning destroyed an enemy piece, may downgrade the Sentinel: every other player's next turn
/// then has 1 action.
fn sentinel(ctx: &mut EffectContext, _step: &Step) -> bool {
    if summon_took(ctx).is_none_or(|(owner, _)| owner == ctx.player) {
        return false;
    }
    let Some(me) = ctx.self_sq else { return false };
    let prompt = "downgrade the Sentinel: the opponents' next turn has 1 action";
    if ctx
        .choose_square(Kind::Downgrade, bit(me), true, prompt)
        .is_none()
        || !ctx.downgrade(me)
    {
        return false;
    }
    let (p, cause) = (ctx.player, ctx.card_id);
    everfrost::cut_actions(ctx.state_mut(), p, cause);
    true
}

/// May make any number of combat moves along one indicated direction (one decision: the last square);
/// having moved, may go one square further onto a legendary piece, destroying it and the Giant.
fn glacier_giant(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let mut options = Vec::new();
    let mut paths = Vec::new();
    for d in indicated_directions(ctx) {
        for i in 0..path_len(ctx, me, d, MoveKind::Combat) {
            options.push((me, board::ray(me, d)[i]));
            paths.push((d, i + 1));
        }
    }
    let prompt = "last square of the Giant's combat moves";
    let Some(choice) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    let (d, n) = paths[options
        .iter()
        .position(|&o| o == choice)
        .expect("a listed move")];
    slide(ctx, me, d, n);
    let (Some(at), Some(&beyond)) = (ctx.self_sq, board::ray(me, d).get(n)) else {
        return true;
    };
    if ctx.piece_at(beyond).is_some_and(|(_, r)| r == LEGENDARY) {
        let prompt = "legendary piece to crush (the Giant is destroyed too)";
        if ctx
            .choose_square(Kind::Destroy, bit(beyond), true, prompt)
            .is_some()
        {
            ctx.destroy(beyond, true);
            ctx.destroy(at, true);
        }
    }
    true
}

/// May make a combat move; if it destroyed a piece, a standard move; if that destroyed a piece too, a
/// move onto an empty square.
fn polar_bear(ctx: &mut EffectContext, _step: &Step) -> bool {
    let steps = [
        (MoveKind::Combat, false, "combat move with the Polar Bear"),
        (
            MoveKind::Standard,
            false,
            "standard move with the Polar Bear",
        ),
        (
            MoveKind::Standard,
            true,
            "move onto an empty square with the Polar Bear",
        ),
    ];
    let mut done = false;
    for (kind, empty_only, prompt) in steps {
        let Some(me) = ctx.self_sq else { break };
        let moves: Vec<_> = ctx
            .move_targets(me, kind, None, empty_only)
            .into_iter()
            .map(|d| (me, d))
            .collect();
        let Some((_, _, took)) = ctx.optional_move(&moves, prompt) else {
            break;
        };
        done = true;
        if took.is_none() {
            break;
        }
    }
    done
}

/// Up to 3 combat moves: the first along an indicated direction, each later one in a direction at most
/// 45 degrees from the one before.
fn war_sled(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut directions = indicated_directions(ctx);
    let mut moved = false;
    for _ in 0..3 {
        let Some(me) = ctx.self_sq else { break };
        let options: Vec<_> = directions
            .iter()
            .filter_map(|&d| ctx.ray_targets(me, d, MoveKind::Combat))
            .map(|dst| (me, dst))
            .collect();
        let Some((src, dst, _)) = ctx.optional_move(&options, "combat move with the War Sled")
        else {
            break;
        };
        let d = board::direction_between(src, dst).expect("a move to a neighbour square");
        directions = vec![(d + 7) % 8, d, (d + 1) % 8];
        moved = true;
    }
    moved
}

/// Destroy every enemy common piece within distance 2 of the Monster that is next to one of your pieces.
fn snow_monster(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let near_mine = around(ctx.state().mine(ctx.player));
    let targets = board::WITHIN[2][me as usize] & ctx.enemy_pieces()[COMMON as usize] & near_mine;
    for sq in board::bits(targets) {
        ctx.destroy(sq, true);
    }
    targets != 0
}

/// May pick a common piece (any colour) next to the Imp and a direction: it makes as many standard moves
/// in that direction as it can (one decision: the piece and its last square).
fn frost_imp(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let commons = ctx.rank_mask(&[COMMON], Owner::Any) & board::ADJACENT[me as usize];
    let mut options = Vec::new();
    let mut paths = Vec::new();
    for src in board::bits(commons) {
        for d in 0..8 {
            let n = path_len(ctx, src, d, MoveKind::Standard);
            if n > 0 {
                options.push((src, board::ray(src, d)[n - 1]));
                paths.push((d, n));
            }
        }
    }
    let prompt = "adjacent common piece and the square where its slide ends";
    let Some(choice) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    let (d, n) = paths[options
        .iter()
        .position(|&o| o == choice)
        .expect("a listed move")];
    slide(ctx, choice.0, d, n);
    true
}

/// May make a combat leap anywhere; if the leap destroyed a piece, the Wyvern is destroyed too.
fn ice_wyvern(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let moves: Vec<_> = ctx
        .move_targets(me, MoveKind::Combat, Some(board::ARENA), false)
        .into_iter()
        .map(|d| (me, d))
        .collect();
    let Some((a, b)) = ctx.choose_move(Kind::Leap, &moves, true, "combat leap anywhere") else {
        return false;
    };
    if ctx.move_piece(a, b).is_some() {
        if let Some(at) = ctx.self_sq {
            ctx.destroy(at, true);
        }
    }
    true
}

/// Frozen text: place one of your common pieces on an empty square next to one of your heroic pieces
/// (legendary ones do not count).
fn ice_wyvern_frozen(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let s = ctx.state();
    if !s.can_have_piece(p, COMMON) {
        return false;
    }
    let squares = around(s.pieces[p][HEROIC as usize]) & s.empty();
    let prompt = "empty square next to one of your heroic pieces";
    match ctx.choose_square(Kind::Place, squares, false, prompt) {
        Some(sq) => ctx.place_common(sq),
        None => false,
    }
}

/// May destroy an adjacent piece (a heroic one only with another of your pieces next to it, a legendary
/// one with 3), which is removed from the game; an enemy piece counts as two destroyed.
fn deathbringer(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let s = ctx.state();
    let mine = s.mine(ctx.player) & !bit(me);
    let targets = board::bits(board::ADJACENT[me as usize] & s.occupied())
        .filter(|&sq| {
            let helpers = (board::ADJACENT[sq as usize] & mine).count_ones();
            match s.piece_at(sq).expect("a piece").1 {
                COMMON => true,
                HEROIC => helpers >= 1,
                _ => helpers >= 3,
            }
        })
        .fold(0, |m, sq| m | bit(sq));
    let prompt = "adjacent piece to remove from the game";
    let Some(sq) = ctx.choose_square(Kind::Destroy, targets, true, prompt) else {
        return false;
    };
    let Some((owner, rank)) = ctx.destroy(sq, true) else {
        return false;
    };
    let cause = ctx.card_id;
    everfrost::remove_from_game(ctx.state_mut(), sq, owner, rank, cause);
    true
}

/// The Illusionist's own piece goes back to your stock and a common piece of an enemy colour (a melee:
/// the player's choice among those with one in stock) takes its square; nothing happens when no enemy
/// has a common piece in stock.
fn illusionist(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let colours: Vec<Opt> = ctx
        .opponents()
        .into_iter()
        .filter(|&q| ctx.state().can_have_piece(q, COMMON))
        .map(|q| Opt::Seat(q as u8))
        .collect();
    let q = match colours.as_slice() {
        [] => return false,
        [Opt::Seat(q)] => *q as usize,
        _ => match ctx.choose(
            Kind::EnemyColour,
            colours,
            false,
            "enemy colour for the piece",
        ) {
            Some(Opt::Seat(q)) => q as usize,
            _ => unreachable!("seat options"),
        },
    };
    ctx.destroy(me, false);
    ctx.place(me, COMMON, Some(q))
}

#[cfg(test)]
mod tests {
    use crate::cards::BeingId;
    use crate::decisions::{Action, Kind, Opt};
    use crate::effects::testing::{
        arena, being, mv, pattern_at, position, sq, sqs, summon, table, Asked,
    };
    use crate::game::{remove_first, Game};
    use crate::record::Event;
    use crate::state::Mode;

    /// Player 0 summons Everfrost's `card` on e5 (orientation 0) over its pattern plus `pieces`.
    fn play_in(mode: Mode, card: &str, pieces: &str, answers: &[Opt]) -> (Game<'static>, Asked) {
        let id = format!("everfrost/{card}");
        let all = format!("{} {pieces}", pattern_at(&id, "e5"));
        let (mut game, asked) = position(mode, ["everfrost", "imperial"], &id, &all, answers);
        summon(&mut game, "e5", 0);
        (game, asked)
    }

    fn play(card: &str, pieces: &str, answers: &[Opt]) -> (Game<'static>, Asked) {
        play_in(Mode::HighForm, card, pieces, answers)
    }

    /// Player 0 thaws Everfrost's `card` as its frozen effect, with `pieces` on the arena.
    fn thaw(card: &str, pieces: &str, answers: &[Opt]) -> (Game<'static>, Asked) {
        let (mut game, asked) = position(
            Mode::HighForm,
            ["everfrost", "imperial"],
            "everfrost/snow-fox",
            pieces,
            answers,
        );
        let id = being(&game, &format!("everfrost/{card}"));
        remove_first(&mut game.state.deck[0], id);
        game.state.frozen[0] = Some(id);
        assert!(game.action_options(0).contains(&Opt::Action(Action::Thaw)));
        game.apply_action(0, Action::Thaw);
        game.state.check_invariants().expect("invariants");
        assert_eq!(game.state.frozen[0], None);
        assert_eq!(game.state.discarded[0].last(), Some(&id));
        (game, asked)
    }

    fn options(asked: &Asked, i: usize) -> Vec<Opt> {
        asked.borrow()[i].1.clone()
    }

    fn kinds(game: &Game) -> Vec<&'static str> {
        game.state.record.events.iter().map(Event::kind).collect()
    }

    fn frozen(game: &Game) -> Option<BeingId> {
        game.state.frozen[0]
    }

    #[test]
    fn snow_fox_takes_up_to_two_standard_steps() {
        let (game, asked) = play("snow-fox", "e3=2c", &[mv("e5", "e4"), Opt::None]);
        assert!(!options(&asked, 1).contains(&mv("e4", "e3"))); // a common may not step onto a common
        assert!(options(&asked, 1).contains(&Opt::None));
        assert_eq!(arena(&game), "e3=2c e4=1c f5=1c g6=1c");
    }

    #[test]
    fn royal_reindeer_becomes_heroic_when_nothing_was_taken() {
        let (game, asked) = play("royal-reindeer", "", &[mv("e5", "c3")]);
        assert_eq!(asked.borrow()[0].0, Kind::Leap);
        assert!(!options(&asked, 0).contains(&mv("e5", "e4"))); // exactly 2 away
        assert!(arena(&game).contains("c3=1h"));
    }

    #[test]
    fn royal_reindeer_stays_common_after_a_leap_that_took_a_piece() {
        let (game, _) = play("royal-reindeer", "e3=2c", &[mv("e5", "e3")]);
        assert!(arena(&game).contains("e3=1c"));
        assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
    }

    #[test]
    fn royal_reindeer_stays_common_after_a_summon_that_took_a_piece() {
        let (game, _) = play("royal-reindeer", "e5=2c", &[Opt::None]);
        assert!(arena(&game).contains("e5=1c"));
        let (game, _) = play("royal-reindeer", "", &[Opt::None]);
        assert!(
            arena(&game).contains("e5=1h"),
            "declining the leap still upgrades"
        );
    }

    #[test]
    fn crystal_mirror_copies_a_heroic_piece_across_itself() {
        let (game, asked) = play("crystal-mirror", "f5=2h", &sqs(&["f5"]));
        assert_eq!(options(&asked, 0), [Opt::Square(sq("f5")), Opt::None]);
        assert!(arena(&game).contains("d5=1h") && arena(&game).contains("f5=2h"));
        assert_eq!(asked.borrow().len(), 1);
    }

    #[test]
    fn crystal_mirror_needs_an_empty_reflected_square_and_no_legend() {
        let (game, asked) = play("crystal-mirror", "f5=2c d5=2c", &[]);
        assert!(asked.borrow().is_empty());
        assert!(!arena(&game).contains("d5=1") && arena(&game).contains("d5=2c"));
        let (_, asked) = play("crystal-mirror", "f5=2l", &[]);
        assert!(asked.borrow().is_empty());
    }

    /// The Mirror reports whether it copied a piece: a later `if = "previous"` step of a card file reads it.
    #[test]
    fn crystal_mirror_reports_whether_it_copied() {
        use crate::effects::imperial::scene::run;
        let card = "everfrost/crystal-mirror";
        let pieces = format!("e5=1c {} f5=2h", pattern_at(card, "e5"));
        let copied = run(card, "e5", 0, &pieces, "f5", 1);
        assert!(copied.did && copied.arena.contains("d5=1h"));
        let declined = run(card, "e5", 0, &pieces, "N", 1);
        assert!(!declined.did && !declined.arena.contains("d5="));
    }

    #[test]
    fn crystal_grower_upgrades_an_enemy_common_then_freezes() {
        let (game, asked) = play("crystal-grower", "a5=2c b7=2c", &sqs(&["b7"]));
        assert_eq!(options(&asked, 0), sqs(&["a5", "b7"])); // mandatory
        assert!(arena(&game).contains("b7=2h"));
        let grower = being(&game, "everfrost/crystal-grower");
        assert_eq!(frozen(&game), Some(grower));
        assert!(!game.state.discarded[0].contains(&grower));
        assert!(kinds(&game).ends_with(&["freeze", "effect"]));
    }

    #[test]
    fn crystal_grower_upgrades_one_common_of_each_enemy_colour_in_a_melee() {
        let id = "everfrost/crystal-grower";
        let pieces = format!("{} a5=2c b7=3c c1=3c", pattern_at(id, "e5"));
        let answers = [Opt::Square(sq("c1"))];
        let (mut game, asked) = table(
            &["everfrost", "imperial", "sylvan"],
            id,
            &pieces,
            &[&answers],
        );
        summon(&mut game, "e5", 0);
        assert_eq!(
            asked[0].borrow().len(),
            1,
            "seat 2's only common goes without asking"
        );
        assert_eq!(options(&asked[0], 0), sqs(&["c1", "b7"]));
        let a = arena(&game);
        assert!(a.contains("a5=2h") && a.contains("c1=3h") && a.contains("b7=3c"));
    }

    #[test]
    fn crystal_grower_upgrades_one_common_of_one_enemy_colour_among_three() {
        let id = "everfrost/crystal-grower";
        let pieces = format!("{} a5=2c c1=2c", pattern_at(id, "e5"));
        let answers = [Opt::Square(sq("c1"))];
        let decks = ["everfrost", "imperial", "sylvan", "highland"];
        let (mut game, asked) = table(&decks, id, &pieces, &[&answers]);
        summon(&mut game, "e5", 0);
        assert_eq!(
            asked[0].borrow().len(),
            1,
            "one colour has commons: one choice"
        );
        let a = arena(&game);
        assert!(a.contains("c1=2h") && a.contains("a5=2c"), "{a}");
    }

    #[test]
    fn crystal_grower_thawed_upgrades_an_own_common() {
        let (game, asked) = thaw("crystal-grower", "a5=1c b7=2c", &[]);
        assert!(asked.borrow().is_empty()); // the one own common goes without asking
        assert_eq!(arena(&game), "a5=1h b7=2c");
        assert_eq!(game.state.actions_left, 1, "thawing costs no action");
    }

    #[test]
    fn ice_princess_moves_another_common_with_a_combat_move() {
        let (game, asked) = play("ice-princess", "c8=2c", &[mv("d7", "c8")]);
        let first = options(&asked, 0);
        assert!(
            first.contains(&Opt::None)
                && !first
                    .iter()
                    .any(|o| matches!(o, Opt::Move(a, _) if *a == sq("e5")))
        );
        assert!(arena(&game).contains("c8=1c"));
        assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
    }

    #[test]
    fn ice_princess_thawed_must_make_a_standard_move() {
        let (game, asked) = thaw("ice-princess", "a5=1c b5=2c", &[mv("a5", "a4")]);
        let first = options(&asked, 0);
        assert!(!first.contains(&Opt::None) && !first.contains(&mv("a5", "b5")));
        assert_eq!(arena(&game), "a4=1c b5=2c");
    }

    #[test]
    fn ice_queen_moves_another_heroic_piece() {
        let (game, _) = play("ice-queen", "b2=1h b3=2h", &[mv("b2", "b3")]);
        assert!(arena(&game).contains("b3=1h"));
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    }

    #[test]
    fn ice_queen_thawed_moves_a_heroic_piece_not_a_legend() {
        let (game, asked) = thaw("ice-queen", "b2=1h h8=1l b3=2c", &[mv("b2", "b3")]);
        assert!(options(&asked, 0)
            .iter()
            .all(|o| matches!(o, Opt::Move(a, _) if *a == sq("b2"))));
        assert_eq!(arena(&game), "b3=1h h8=1l");
    }

    #[test]
    fn frostweave_summoner_does_nothing_summoned_and_freezes() {
        let (game, asked) = play("frostweave-summoner", "", &[]);
        assert!(asked.borrow().is_empty());
        assert_eq!(
            frozen(&game),
            Some(being(&game, "everfrost/frostweave-summoner"))
        );
        assert!(!game.state.counters.borrow_enemy_piece);
    }

    #[test]
    fn frostweave_summoner_thawed_lets_an_enemy_piece_stand_in_for_one_of_yours() {
        // the Snow Fox's pattern on e5 with an enemy common on g6
        let (mut game, _) = thaw("frostweave-summoner", "f5=1c g6=2c", &[Opt::None]);
        assert!(game.state.counters.borrow_enemy_piece);
        let fox = being(&game, "everfrost/snow-fox");
        assert!(game.has_placement(0, fox));
        let pl = crate::effects::testing::placement(&game, fox, "e5");
        assert!(game.legal_placements(0, fox).contains(&pl));
        game.state.actions_left -= 1;
        game.summon(0, fox, pl);
        assert!(
            !game.state.counters.borrow_enemy_piece,
            "used up by the summon"
        );
        assert!(arena(&game).contains("g6=2c"), "the enemy piece stays");
    }

    #[test]
    fn winter_whisperer_both_parts_gain_an_action() {
        let (mut game, asked) = position(
            Mode::HighForm,
            ["everfrost", "imperial"],
            "everfrost/snow-fox",
            "a5=1c",
            &[Opt::Square(sq("a5")), Opt::Flare(crate::cards::FlareId(0))],
        );
        game.state.flare_deck.retain(|f| f.0 != 0);
        game.state.flare_hand[0] = vec![crate::cards::FlareId(0)];
        let id = being(&game, "everfrost/winter-whisperer");
        remove_first(&mut game.state.deck[0], id);
        game.state.frozen[0] = Some(id);
        game.apply_action(0, Action::Thaw);
        game.state.check_invariants().expect("invariants");
        assert_eq!(options(&asked, 0), [Opt::Square(sq("a5")), Opt::None]);
        assert_eq!(asked.borrow()[1].0, Kind::Card);
        assert_eq!(game.state.actions_left, 2);
        assert!(
            game.state.flare_hand[0].is_empty()
                && game.state.flare_discard == [crate::cards::FlareId(0)]
        );
        assert!(kinds(&game).contains(&"to_discard"));
        assert_eq!(arena(&game), "");
    }

    #[test]
    fn winter_whisperer_one_part_alone_gains_nothing() {
        let (game, _) = thaw(
            "winter-whisperer",
            "a5=1c",
            &[Opt::Square(sq("a5")), Opt::None],
        );
        assert_eq!(game.state.actions_left, 1);
        assert_eq!(arena(&game), "");
    }

    /// The id of Everfrost's `card` in the test card set.
    fn card(name: &str) -> BeingId {
        let (game, _) = position(
            Mode::HighForm,
            ["everfrost", "imperial"],
            "everfrost/snow-fox",
            "",
            &[],
        );
        being(&game, &format!("everfrost/{name}"))
    }

    /// Player 0 summons the Frozen Chest with `discarded` in the discard pile and `in_play` frozen.
    fn chest(
        discarded: &[BeingId],
        in_play: Option<BeingId>,
        answers: &[Opt],
    ) -> (Game<'static>, Asked) {
        let id = "everfrost/frozen-chest";
        let (mut game, asked) = position(
            Mode::HighForm,
            ["everfrost", "imperial"],
            id,
            &pattern_at(id, "e5"),
            answers,
        );
        for &c in discarded.iter().chain(in_play.iter()) {
            remove_first(&mut game.state.deck[0], c);
        }
        game.state.discarded[0] = discarded.to_vec();
        game.state.frozen[0] = in_play;
        summon(&mut game, "e5", 0);
        (game, asked)
    }

    #[test]
    fn frozen_chest_brings_back_a_frozen_card_and_discards_the_one_in_play() {
        let [grower, fox, princess, chest_id] =
            ["crystal-grower", "snow-fox", "ice-princess", "frozen-chest"].map(card);
        let (game, asked) = chest(&[fox, grower], Some(princess), &[Opt::Being(grower)]);
        assert_eq!(options(&asked, 0), [Opt::Being(grower), Opt::None]);
        assert_eq!(frozen(&game), Some(grower));
        assert_eq!(game.state.discarded[0], [fox, princess, chest_id]);
        assert!(kinds(&game).contains(&"to_discard") && kinds(&game).contains(&"freeze"));
    }

    #[test]
    fn frozen_chest_may_decline_and_finds_nothing_without_frozen_cards() {
        let [grower, fox] = ["crystal-grower", "snow-fox"].map(card);
        let (game, _) = chest(&[grower], None, &[Opt::None]);
        assert_eq!(frozen(&game), None);
        let (game, asked) = chest(&[fox], None, &[]);
        assert!(asked.borrow().is_empty() && frozen(&game).is_none());
    }

    #[test]
    fn everfrost_sentinel_may_downgrade_after_taking_an_enemy_piece() {
        let (game, asked) = play_in(
            Mode::Deathmatch,
            "everfrost-sentinel",
            "e5=2c",
            &sqs(&["e5"]),
        );
        assert_eq!(options(&asked, 0), [Opt::Square(sq("e5")), Opt::None]);
        assert!(arena(&game).contains("e5=1c"));
        assert_eq!(game.state.action_loss[1], 1);
        assert!(kinds(&game).contains(&"action_loss"));
    }

    #[test]
    fn everfrost_sentinel_asks_nothing_without_an_enemy_piece_taken_by_the_summon() {
        let (game, asked) = play("everfrost-sentinel", "", &[]);
        assert!(asked.borrow().is_empty() && game.state.action_loss == [0; 4]);
        let (game, asked) = play("everfrost-sentinel", "e5=1c", &[]);
        assert!(asked.borrow().is_empty() && game.state.action_loss == [0; 4]);
        assert!(arena(&game).contains("e5=1h"));
    }

    #[test]
    fn glacier_giant_slides_along_a_marked_direction_and_crushes_a_legend() {
        let pieces = "f6=2c g7=2h h8=2l";
        let (game, asked) = play(
            "glacier-giant",
            pieces,
            &[mv("e5", "g7"), Opt::Square(sq("h8"))],
        );
        let first = options(&asked, 0);
        assert!(first.contains(&mv("e5", "d6")) && first.contains(&mv("e5", "b8")));
        assert!(first.contains(&mv("e5", "f6")) && !first.contains(&mv("e5", "h8")));
        assert!(
            !first.contains(&mv("e5", "e4")),
            "only the marked directions"
        );
        assert_eq!(options(&asked, 1), [Opt::Square(sq("h8")), Opt::None]);
        assert!(!arena(&game).contains("g7") && !arena(&game).contains("h8"));
        assert_eq!(game.state.counters.destroyed, [1, 1, 1]);
    }

    #[test]
    fn glacier_giant_crushes_nothing_without_moving() {
        let (game, asked) = play("glacier-giant", "f6=2l", &[mv("e5", "d6")]);
        assert_eq!(asked.borrow().len(), 1);
        assert!(arena(&game).contains("d6=1h") && arena(&game).contains("f6=2l"));
    }

    #[test]
    fn polar_bear_chains_moves_while_they_take_pieces() {
        let (game, _) = play(
            "polar-bear",
            "e4=2h e3=2c",
            &[mv("e5", "e4"), mv("e4", "e3"), mv("e3", "e2")],
        );
        assert!(arena(&game).contains("e2=1h"));
        assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
        let (game, asked) = play("polar-bear", "e3=2c", &[mv("e5", "e4")]);
        assert_eq!(
            asked.borrow().len(),
            1,
            "a move that takes nothing ends the chain"
        );
        assert!(arena(&game).contains("e4=1h"));
    }

    /// The Sled reports whether it moved: a later `if = "previous"` step of a card file reads it.
    #[test]
    fn war_sled_reports_whether_it_moved() {
        use crate::effects::imperial::scene::run;
        let card = "everfrost/war-sled";
        let pieces = format!("e5=1h {}", pattern_at(card, "e5"));
        let moved = run(card, "e5", 0, &pieces, "e5-f5 N", 1);
        assert!(moved.did && moved.arena.contains("f5=1h"));
        let stayed = run(card, "e5", 0, &pieces, "N", 1);
        assert!(!stayed.did && stayed.arena.contains("e5=1h"));
    }

    #[test]
    fn war_sled_turns_at_most_45_degrees_each_move() {
        let (game, asked) = play(
            "war-sled",
            "",
            &[mv("e5", "f5"), mv("f5", "g4"), mv("g4", "g3")],
        );
        assert_eq!(
            options(&asked, 0),
            [mv("e5", "f4"), mv("e5", "f5"), mv("e5", "f6"), Opt::None]
        );
        assert_eq!(
            options(&asked, 1),
            [mv("f5", "g4"), mv("f5", "g5"), mv("f5", "g6"), Opt::None]
        );
        assert_eq!(
            options(&asked, 2),
            [mv("g4", "g3"), mv("g4", "h3"), mv("g4", "h4"), Opt::None]
        );
        assert!(arena(&game).contains("g3=1h"));
    }

    #[test]
    fn snow_monster_destroys_enemy_commons_near_it_that_touch_your_pieces() {
        let pieces = "f2=1c e3=2c c3=2c e7=2c e4=2h h5=2c";
        let (game, asked) = play("snow-monster", pieces, &[]);
        assert!(asked.borrow().is_empty());
        let a = arena(&game);
        assert!(!a.contains("e3=") && !a.contains("e7="));
        assert!(a.contains("c3=2c") && a.contains("e4=2h") && a.contains("h5=2c"));
        assert_eq!(game.state.counters.destroyed, [2, 0, 0]);
    }

    #[test]
    fn frost_imp_slides_an_adjacent_common_as_far_as_it_goes() {
        let (game, asked) = play("frost-imp", "f4=2c", &[mv("f4", "h2")]);
        let first = options(&asked, 0);
        assert!(first.contains(&mv("f4", "h2")) && !first.contains(&mv("f4", "g3")));
        assert!(first.contains(&Opt::None));
        assert!(arena(&game).contains("h2=2c"));
    }

    #[test]
    fn ice_wyvern_dies_with_the_piece_it_lands_on() {
        let (game, _) = play("ice-wyvern", "a5=2h", &[mv("e5", "a5")]);
        assert!(!arena(&game).contains("a5") && !arena(&game).contains("e5"));
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
        let (game, _) = play("ice-wyvern", "", &[mv("e5", "a5")]);
        assert!(arena(&game).contains("a5=1h"));
    }

    #[test]
    fn ice_wyvern_thawed_places_next_to_a_heroic_piece_not_a_legend() {
        let (game, asked) = thaw("ice-wyvern", "a5=1h h8=1l a4=2c", &sqs(&["b5"]));
        assert_eq!(options(&asked, 0), sqs(&["b4", "b5", "a6", "b6"]));
        assert!(arena(&game).contains("b5=1c"));
    }

    #[test]
    fn deathbringer_removes_an_enemy_heroic_for_good_and_it_counts_twice() {
        let pieces = "f5=2h g6=1c f4=2l e4=2c";
        let (mut game, asked) = play_in(Mode::Deathmatch, "deathbringer", pieces, &sqs(&["f5"]));
        assert_eq!(
            options(&asked, 0),
            [
                Opt::Square(sq("e4")),
                Opt::Square(sq("d5")),
                Opt::Square(sq("f5")),
                Opt::None
            ]
        );
        let s = &game.state;
        assert_eq!((s.removed[1], s.token_total[1]), ([1, 0], 15));
        assert_eq!(s.counters.destroyed, [0, 2, 0]);
        assert_eq!(
            s.counters.destroyed_of[1],
            [0, 2, 0],
            "by the piece's owner"
        );
        assert!(kinds(&game).contains(&"remove"));
        game.end_turn(0);
        assert_eq!(game.state.dm_points[0], 2, "a heroic piece counted twice");
        game.state.check_invariants().expect("invariants");
    }

    #[test]
    fn deathbringer_takes_a_legend_with_three_helpers_and_may_remove_your_own() {
        let pieces = "f4=2l e3=1c g3=1c g4=1c";
        let (game, asked) = play("deathbringer", pieces, &sqs(&["f4"]));
        assert!(options(&asked, 0).contains(&Opt::Square(sq("f4"))));
        assert_eq!(
            (game.state.removed[1], game.state.legend_total[1]),
            ([0, 1], 2)
        );
        let (game, _) = play("deathbringer", "", &sqs(&["d5"]));
        assert_eq!(game.state.removed[0], [1, 0]);
        assert_eq!(
            game.state.counters.destroyed,
            [0, 0, 0],
            "your own piece scores nothing"
        );
    }

    #[test]
    fn illusionist_leaves_an_enemy_common_in_its_place_then_freezes() {
        let (game, asked) = play("frostweave-illusionist", "", &[]);
        assert!(asked.borrow().is_empty());
        assert!(arena(&game).contains("e5=2c"));
        assert_eq!(game.state.counters.destroyed, [0, 0, 0]);
        assert_eq!(
            frozen(&game),
            Some(being(&game, "everfrost/frostweave-illusionist"))
        );
    }

    #[test]
    fn illusionist_stays_when_no_enemy_has_a_common_in_stock() {
        let id = "everfrost/frostweave-illusionist";
        let (mut game, _) = position(
            Mode::HighForm,
            ["everfrost", "imperial"],
            id,
            &pattern_at(id, "e5"),
            &[],
        );
        game.state.tokens[1] = 0;
        game.state.token_total[1] = 0;
        summon(&mut game, "e5", 0);
        assert!(arena(&game).contains("e5=1h"));
    }

    #[test]
    fn illusionist_in_a_melee_asks_the_colour() {
        let id = "everfrost/frostweave-illusionist";
        let (mut game, asked) = table(
            &["everfrost", "imperial", "sylvan"],
            id,
            &pattern_at(id, "e5"),
            &[&[Opt::Seat(2)]],
        );
        summon(&mut game, "e5", 0);
        assert_eq!(options(&asked[0], 0), [Opt::Seat(1), Opt::Seat(2)]);
        assert!(arena(&game).contains("e5=3c"));
    }

    #[test]
    fn illusionist_thawed_converts_an_enemy_common() {
        let (game, _) = thaw("frostweave-illusionist", "a5=2c b5=2h", &[]);
        assert_eq!(arena(&game), "a5=1c b5=2h");
        assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
    }
}
