-- Per form, deck and strategy: the seat-games played with that deck and how many were won or tied.
-- The baseline every card and task of the deck is compared with. Reads: seats.
SELECT mode, deck, strategy,
       count(*) AS games,
       sum(won) AS wins,
       sum(tied) AS ties
FROM seats
GROUP BY mode, deck, strategy
ORDER BY mode, deck, strategy;
