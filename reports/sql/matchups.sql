-- The deck matchup matrix: per form and strategy pairing, each deck's seat-games against each opposing
-- deck, wins and ties. A mirror match counts each game twice, once from each seat. Reads: seats (a row is n
-- seat-games).
SELECT mode, strategy, opp_strategy, deck, opp_deck,
       sum(n) AS games,
       sum(won * n) AS wins,
       sum(tied * n) AS ties
FROM seats
GROUP BY mode, strategy, opp_strategy, deck, opp_deck
ORDER BY mode, strategy, opp_strategy, deck, opp_deck;
