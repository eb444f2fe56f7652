-- Team games by turn order: per form, the games, and how many the team that took the first turn won, the
-- other team won, and were tied. The seed draws the first seat (1 action on its first turn), so which team
-- goes first is randomized. Also the mean final score of the first and of the second team. Reads: games.
SELECT 'team-' || mode AS mode, count(*) AS games,
       count(*) FILTER (winner = first_player % 2) AS first_wins,
       count(*) FILTER (winner >= 0 AND winner <> first_player % 2) AS second_wins,
       count(*) FILTER (winner = -1) AS ties,
       avg(CASE first_player % 2 WHEN 0 THEN score_0 ELSE score_1 END) AS first_score,
       avg(CASE first_player % 2 WHEN 0 THEN score_1 ELSE score_0 END) AS second_score
FROM games
GROUP BY mode
ORDER BY mode;
