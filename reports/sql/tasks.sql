-- Per High Form task and strategy pairing: in how many games it was revealed and claimed, claims by the
-- first and the second player, how many claimers won, the points it gave and their share of all points
-- scored, and the turns it spent in the current row before being claimed.
-- Reads: games, task_events (seq: the event's position in its Parquet file, so its order in the game).
-- A task enters the row at setup (the first three reveals of a game, on turn 0) or, revealed as the next
-- task, at the first claim after its reveal: that claim frees the place it moves into. A task is revealed
-- and claimed at most once per game.
WITH high_form AS (
    SELECT run, game_id, first_player, winner, score_0 + score_1 AS points,
           least(strategy_0, strategy_1) || ' vs ' || greatest(strategy_0, strategy_1) AS pairing
    FROM games
    WHERE mode = 'high-form'
),
reveals AS (
    SELECT run, game_id, task_id, turn, seq,
           row_number() OVER (PARTITION BY run, game_id ORDER BY seq) AS nth
    FROM task_events
    WHERE event = 'revealed'
),
claims AS (
    SELECT run, game_id, task_id, turn, seat, points, seq
    FROM task_events
    WHERE event = 'claimed'
),
entries AS (
    SELECT r.run, r.game_id, r.task_id, CASE WHEN r.nth <= 3 THEN 0 ELSE next_claim.turn END AS entered
    FROM reveals r
    ASOF LEFT JOIN claims next_claim
        ON r.run = next_claim.run AND r.game_id = next_claim.game_id AND r.seq < next_claim.seq
),
pairing_points AS (
    SELECT pairing, sum(points) AS points FROM high_form GROUP BY pairing
)
SELECT g.pairing, e.task_id,
       count(*) AS revealed_games,
       count(c.seat) AS claims,
       count(*) FILTER (c.seat = g.first_player) AS claims_first,
       count(*) FILTER (c.seat = 1 - g.first_player) AS claims_second,
       count(*) FILTER (c.seat = g.winner) AS claimer_wins,
       coalesce(sum(c.points), 0) AS points,
       any_value(pp.points) AS pairing_points,
       avg(c.turn - e.entered) AS mean_row_turns
FROM entries e
JOIN high_form g USING (run, game_id)
JOIN pairing_points pp USING (pairing)
LEFT JOIN claims c USING (run, game_id, task_id)
GROUP BY g.pairing, e.task_id
ORDER BY g.pairing, e.task_id;
