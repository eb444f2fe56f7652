-- Per High Form task, deck and strategy: the seat-games in which the task was dealt at setup (the row of
-- three and the next task, revealed at turn 0) and how many the seat won. The setup deal is decided by
-- the seed, so this against the deck's other games is a randomized comparison for each deck.
-- Reads: seat_tasks.
SELECT deck, strategy, task_id,
       sum(dealt) AS games,
       coalesce(sum(dealt) FILTER (won), 0) AS wins
FROM seat_tasks
WHERE mode = 'high-form'
GROUP BY deck, strategy, task_id
HAVING sum(dealt) > 0
ORDER BY deck, strategy, task_id;
