-- The descriptive summary metrics of one run, one row per (metric, mode, subject): successes out of
-- trials, per form and card (or task), pooled over decks and players. Descriptive: seat-games grouped by
-- what happened in them (the card drawn, played; the task revealed), so a card drawn more often by winners
-- looks strong whatever it does. The trusted metrics (deck, matchup, first player, randomized and ablation
-- estimates) come from the report's own records (report_metrics.py).
-- Reads the views games and card_events, task_events (one run's Parquet tables).
-- A "seat" is one player of one game; a win is winner = seat (a tie is not a win).
WITH seats AS (
    SELECT g.game_id, g.mode, s.seat, CAST(g.winner = s.seat AS INTEGER) AS won
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
SELECT 'card_win_rate_when_played' AS metric, s.mode, p.card_id AS subject, SUM(s.won) AS successes,
       COUNT(*) AS trials
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
