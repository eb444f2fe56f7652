-- Which seats held which cards in their opening hand (dealt at setup by the shuffle, before any play),
-- for the cards named by the parameter (a list of card ids).
SELECT DISTINCT run, game_id, seat, card_id
FROM card_events
WHERE event = 'drawn' AND opening AND list_contains(?, card_id)
