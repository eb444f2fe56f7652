-- Skill depth: the games between two different players in which both seats hold the same deck (a deck
-- mirror), per form and deck, seen from each player and each of its seats: seat-games, wins and ties.
-- Grain: one row per (mode, deck, strategy, opp_strategy, seat); a game gives two rows, one per player.
-- Estimand (reports/sections_skill.py): with the deck held equal, the stronger player's win rate against
-- the weaker, pooled over its two seats (the study's seat rotation gives each player each seat in half the
-- games); its win rate minus the weaker player's is what skill is worth with that deck.
-- Reads: seats (the duels of the unchanged card set; ablation arms are not in it; a row is n seat-games).
SELECT mode, deck, strategy, opp_strategy, seat,
       sum(n) AS games,
       sum(won * n) AS wins,
       sum(tied * n) AS ties
FROM seats
WHERE deck = opp_deck AND strategy <> opp_strategy
GROUP BY mode, deck, strategy, opp_strategy, seat
ORDER BY mode, deck, strategy, opp_strategy, seat;
