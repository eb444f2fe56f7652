-- cards: per (form, deck, strategy) cell and card, the seat-games the card was in hand, in the opening hand
-- and played (a flare: invoked) in, and their wins; and sums over the card's plays: the plays, their turns,
-- outcome counters and points that turn, the seat-games with a play and the turns of their first plays, and
-- the expansions' frozen, thawed and warped events. Also table cards: every card id seen, its family (the
-- part before "/" of "family/name" ids, docs/card-format.md: a being's deck, or "legend" or "flare") and type.
-- Reads: seat_cards, seats (seats.sql). card_hands.sql and card_plays.sql read these tables.
-- One pass over the seats' per-card rows (about 40 a game, a seat's card events summed when the shard was
-- written: docs/dataset.md), grouped by the small cell number and the card.
CREATE OR REPLACE TABLE card_totals AS
SELECT s.cell, c.card_id,
       count(*) FILTER (drawn) AS in_hand_games,
       sum(won) FILTER (drawn) AS in_hand_wins,
       count(*) FILTER (drawn AND opening) AS opening_games,
       coalesce(sum(won) FILTER (drawn AND opening), 0) AS opening_wins,
       count(*) FILTER (drawn AND played) AS played_games,
       coalesce(sum(won) FILTER (drawn AND played), 0) AS played_wins,
       sum(plays) AS plays, sum(play_turns) AS play_turns,
       sum(enemy_common) AS enemy_common, sum(enemy_heroic) AS enemy_heroic,
       sum(enemy_legendary) AS enemy_legendary, sum(own_destroyed) AS own_destroyed,
       sum(upgrades) AS upgrades, sum(downgrades) AS downgrades, sum(placed) AS placed,
       sum(converted) AS converted, sum(turn_points) AS turn_points,
       count(*) FILTER (plays > 0) AS first_plays, sum(first_play) FILTER (plays > 0) AS first_play_turns,
       sum(frozen) AS frozen, sum(thawed) AS thawed, sum(warped) AS warped
FROM seat_cards c
JOIN seats s USING (run, game_id, seat)
GROUP BY s.cell, c.card_id;

CREATE OR REPLACE TABLE cards AS
SELECT card_id, family, CASE family WHEN 'legend' THEN 'legend' WHEN 'flare' THEN 'flare' ELSE 'being' END AS card_type
FROM (SELECT DISTINCT card_id, split_part(card_id, '/', 1) AS family FROM card_totals);
