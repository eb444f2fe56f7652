-- Per form, deck and strategy: the seat-games played with that deck and how many were won or tied.
-- The baseline every card and task of the deck is compared with. Reads: seats (a row is n seat-games).
SELECT mode, deck, strategy,
       sum(n) AS games,
       sum(won * n) AS wins,
       sum(tied * n) AS ties
FROM seats
GROUP BY mode, deck, strategy
ORDER BY mode, deck, strategy;
