-- Per form: each strategy's seat-games against each opposing strategy, over all decks, wins and ties.
-- Reads: seats (a row is n seat-games).
SELECT mode, strategy, opp_strategy,
       sum(n) AS games,
       sum(won * n) AS wins,
       sum(tied * n) AS ties
FROM seats
GROUP BY mode, strategy, opp_strategy
ORDER BY mode, strategy, opp_strategy;
