-- Per form: each strategy's seat-games against each opposing strategy, over all decks, wins and ties.
-- Reads: seats.
SELECT mode, strategy, opp_strategy,
       count(*) AS games,
       sum(won) AS wins,
       sum(tied) AS ties
FROM seats
GROUP BY mode, strategy, opp_strategy
ORDER BY mode, strategy, opp_strategy;
