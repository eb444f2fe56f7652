-- Per High Form task, claimer's deck and claimer's strategy: claims and how many claimers won.
-- Compared with the deck's baseline (deck_baseline.sql) to flag tasks that go with winning or losing.
-- Reads: seat_tasks.
SELECT deck, strategy, task_id,
       sum(claims) AS claims,
       coalesce(sum(claims) FILTER (won), 0) AS claimer_wins
FROM seat_tasks
GROUP BY deck, strategy, task_id
HAVING sum(claims) > 0
ORDER BY deck, strategy, task_id;
