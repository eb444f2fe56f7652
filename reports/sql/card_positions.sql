-- Dose-response per being: per form, deck, strategy, card and the card's position in its seat's deck as
-- the setup shuffle left it (0 is drawn first; 0-2 is the opening hand), the seat-games and wins. The
-- position is decided by the game's seed before any play, so comparing positions is a randomized
-- comparison. Reads: deck_positions (the seat-games counted within a shard by the seat's kind of game, deck,
-- player, card, position and result: docs/dataset.md), cells (seats.sql, melee_seats.sql or team_seats.sql,
-- which name a seat's form as this CASE does).
SELECT c.mode, c.deck, c.strategy, o.card_id, o.position,
       sum(o.games) AS games,
       coalesce(sum(o.games) FILTER (o.won), 0) AS wins
FROM deck_positions o
JOIN cells c ON c.mode = CASE WHEN o.teams THEN 'team-' || o.mode WHEN o.players > 2 THEN 'melee-' || o.players
                              ELSE o.mode END
            AND c.deck = o.deck AND c.strategy = o.strategy
GROUP BY c.mode, c.deck, c.strategy, o.card_id, o.position
ORDER BY c.mode, c.deck, c.strategy, o.card_id, o.position;
