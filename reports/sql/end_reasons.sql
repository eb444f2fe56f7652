-- How games ended: per form, the trigger of the end (deck, score, turn-limit) and the tiebreak that decided
-- the winner ("" when the scores differed; "tie" when nothing did). Reads: games.
SELECT mode, end_reason, tiebreak, count(*) AS games
FROM games
GROUP BY mode, end_reason, tiebreak
ORDER BY mode, end_reason, tiebreak;
