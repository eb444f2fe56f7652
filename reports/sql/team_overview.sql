-- The team games in overview.sql's shape: per run and form ("team-high-form", "team-deathmatch"), the games,
-- the mean game length and the card-set fingerprints. Reads: games (the team views).
SELECT run, 'team-' || mode AS mode,
       count(*) AS games,
       avg(turns) AS mean_turns,
       list(DISTINCT card_set ORDER BY card_set) AS card_sets
FROM games
GROUP BY run, mode
ORDER BY run, mode;
