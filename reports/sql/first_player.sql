-- First-player advantage: per form and the strategies of the first and the second player, the games,
-- how many the first player won, how many the second won, and ties. Reads: games.
SELECT mode,
       CASE first_player WHEN 0 THEN strategy_0 ELSE strategy_1 END AS first_strategy,
       CASE first_player WHEN 0 THEN strategy_1 ELSE strategy_0 END AS second_strategy,
       count(*) AS games,
       count(*) FILTER (winner = first_player) AS first_wins,
       count(*) FILTER (winner = 1 - first_player) AS second_wins,
       count(*) FILTER (winner = -1) AS ties
FROM games
GROUP BY ALL
ORDER BY ALL;
