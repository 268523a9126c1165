"""Images in, cards out: detection, classification, deck profiles, tracking, and the
renderer that draws Deckhand's own decks and table scenes. Imports only `engine`'s card
and deck definitions from the rest of Deckhand."""
