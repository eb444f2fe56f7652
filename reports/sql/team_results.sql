-- Team results by team deck combination: per form, a team's two decks and players (unordered, "a+b") and the
-- other team's, the team-games (each game counts once for each team), wins, ties and the mean team score.
-- The study fixes which decks meet and who plays them, so this is descriptive. Reads: team_sides
-- (team_seats.sql).
SELECT mode, decks, players, opp_decks, opp_players, count(*) AS games, sum(won) AS wins, sum(tied) AS ties,
       avg(score) AS mean_score
FROM team_sides
GROUP BY mode, decks, players, opp_decks, opp_players
ORDER BY mode, decks, players, opp_decks, opp_players;
