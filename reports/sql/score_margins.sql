-- The distribution of score margins: per form, how many games ended with each difference between the two
-- final scores. Reads: games.
SELECT mode, abs(score_0 - score_1) AS margin, count(*) AS games
FROM games
GROUP BY mode, margin
ORDER BY mode, margin;
