-- Per High Form task, deck and strategy: the seat-games in which the task was dealt at setup (the row of
-- three and the next task, revealed at turn 0) and how many the seat won. The setup deal is decided by
-- the seed, so this against the deck's other games is a randomized comparison for each deck.
-- Reads: task_events, seats.
WITH dealt AS (
    SELECT DISTINCT run, game_id, task_id
    FROM task_events
    WHERE event = 'revealed' AND turn = 0
)
SELECT s.deck, s.strategy, d.task_id,
       count(*) AS games,
       sum(s.won) AS wins
FROM dealt d
JOIN seats s USING (run, game_id)
WHERE s.mode = 'high-form'
GROUP BY s.deck, s.strategy, d.task_id
ORDER BY s.deck, s.strategy, d.task_id;
