-- Melee win rate by place in turn order (0: the first player, who has 1 action on his first turn): per
-- form, the seat-games and wins at each position. The first player is drawn by the seed, so positions are
-- compared at random. Reads: seats (melee_seats.sql).
SELECT mode, position, count(*) AS games, sum(won) AS wins, sum(tied) AS ties, avg(score) AS mean_score
FROM seats
GROUP BY mode, position
ORDER BY mode, position;
