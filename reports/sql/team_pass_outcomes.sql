-- What passing gains: per run, form and the two teams (decks and players, unordered "a+b"), the team-games,
-- wins, losses and ties, split by whether the team passed control at least once. Python pairs the players
-- whose labels differ only in the pass_control parameter (the manifest's players): where a study pits one
-- against the other with the decks balanced, the comparison is controlled; the split by passing is
-- descriptive (who passes depends on how the game goes). Reads: team_sides (team_seats.sql).
SELECT run, mode, decks, players, opp_decks, opp_players, passes > 0 AS passed, count(*) AS games,
       sum(won) AS wins, sum(lost) AS losses, sum(tied) AS ties
FROM team_sides
GROUP BY run, mode, decks, players, opp_decks, opp_players, passes > 0
ORDER BY run, mode, decks, players, opp_decks, opp_players, passed;
