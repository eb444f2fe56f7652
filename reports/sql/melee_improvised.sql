-- Improvised summoning: per form and strategy, the seat-games, improvisations made, the seat-games with at
-- least one, and the win rates of seats that improvised and that did not (descriptive: who improvises
-- depends on how the game goes; never tested). Reads: seats (melee_seats.sql).
SELECT mode, strategy, count(*) AS games, sum(improvised) AS improvisations,
       count(*) FILTER (improvised > 0) AS improvising_games,
       coalesce(sum(won) FILTER (improvised > 0), 0) AS improvising_wins,
       coalesce(sum(won) FILTER (improvised = 0), 0) AS other_wins
FROM seats
GROUP BY mode, strategy
ORDER BY mode, strategy;
