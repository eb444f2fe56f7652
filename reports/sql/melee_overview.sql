-- The melees in overview.sql's shape: per run and form ("melee-3", "melee-4"), the games, the mean game
-- length and the card-set fingerprints. Reads: games (the melee views).
SELECT run, 'melee-' || players AS mode,
       count(*) AS games,
       avg(turns) AS mean_turns,
       list(DISTINCT card_set ORDER BY card_set) AS card_sets
FROM games
GROUP BY run, players
ORDER BY run, players;
