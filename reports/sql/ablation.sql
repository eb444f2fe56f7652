-- Ablation pairs: every game of an ablation arm (games_all.variant, e.g. 'vanilla:imperial/cannon') with
-- the unchanged game of the same seed, seen from the seat the card matters to:
--   a being: the seat that played the changed copy of its deck (variant_seat);
--   a legend or flare: the seat dealt it at setup in the unchanged game (pairs where neither was dealt it
--   are left out: the estimand is the card's value to the player dealt it);
--   a task: each seat of a game between two different decks (in a mirror the deck's two seats cancel).
-- Per arm, form, the seat's deck and strategy and the opposing deck: pairs where the seat won only with
-- the card (up), only without it (down), or the same (same). Reads: games_all, card_events_all.
WITH arms AS (
    SELECT v.run, v.variant, split_part(v.variant, ':', 1) AS ablation, split_part(v.variant, ':', 2) AS card_id,
           v.mode, v.variant_seat, v.deck_0, v.deck_1, v.strategy_0, v.strategy_1,
           v.winner AS arm_winner, b.winner AS base_winner, b.game_id AS base_id
    FROM games_all v
    JOIN games_all b ON b.run = v.run AND b.seed = v.seed AND b.mode = v.mode AND b.variant = ''
    WHERE v.variant <> ''
),
dealt AS (
    SELECT run, game_id AS base_id, card_id, seat
    FROM card_events_all
    WHERE event = 'drawn' AND opening AND card_type IN ('legend', 'flare')
),
units AS (
    SELECT a.*, a.variant_seat AS seat FROM arms a WHERE a.variant_seat >= 0
    UNION ALL
    SELECT a.*, d.seat FROM arms a JOIN dealt d USING (run, base_id, card_id)
    UNION ALL
    SELECT a.*, s.seat FROM arms a CROSS JOIN (VALUES (0::TINYINT), (1::TINYINT)) s(seat)
    WHERE a.card_id LIKE 'task/%' AND a.deck_0 <> a.deck_1
)
SELECT variant, ablation, card_id, mode,
       CASE seat WHEN 0 THEN deck_0 ELSE deck_1 END AS deck,
       CASE seat WHEN 0 THEN strategy_0 ELSE strategy_1 END AS strategy,
       CASE seat WHEN 0 THEN deck_1 ELSE deck_0 END AS opp_deck,
       count(*) FILTER (base_winner = seat AND arm_winner <> seat) AS up,
       count(*) FILTER (arm_winner = seat AND base_winner <> seat) AS down,
       count(*) FILTER ((base_winner = seat) = (arm_winner = seat)) AS same
FROM units
GROUP BY ALL
ORDER BY ALL;
