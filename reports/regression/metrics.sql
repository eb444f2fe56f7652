-- Summary metrics of one run, one row per (metric, mode, subject): successes out of trials.
-- Reads the views games and card_events, task_events (one run's Parquet tables).
-- A "seat" is one player of one game; a win is winner = seat (a tie is not a win).
WITH seats AS (
    SELECT g.game_id, g.mode, s.seat,
           CASE WHEN s.seat = 0 THEN g.deck_0 ELSE g.deck_1 END AS deck,
           CAST(g.winner = s.seat AS INTEGER) AS won,
           g.first_player = s.seat AS went_first
    FROM games AS g
    CROSS JOIN (VALUES (0), (1)) AS s(seat)
),
drawn AS (
    SELECT DISTINCT game_id, seat, card_id FROM card_events WHERE event = 'drawn'
),
played AS (
    SELECT DISTINCT game_id, seat, card_id FROM card_events WHERE event IN ('played', 'invoked')
),
revealed AS (
    SELECT DISTINCT game_id, task_id FROM task_events WHERE event = 'revealed'
),
claimed AS (
    SELECT DISTINCT game_id, task_id FROM task_events WHERE event = 'claimed'
)
SELECT 'deck_win_rate' AS metric, mode, deck AS subject, SUM(won) AS successes, COUNT(*) AS trials
FROM seats GROUP BY mode, deck
UNION ALL
SELECT 'first_player_win_rate', mode, 'first player', SUM(won), COUNT(*)
FROM seats WHERE went_first GROUP BY mode
UNION ALL
SELECT 'card_win_rate_when_played', s.mode, p.card_id, SUM(s.won), COUNT(*)
FROM played AS p JOIN seats AS s USING (game_id, seat) GROUP BY s.mode, p.card_id
UNION ALL
SELECT 'card_win_rate_when_drawn', s.mode, d.card_id, SUM(s.won), COUNT(*)
FROM drawn AS d JOIN seats AS s USING (game_id, seat) GROUP BY s.mode, d.card_id
UNION ALL
SELECT 'card_play_rate_when_drawn', s.mode, d.card_id, COUNT(p.card_id), COUNT(*)
FROM drawn AS d
JOIN seats AS s USING (game_id, seat)
LEFT JOIN played AS p USING (game_id, seat, card_id)
GROUP BY s.mode, d.card_id
UNION ALL
SELECT 'task_claim_rate_when_revealed', g.mode, r.task_id, COUNT(c.task_id), COUNT(*)
FROM revealed AS r
JOIN games AS g USING (game_id)
LEFT JOIN claimed AS c USING (game_id, task_id)
GROUP BY g.mode, r.task_id
ORDER BY metric, mode, subject
