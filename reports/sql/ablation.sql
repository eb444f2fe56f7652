-- Ablation pairs: every game of an ablation arm (games_all.variant, e.g. 'vanilla:imperial/cannon') with
-- the unchanged game of the same seed, seen from the seat the card matters to:
--   a being: the seat that played the changed copy of its deck (variant_seat);
--   a legend or flare: the seat dealt it at setup in the unchanged game (pairs where neither was dealt it
--   are left out: the estimand is the card's value to the player dealt it);
--   a task: each seat of a game between two different decks (in a mirror the deck's two seats cancel).
-- Per arm, form, the seat's deck and strategy and the opposing deck: pairs where the seat won only with
-- the card (up), only without it (down), or the same (same); and pairs whose two games diverged (differ in
-- their result, scores, length or ending, or in any card event: what was drawn, played, discarded or
-- invoked, when, where and what it did). An arm whose pairs never diverge never changed a game: its
-- estimate has no variation and is not a measured zero (docs/reports.md, "Ablation").
-- Reads: games_all, card_events_all.
WITH arms AS (
    SELECT v.run, v.variant, split_part(v.variant, ':', 1) AS ablation, split_part(v.variant, ':', 2) AS card_id,
           v.mode, v.variant_seat, v.deck_0, v.deck_1, v.strategy_0, v.strategy_1,
           v.winner AS arm_winner, b.winner AS base_winner, v.game_id AS arm_id, b.game_id AS base_id,
           (v.winner, v.score_0, v.score_1, v.turns, v.end_reason, v.tiebreak)
               IS DISTINCT FROM (b.winner, b.score_0, b.score_1, b.turns, b.end_reason, b.tiebreak) AS outcome_differs
    FROM games_all v
    JOIN games_all b ON b.run = v.run AND b.seed = v.seed AND b.variant = ''  -- a run's unchanged games have distinct seeds
    WHERE v.variant <> ''
),
paired_games AS (
    SELECT run, arm_id AS game_id FROM arms
    UNION
    SELECT run, base_id FROM arms
),
event_prints AS (  -- per game of a pair: its card events as a count and an order-free sum of their hashes
    SELECT e.run, e.game_id, count(*) AS events,
           sum(hash(e.turn, e.seat, e.card_id, e.event, e.opening, e.square, e.enemy_common, e.enemy_heroic,
                    e.enemy_legendary, e.own_destroyed, e.upgrades, e.downgrades, e.placed,
                    e.converted)::HUGEINT) AS print
    FROM card_events_all e
    SEMI JOIN paired_games p ON p.run = e.run AND p.game_id = e.game_id
    GROUP BY e.run, e.game_id
),
pairs AS (
    SELECT a.*,
           a.outcome_differs OR (ea.events, ea.print) IS DISTINCT FROM (eb.events, eb.print) AS diverged
    FROM arms a
    LEFT JOIN event_prints ea ON ea.run = a.run AND ea.game_id = a.arm_id
    LEFT JOIN event_prints eb ON eb.run = a.run AND eb.game_id = a.base_id
),
dealt AS (
    SELECT run, game_id AS base_id, card_id, seat
    FROM card_events_all
    WHERE opening AND card_type IN ('legend', 'flare')  -- opening: drawn into the opening hand
),
units AS (
    SELECT p.*, p.variant_seat AS seat FROM pairs p WHERE p.variant_seat >= 0
    UNION ALL
    SELECT p.*, d.seat FROM pairs p JOIN dealt d USING (run, base_id, card_id)
    UNION ALL
    SELECT p.*, s.seat FROM pairs p CROSS JOIN (VALUES (0::TINYINT), (1::TINYINT)) s(seat)
    WHERE p.card_id LIKE 'task/%' AND p.deck_0 <> p.deck_1
)
SELECT variant, ablation, card_id, mode,
       CASE seat WHEN 0 THEN deck_0 ELSE deck_1 END AS deck,
       CASE seat WHEN 0 THEN strategy_0 ELSE strategy_1 END AS strategy,
       CASE seat WHEN 0 THEN deck_1 ELSE deck_0 END AS opp_deck,
       count(*) FILTER (base_winner = seat AND arm_winner <> seat) AS up,
       count(*) FILTER (arm_winner = seat AND base_winner <> seat) AS down,
       count(*) FILTER ((base_winner = seat) = (arm_winner = seat)) AS same,
       count(*) FILTER (diverged) AS diverged
FROM units
GROUP BY ALL
ORDER BY ALL;
