-- Melee results by deck and strategy: per form, deck and strategy, the seat-games, wins, shared first
-- places and the mean final score and place. The study fixes which decks meet, so this is a description of
-- its tables, not a randomized comparison. Reads: seats (melee_seats.sql).
SELECT mode, deck, strategy, count(*) AS games, sum(won) AS wins, sum(tied) AS ties,
       avg(score) AS mean_score, avg(place) AS mean_place
FROM seats
GROUP BY mode, deck, strategy
ORDER BY mode, deck, strategy;
