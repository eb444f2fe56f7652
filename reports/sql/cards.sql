-- cards: per (form, deck, strategy) cell and card, the seat-games the card was in hand, in the opening hand
-- and played (a flare: invoked) in, and their wins; and sums over the card's plays: the plays, their turns,
-- outcome counters and points that turn, the seat-games with a play and the turns of their first plays, and
-- the expansions' frozen, thawed and warped events. Also table cards: every card id seen, its family (the
-- part before "/" of "family/name" ids, docs/card-format.md: a being's deck, or "legend" or "flare") and type.
-- Reads: seat_cards, cells (seats.sql). card_hands.sql and card_plays.sql read these tables.
-- One pass over seat_cards: each shard's per-seat, per-card rows (a seat's card events summed) already summed
-- over its games by the seat's cell (its form, as seats.sql, melee_seats.sql and team_seats.sql name it, deck
-- and player), card and result (won: as seats.won says), a few hundred rows a shard (docs/dataset.md).
CREATE OR REPLACE TABLE card_totals AS
SELECT cells.cell, c.card_id,
       sum(drawn)::BIGINT AS in_hand_games,
       coalesce(sum(drawn) FILTER (won), 0) AS in_hand_wins,
       sum(opening)::BIGINT AS opening_games,
       coalesce(sum(opening) FILTER (won), 0) AS opening_wins,
       sum(played)::BIGINT AS played_games,
       coalesce(sum(played) FILTER (won), 0) AS played_wins,
       sum(plays) AS plays, sum(play_turns) AS play_turns,
       sum(enemy_common) AS enemy_common, sum(enemy_heroic) AS enemy_heroic,
       sum(enemy_legendary) AS enemy_legendary, sum(own_destroyed) AS own_destroyed,
       sum(upgrades) AS upgrades, sum(downgrades) AS downgrades, sum(placed) AS placed,
       sum(converted) AS converted, sum(turn_points) AS turn_points,
       sum(first_plays)::BIGINT AS first_plays, sum(first_play_turns) AS first_play_turns,
       sum(frozen) AS frozen, sum(thawed) AS thawed, sum(warped) AS warped
FROM seat_cards c
JOIN cells ON cells.mode = CASE WHEN c.teams THEN 'team-' || c.mode WHEN c.players > 2 THEN 'melee-' || c.players
                                ELSE c.mode END
          AND cells.deck = c.deck AND cells.strategy = c.strategy
GROUP BY cells.cell, c.card_id;

CREATE OR REPLACE TABLE cards AS
SELECT card_id, family, CASE family WHEN 'legend' THEN 'legend' WHEN 'flare' THEN 'flare' ELSE 'being' END AS card_type
FROM (SELECT DISTINCT card_id, split_part(card_id, '/', 1) AS family FROM card_totals);
