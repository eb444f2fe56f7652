-- What the report covers: per run and form, the games, the mean game length and the card-set fingerprints.
-- Reads: games.
SELECT run, mode,
       count(*) AS games,
       avg(turns) AS mean_turns,
       list(DISTINCT card_set ORDER BY card_set) AS card_sets
FROM games
GROUP BY run, mode
ORDER BY run, mode;
