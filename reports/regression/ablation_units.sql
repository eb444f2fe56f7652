-- A changed card's ablation pairs in each run (run 0 the baseline, run 1 the candidate): for every
-- unchanged game and the game of the same seed in the card's ablation arm, the result of the seat the
-- card matters to (see reports/sql/ablation.sql) with the card minus without it (1 win, 0.5 tie, 0 loss).
-- Parameter: the card id. Reads games_all, card_events_all.
WITH arms AS (
    SELECT v.run, v.mode, v.variant_seat, b.game_id AS base_id, b.deck_0, b.deck_1,
           v.winner AS arm_winner, b.winner AS base_winner
    FROM games_all v
    JOIN games_all b ON b.run = v.run AND b.seed = v.seed AND b.variant = ''  -- a run's unchanged games have distinct seeds
    WHERE v.variant <> '' AND split_part(v.variant, ':', 2) = $card
),
dealt AS (
    SELECT run, game_id AS base_id, seat
    FROM card_events_all
    WHERE opening AND card_id = $card AND card_type IN ('legend', 'flare')  -- opening: drawn into the opening hand
),
units AS (
    SELECT a.*, a.variant_seat AS seat FROM arms a WHERE a.variant_seat >= 0
    UNION ALL
    SELECT a.*, d.seat FROM arms a JOIN dealt d USING (run, base_id)
    UNION ALL
    SELECT a.*, s.seat FROM arms a CROSS JOIN (VALUES (0::TINYINT), (1::TINYINT)) s(seat)
    WHERE $card LIKE 'task/%' AND a.deck_0 <> a.deck_1
)
SELECT run, mode, base_id AS game_id, seat,
       CAST((CASE WHEN base_winner = seat THEN 1.0 WHEN base_winner = -1 THEN 0.5 ELSE 0.0 END)
          - (CASE WHEN arm_winner = seat THEN 1.0 WHEN arm_winner = -1 THEN 0.5 ELSE 0.0 END) AS DOUBLE) AS value
FROM units
ORDER BY run, mode, game_id, seat
