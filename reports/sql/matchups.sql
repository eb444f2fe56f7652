-- The deck matchup matrix: per form and strategy pairing, each deck's seat-games against each opposing
-- deck, wins and ties. A mirror match counts each game twice, once from each seat. Reads: seats.
SELECT mode, strategy, opp_strategy, deck, opp_deck,
       count(*) AS games,
       sum(won) AS wins,
       sum(tied) AS ties
FROM seats
GROUP BY mode, strategy, opp_strategy, deck, opp_deck
ORDER BY mode, strategy, opp_strategy, deck, opp_deck;
