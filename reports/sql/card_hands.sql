-- Per card, form, deck and strategy: in how many seat-games the card was in hand at all, in the opening
-- hand, and played (a flare: invoked); and how many of those games its holder won. (Drawn only later:
-- in hand minus opening hand.)
-- Reads: card_events, seats and cells (seats.sql), cards (cards.sql).
-- Counting distinct games per card directly needs one group per card and game (65 million groups for a
-- million games). Instead each seat's game is folded into three 128-bit card sets (cards.mask): one group
-- per seat and game; the sets are then tested card by card, counting by small integer keys.
WITH hand_events AS (
    SELECT e.run, e.game_id, e.seat, e.event = 'drawn' AS drawn, e.opening, c.mask
    FROM card_events e
    JOIN cards c USING (card_id)
    WHERE e.event IN ('drawn', 'played', 'invoked')
),
seat_sets AS (  -- per seat of a game: the cards drawn, drawn into the opening hand, played or invoked
    SELECT run, game_id, seat,
           coalesce(bit_or(mask) FILTER (drawn), 0) AS in_hand,
           coalesce(bit_or(mask) FILTER (opening), 0) AS opening,
           coalesce(bit_or(mask) FILTER (NOT drawn), 0) AS played
    FROM hand_events
    GROUP BY run, game_id, seat
),
cell_cards AS (  -- the cards a seat of each cell can hold: its deck's beings, the legends and the flares
    SELECT cells.cell, cards.card_no, cards.mask
    FROM cells
    JOIN cards ON cards.family IN (cells.deck, 'legend', 'flare')
),
seat_hands AS (
    SELECT h.in_hand, h.opening, h.played, s.won, s.cell
    FROM seat_sets h
    JOIN seats s USING (run, game_id, seat)
),
counts AS (
    SELECT h.cell, cc.card_no,
           count(*) AS in_hand_games,
           sum(h.won) AS in_hand_wins,
           count(*) FILTER ((h.opening & cc.mask) <> 0) AS opening_games,
           coalesce(sum(h.won) FILTER ((h.opening & cc.mask) <> 0), 0) AS opening_wins,
           count(*) FILTER ((h.played & cc.mask) <> 0) AS played_games,
           coalesce(sum(h.won) FILTER ((h.played & cc.mask) <> 0), 0) AS played_wins
    FROM seat_hands h
    JOIN cell_cards cc USING (cell)
    WHERE (h.in_hand & cc.mask) <> 0
    GROUP BY h.cell, cc.card_no
)
SELECT cells.mode, cells.deck, cells.strategy, cards.card_type, cards.card_id,
       counts.* EXCLUDE (cell, card_no)
FROM counts
JOIN cells USING (cell)
JOIN cards USING (card_no)
ORDER BY cells.mode, cells.deck, cells.strategy, cards.card_type, cards.card_id;
