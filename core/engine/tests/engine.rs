//! Checks against values printed by the Python engine (tests/data/cards.json is
//! `sim.core_cards.card_set_json(load_card_set())`; regenerate it when the cards change).

use std::sync::Arc;

use tk_engine::cards::CardSet;
use tk_engine::decisions::PlayerView;
use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy;
use tk_engine::state::{shared_rng, Mode};

fn cards() -> Arc<CardSet> {
    // Custom effects do nothing here: these tests are about the engine, not the effects.
    // The base set only (expansion decks come after the base decks and would shift the legends' ids).
    let mut doc: serde_json::Value =
        serde_json::from_str(include_str!("data/cards.json")).expect("JSON");
    doc["decks"]
        .as_array_mut()
        .expect("decks")
        .retain(|d| ["imperial", "highland", "sylvan"].contains(&d["name"].as_str().unwrap_or("")));
    let text = doc.to_string();
    let stub: tk_engine::effects::CustomFn = |_, _| false;
    Arc::new(CardSet::from_json_with(&text, &|_| Some(stub)).expect("card set"))
}

/// The beings of the base game (the three base decks, then the legends) in the order of the Python
/// engine's card set, which had no expansion deck: the expansion decks' beings load between them.
fn base_beings(cs: &CardSet) -> impl Iterator<Item = &tk_engine::cards::Being> {
    const BASE: [&str; 4] = ["highland", "imperial", "sylvan", "legend"];
    cs.beings.iter().filter(|b| BASE.contains(&b.deck))
}

/// A being's index in the base game's card set (legends come right after the base decks there).
fn base_index(cs: &CardSet, b: tk_engine::cards::BeingId) -> u32 {
    let base = base_beings(cs)
        .position(|x| x.index == b)
        .expect("a base card");
    base as u32
}

#[test]
fn placements_and_shapes_match_python() {
    let cs = cards();
    let counts: Vec<usize> = base_beings(&cs).map(|b| b.placements.len()).collect();
    assert_eq!(
        counts,
        [
            192, 86, 368, 336, 216, 128, 328, 168, 208, 164, 116, 164, 160, 320, 344, 208, 152,
            168, 102, 172, 172, 384, 192, 124, 172, 192, 164, 384, 368, 128, 164, 288, 344, 164,
            37, 368, 204, 384, 384, 168, 368, 352, 384, 328, 120, 336, 288, 320, 164, 344, 172, 45,
            180, 368, 136, 164, 124, 124, 320, 232, 232, 112, 272, 136, 344, 136
        ]
    );
    // A hash over every field of every placement and shape, in order, as computed in Python.
    let mut h: u64 = 0;
    let mut f = |v: u64| h = h.wrapping_mul(1_000_003).wrapping_add(v);
    for b in base_beings(&cs) {
        for p in &b.placements {
            for v in [
                p.origin as u128,
                p.orientation as u128,
                p.need_any,
                p.need_heroic,
                p.need_legendary,
                p.marked,
                p.marked_other,
            ] {
                f(v as u64);
                f((v >> 64) as u64);
            }
            for s in &p.marked_squares {
                f(s.map_or(255, |s| s as u64));
            }
        }
        for s in &b.shapes {
            f(s.origins as u64);
            f((s.origins >> 64) as u64);
            for &(shift, r) in &s.cells {
                f((shift + 1000) as u64);
                f(r as u64);
            }
        }
    }
    assert_eq!(h, 15482530008490163873);
}

#[test]
fn sandbox_deals_like_python() {
    let cs = cards();
    let players = [
        make_strategy("random", 0, 5).unwrap(),
        make_strategy("random", 1, 5).unwrap(),
    ];
    let mut g = Game::new(
        Arc::clone(&cs),
        Mode::HighForm,
        ["imperial", "sylvan"],
        players,
        5,
        GameOptions::default(),
    )
    .unwrap();
    g.setup();
    for _ in 0..6 {
        g.play_turn();
    }
    let rng = shared_rng(7);
    let c = PlayerView::new(&g.state, 1).sandbox(&rng);
    let ix =
        |l: &[tk_engine::cards::BeingId]| l.iter().map(|&b| base_index(&cs, b)).collect::<Vec<_>>();
    assert_eq!(
        ix(&c.deck[1]),
        [42, 50, 53, 47, 49, 44, 52, 48, 39, 37, 46, 41, 45]
    );
    assert_eq!(ix(&c.hand[0]), [32, 24, 21]);
    assert_eq!(
        ix(&c.deck[0]),
        [30, 27, 23, 29, 19, 34, 28, 33, 22, 20, 35, 26]
    );
    assert_eq!(ix(&c.legend_hand[0]), [60, 57]);
    assert_eq!(ix(&c.legend_deck), [58, 64, 59, 63, 56, 54, 61, 65]);
    assert_eq!(c.flare_hand[0].iter().map(|f| f.0).collect::<Vec<_>>(), [7]);
    assert_eq!(
        c.flare_deck.iter().map(|f| f.0).collect::<Vec<_>>(),
        [3, 11, 0, 10, 6, 8, 4, 1, 9, 2]
    );
    assert_eq!(
        c.task_deck.iter().map(|t| t.0).collect::<Vec<_>>(),
        [17, 23, 1, 16, 18, 15, 5, 14, 6, 7, 9, 12, 8, 21, 11, 2, 3, 20, 4, 13]
    );
    assert_eq!(rng.borrow_mut().random(), 0.6989944337295713);
}

#[test]
fn record_strings_are_escaped_as_pythons_json_dumps_escapes_them() {
    // json.dumps("a\"b\\c\n\t\x01~\x7fé😀") == '"a\\"b\\\\c\\n\\t\\u0001~\\u007f\\u00e9\\ud83d\\ude00"'
    let mut out = String::new();
    tk_engine::record::json_str(&mut out, "a\"b\\c\n\t\u{1}~\u{7f}é😀");
    assert_eq!(out, r#""a\"b\\c\n\t\u0001~\u007f\u00e9\ud83d\ude00""#);
}
