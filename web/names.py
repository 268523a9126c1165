"""The names people read for the engine's codes: cards ("Red 4" / « Rouge 4 »), colours,
games, actions and their help, action fields and settings, in the device's language.

Card codes, action types and field names stay in logs and the API; a screen shows these
names. Every English name is a msgid marked with `N_`/`C_` so `pybabel extract` finds it
(docs/translations.md); the French is in web/translations/fr.
"""
from __future__ import annotations

from typing import Any, Mapping

from web.cards import deck_of
from web.words import t, tc

GAME_TITLES = {"flip7": "Flip 7", "solo": "Solo", "raj": "Raj", "hitthedeck": "Hit the Deck"}


def N_(text: str) -> str:
    """Marks an English msgid for extraction; translated where it is shown."""
    return text


def C_(context: str, text: str) -> tuple[str, str]:
    """Marks a msgid with a context (one English word, two meanings)."""
    return context, text


# A colour as a word on its own or after a masculine noun, and after a feminine noun
# (« une carte verte »); English has one form.
COLOURS = {
    "red": (C_("colour", "red"), C_("colour, feminine", "red")),
    "green": (C_("colour", "green"), C_("colour, feminine", "green")),
    "blue": (C_("colour", "blue"), C_("colour, feminine", "blue")),
    "yellow": (C_("colour", "yellow"), C_("colour, feminine", "yellow")),
    "purple": (C_("colour", "purple"), C_("colour, feminine", "purple")),
    "black": (C_("colour", "black"), C_("colour, feminine", "black")),
    "orange": (C_("colour", "orange"), C_("colour, feminine", "orange")),
    "pink": (C_("colour", "pink"), C_("colour, feminine", "pink")),
    "teal": (C_("colour", "teal"), C_("colour, feminine", "teal")),
    "brown": (C_("colour", "brown"), C_("colour, feminine", "brown")),
    "grey": (C_("colour", "grey"), C_("colour, feminine", "grey")),
    "white": (C_("colour", "white"), C_("colour, feminine", "white")),
}
COLOUR_LETTERS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}


def colour_name(colour: str, lang: str, feminine: bool = False) -> str:
    """"red" (or Solo's "R") in words; an unknown colour is said as given."""
    word = COLOUR_LETTERS.get(colour, colour.strip().lower())
    forms = COLOURS.get(word)
    if forms is None:
        return colour
    return tc(*forms[1 if feminine else 0], lang)


# Cards. A coloured card's name is a pattern with {colour} (masculine), {colour_f}
# (feminine) or {Colour} (capitalised, for a name that starts with it).
CARD_PATTERNS: dict[str, dict[str, str]] = {
    "solo": {
        "number": N_("{Colour} {number}"),
        "miss": N_("{Colour} Miss a turn"),
        "reverse": N_("{Colour} Change direction"),
        "take2": N_("{Colour} Take 2"),
        "swap": N_("{Colour} Swap cards"),
        "choose": N_("Choose a colour"),
        "take4": N_("Take 4 + choose a colour"),
        "rotate": N_("Change cards all round"),
    },
    "hitthedeck": {
        "number": N_("{Colour} {number}"),
        "cut": N_("{Colour} Cut"),
        "flip": N_("{Colour} Flip"),
        "hit_number": N_("Hit the deck with a {number}"),
        "hit_colour": N_("Hit the deck with {colour}"),
        "hit_hand": N_("Hit the deck with a hand"),
    },
    "flip7": {
        "number": N_("{number}"),
        "freeze": N_("Freeze"),
        "flip3": N_("Flip Three"),
        "chance": N_("Second Chance"),
    },
    "raj": {
        "bid": N_("{Colour} {number}"),
    },
}


def card_name(game: str | None, code: Any, lang: str) -> str:
    """A card in words: "Red 4" / « Rouge 4 ». An unknown code is said as a card
    Deckhand does not know (never as the code)."""
    deck = deck_of(game) if game else None
    code = "" if code is None else str(code)
    if deck is None or code not in deck:
        return t("an unknown card", lang)
    card = deck[code]
    if card.kind in ("modifier", "multiplier"):
        return card.label.replace("x", "×")
    if card.kind == "point":
        return f"{card.value:+d}"
    pattern = CARD_PATTERNS.get(game or "", {}).get(card.kind)
    if pattern is None:
        return t(card.label, lang)
    colour = colour_name(card.colour, lang) if card.colour else ""
    return t(pattern, lang, number=card.value if card.value is not None else "",
             colour=colour, colour_f=colour_name(card.colour, lang, feminine=True) if card.colour else "",
             Colour=colour[:1].upper() + colour[1:])


