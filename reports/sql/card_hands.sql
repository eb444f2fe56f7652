-- Per card, form, deck and strategy: in how many seat-games the card was in hand at all, in the opening
-- hand, and played (a flare: invoked); and how many of those games its holder won. (Drawn only later:
-- in hand minus opening hand.) A seat only ever holds its own deck's beings, the legends and the flares.
-- Reads: card_totals and cards (cards.sql), cells (seats.sql).
SELECT cells.mode, cells.deck, cells.strategy, cards.card_type, cards.card_id,
       t.in_hand_games, t.in_hand_wins, t.opening_games, t.opening_wins, t.played_games, t.played_wins
FROM card_totals t
JOIN cells USING (cell)
JOIN cards USING (card_id)
WHERE t.in_hand_games > 0
ORDER BY cells.mode, cells.deck, cells.strategy, cards.card_type, cards.card_id;
