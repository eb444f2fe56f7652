-- Per High Form task, claimer's deck and claimer's strategy: claims and how many claimers won.
-- Compared with the deck's baseline (deck_baseline.sql) to flag tasks that go with winning or losing.
-- Reads: task_events, seats.
SELECT s.deck, s.strategy, t.task_id,
       count(*) AS claims,
       sum(s.won) AS claimer_wins
FROM task_events t
JOIN seats s USING (run, game_id, seat)
WHERE t.event = 'claimed'
GROUP BY s.deck, s.strategy, t.task_id
ORDER BY s.deck, s.strategy, t.task_id;