# The table's zones (device.config: what `deckhand calibrate --zone NAME=...` names).
ZONES = {"discard": N_("Discard pile"), "reveal": N_("Reveal area"), "scoring": N_("Scoring zone")}


def zone_name(zone: str, lang: str) -> str:
    """A zone of the camera's picture in words ("seat:2" is the third seat's spot); a
    name the host made up is said as it is."""
    if zone in ZONES:
        return t(ZONES[zone], lang)
    kind, _, number = zone.partition(":")
    if kind == "seat" and number.isdigit():
        return t("Seat {number}", lang, number=int(number) + 1)
    return zone


def game_title(game: str) -> str:
    """A game's own name (not translated: it is printed on the box)."""
    return GAME_TITLES.get(game, game)


# Actions: (name, what it does) by game and JSON type; "*" for every game.
ACTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "*": {
        "undo": (N_("Undo"), N_("Take back the last action still in effect.")),
        "end_match": (N_("End the match"), N_("End the match now: the current totals decide.")),
        "set_totals": (N_("Set the totals"), N_("The host sets every player's total.")),
        "correct_round": (N_("Correct a round's score"), N_("The host replaces a scored round's scores; the totals follow.")),
    },
    "flip7": {
        "flip": (N_("Card turned over"), N_("A card was turned over for the player waiting for one.")),
        "hit": (N_("Hit"), N_("The player asks for another card.")),
        "stay": (N_("Stay"), N_("The player stops and banks this round's points.")),
        "target": (N_("Give the card to"), N_("The player who drew an action card chooses who gets it.")),
    },
    "solo": {
        "start_round": (N_("Start the round"), N_("The first card turned over onto the discard pile.")),
        "play": (N_("Play a card"), N_("A player puts a card on the discard pile.")),
        "choose_colour": (N_("Name a colour"), N_("The player of a black card names the colour.")),
        "swap": (N_("Swap hands"), N_("The player of a Swap card chooses whom to swap with.")),
        "draw": (N_("Draw a card"), N_("The player takes a card from the pack.")),
        "pass": (N_("Pass"), N_("The player who drew cannot or will not play it.")),
        "take_penalty": (N_("Take the penalty"), N_("The player takes the Take 2 / Take 4 cards owed.")),
        "claim": (N_("Claim an out-of-turn discard"), N_("A player says they discarded the identical card.")),
        "settle_play": (N_("Settle who played"), N_("The host says who played the identical card.")),
        "call_solo": (N_("Call SOLO!"), N_("The player with one card left calls SOLO!.")),
        "catch_solo": (N_("Catch a missing SOLO!"), N_("A player caught another without SOLO!.")),
        "set_hand_size": (N_("Correct a hand size"), N_("The host corrects how many cards a player holds.")),
        "round_cards": (N_("Lay out a hand"), N_("The cards left in a player's hand, for scoring.")),
        "hold_card": (N_("Hold a card for the host"), N_("An identical black card seen while a pad claim is open waits for the host to say whose it is.")),
    },
    "raj": {
        "reveal_point": (N_("Point card turned over"), N_("The next point card is turned over.")),
        "bid_down": (N_("Bid down"), N_("The player has laid a bid face down.")),
        "bid": (N_("Bid revealed"), N_("A revealed bid card.")),
    },
    "hitthedeck": {
        "start_hand": (N_("Deal the hand"), N_("The dealer deals a new hand.")),
        "turn_up": (N_("First card turned up"), N_("The card that starts the discard pile.")),
        "play": (N_("Play a card"), N_("A player puts a card on the discard pile.")),
        "draw": (N_("Draw a card"), N_("The player takes a card from the draw pile.")),
        "pass": (N_("Pass"), N_("The player who drew cannot play it.")),
        "cut": (N_("Cut the deck"), N_("The player cuts the draw pile; the card shown goes on the discard pile.")),
        "flip": (N_("Flip the piles"), N_("The player flips both piles over; the card shown starts the discard pile.")),
        "slap": (N_("Slap"), N_("A player's hand hit the deck.")),
        "close_window": (N_("Close the slap"), N_("Everyone who had to slap has slapped, or time is up.")),
        "forgot_call": (N_("Forgot to call"), N_("The player of a HIT WITH A HAND did not call it.")),
        "fake_out": (N_("Slapped for nothing"), N_("A player slapped when no HIT card was played.")),
        "set_hand_size": (N_("Correct a hand size"), N_("The host corrects how many cards a player holds.")),
        "hand_cards": (N_("Lay out a hand"), N_("The cards left in a player's hand, for scoring.")),
    },
}


def _action(game: str | None, kind: str) -> tuple[str, str] | None:
    return ACTIONS.get(game or "", {}).get(kind) or ACTIONS["*"].get(kind)


