-- The distribution of game length: per form, how many games lasted each number of turns. Reads: games.
SELECT mode, turns, count(*) AS games
FROM games
GROUP BY mode, turns
ORDER BY mode, turns;
