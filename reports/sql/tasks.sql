-- Per High Form task and strategy pairing: in how many games it was revealed and claimed, claims by the
-- first and the second player, how many claimers won, the points it gave and their share of all points
-- scored, and the turns it spent in the current row before being claimed.
-- Reads: games, seat_tasks (each game's tasks from each seat, summed within a shard by the seat's kind of game,
-- deck, player, opponent, first turn, task and result: docs/dataset.md). A game counts once, from its first
-- player's seat; a claim from its claimer's. A task enters the row at setup or, revealed as the next task, at the
-- first claim after its reveal; it is revealed and claimed at most once per game.
WITH pairing_points AS (
    SELECT least(strategy_0, strategy_1) || ' vs ' || greatest(strategy_0, strategy_1) AS pairing,
           sum(score_0 + score_1) AS points
    FROM games
    WHERE mode = 'high-form'
    GROUP BY pairing
)
SELECT least(t.strategy, t.opp_strategy) || ' vs ' || greatest(t.strategy, t.opp_strategy) AS pairing, t.task_id,
       sum(t.revealed) FILTER (t.first) AS revealed_games,
       sum(t.claims) AS claims,
       coalesce(sum(t.claims) FILTER (t.first), 0) AS claims_first,
       coalesce(sum(t.claims) FILTER (NOT t.first), 0) AS claims_second,
       coalesce(sum(t.claims) FILTER (t.won), 0) AS claimer_wins,
       sum(t.points) AS points,
       any_value(pp.points) AS pairing_points,
       sum(t.row_turns)::DOUBLE / nullif(sum(t.claims), 0) AS mean_row_turns
FROM seat_tasks t
JOIN pairing_points pp ON pp.pairing = least(t.strategy, t.opp_strategy) || ' vs ' || greatest(t.strategy, t.opp_strategy)
WHERE t.mode = 'high-form'
GROUP BY ALL
ORDER BY pairing, t.task_id;