def action_name(game: str | None, kind: str, lang: str) -> str:
    found = _action(game, kind)
    return t(found[0], lang) if found else t("an action this game does not know", lang)


def action_help(game: str | None, kind: str, lang: str) -> str:
    found = _action(game, kind)
    return t(found[1], lang) if found else ""


# Fields of actions and settings: (label, help) by game; "*" for every game.
FIELDS: dict[str, dict[str, tuple[str, str]]] = {
    "*": {
        "seat": (N_("Player"), ""),
        "card": (N_("Card"), ""),
        "cards": (N_("Cards"), ""),
        "colour": (N_("Colour"), ""),
        "target": (N_("Target score"), N_("The match ends when someone reaches it.")),
        "t_ns": (N_("When (table clock)"), N_("Filled in by the pads; leave empty.")),
        "exposed_card": (N_("Card shown"), ""),
        "count": (N_("Number of cards"), ""),
        "n": (N_("Number of cards"), ""),
        "with_seat": (N_("Swap with"), ""),
        "catcher": (N_("Caught by"), ""),
        "starter": (N_("First card"), ""),
        "hand_size": (N_("Cards dealt"), N_("How many cards each player is dealt.")),
        "totals": (N_("Totals"), N_("One per player, in seat order.")),
        "round": (N_("Round"), ""),
        "scores": (N_("Scores"), N_("One per player, in seat order.")),
    },
    "flip7": {
        "target": (N_("Player"), ""),
        "deal_to_holders": (N_("Deal to players who hold a card"), N_("During the deal, players who already hold a card are dealt one too.")),
        "coach": (N_("Coach"), N_("Each player's chance to bust and what one more Hit is worth: on the phones, or on the phones and the table screen.")),
    },
    "flip7.settings": {
        "target": (N_("Target score"), N_("The match ends when someone reaches it.")),
    },
    "solo": {
        "target": (N_("Caught player"), ""),
        "choose_points": (N_("Choose a colour is worth"), N_("50 in the printed rules, 40 in the online edition.")),
        "jump_black": (N_("Black cards out of turn"), N_("Allow discarding an identical black card out of turn.")),
    },
    "solo.settings": {
        "target": (N_("Target score"), N_("The match ends when someone reaches it.")),
    },
    "raj": {
        "show_used": (N_("Show the cards played"), N_("The table screen lists each player's used bid cards.")),
    },
    "hitthedeck": {
        "edition": (N_("Edition"), N_("The rule book the table plays by.")),
        "slap_timeout_ms": (N_("Time to slap (ms)"), N_("How long the players have to hit the deck.")),
        "tie_tolerance_ns": (N_("Slaps this close tie (ns)"), N_("Slaps closer together than this count as a tie.")),
        "repeat_guard_ns": (N_("Ignore a repeat slap within (ns)"), N_("A second press of the same pad this soon is ignored.")),
        "late_report_ms": (N_("Camera lateness allowed (ms)"), N_("How late the camera may report the card a slap is about.")),
    },
}

CHOICES = {
    "edition": {"en": N_("English"), "fr": N_("French")},
    "coach": {"off": N_("Off"), "phones": N_("On the phones"), "table": N_("On the phones and the table")},
}


def field_name(game: str | None, name: str, lang: str, settings: bool = False) -> str:
    found = _field(game, name, settings)
    return t(found[0], lang) if found else t("a setting this game does not know", lang)


def field_help(game: str | None, name: str, lang: str, settings: bool = False) -> str:
    found = _field(game, name, settings)
    return t(found[1], lang) if found and found[1] else ""


def _field(game: str | None, name: str, settings: bool) -> tuple[str, str] | None:
    if settings and (found := FIELDS.get(f"{game}.settings", {}).get(name)):
        return found
    return FIELDS.get(game or "", {}).get(name) or FIELDS["*"].get(name)


def choice_name(field: str, value: Any, lang: str) -> str:
    found = CHOICES.get(field, {}).get(value)
    return t(found, lang) if found else str(value)


def describe_action(game: str | None, action: Mapping[str, Any], speaker: Any) -> str:
    """An action in words, for "Undone: …": "Ann's Red 7", "Dan: Hit", "Red 4"."""
    lang = speaker.lang
    kind = str(action.get("type", ""))
    seat = next((action[k] for k in ("seat", "catcher") if isinstance(action.get(k), int)), None)
    card = next((action[k] for k in ("card", "exposed_card", "starter") if action.get(k)), None)
    if seat is not None and card is not None:
        return t("{seat}'s {card}", lang, seat=speaker.seat(seat), card=card_name(game, card, lang))
    if card is not None:
        return card_name(game, card, lang)
    name = action_name(game, kind, lang)
    if seat is not None:
        return t("{seat}: {action}", lang, seat=speaker.seat(seat), action=name)
    return name
