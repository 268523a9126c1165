"""English and French for every screen, chosen per device.

Screens write their words in English through `t(...)`; `FRENCH` holds the French for
each. A device's language is its `lang` cookie (set by the toggle), else its browser's
Accept-Language, else English. Notices from the engine are translated by their `code`
(`NOTICE_FR`), falling back to the engine's English text.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

LANGUAGES = ("en", "fr")

FRENCH: dict[str, str] = {
    "Deckhand": "Deckhand",
    "Table": "Table",
    "Scoreboard": "Tableau des scores",
    "Host": "Hôte",
    "History": "Historique",
    "Camera": "Caméra",
    "Players": "Joueurs",
    "No match yet": "Pas encore de partie",
    "The host starts a match from the host page.": "L'hôte lance une partie depuis la page hôte.",
    "Whose turn": "À qui de jouer",
    "Turn": "Tour",
    "to play": "à jouer",
    "Round": "Manche",
    "Rounds": "Manches",
    "of": "sur",
    "Dealer": "Donneur",
    "Scores": "Scores",
    "Total": "Total",
    "Standings": "Classement",
    "What just happened": "Ce qui vient de se passer",
    "Winner": "Gagnant",
    "Winners": "Gagnants",
    "The match is over": "La partie est terminée",
    "Score chart": "Courbe des scores",
    "Round scores": "Scores des manches",
    "Recent plays": "Derniers coups",
    "No round scored yet.": "Aucune manche comptée.",
    "This round": "Cette manche",
    "Top card": "Carte du dessus",
    "Demand": "Exigence",
    "Hand sizes": "Cartes en main",
    "Cards left in hand": "Cartes restées en main",
    "Out": "Sorti",
    "Last slap": "Dernière tape",
    "cards": "cartes",
    "Direction": "Sens",
    "clockwise": "horaire",
    "anticlockwise": "antihoraire",
    "Scan to follow on your phone": "Scannez pour suivre sur votre téléphone",
    "Host PIN": "Code hôte",
    "camera": "caméra",
    "Camera lost": "Caméra perdue",
    "Camera paused": "Caméra en pause",
    "Nothing can be recorded now: the table cannot write to its store.":
        "Rien ne peut être enregistré : la table ne peut pas écrire dans sa base.",
    "It goes on by itself once the store can be written again.":
        "Tout reprend seul dès que la base peut de nouveau être écrite.",
    "pads": "pads",
    "Status": "État",
    "live": "en direct",
    "reconnecting": "reconnexion",
    "Language": "Langue",
    # Coach mode, ranked slaps, sound
    "Coach": "Coach",
    "one more card, from the cards still unseen": "une carte de plus, parmi les cartes pas encore vues",
    "Player": "Joueur",
    "Bust chance": "Risque de sauter",
    "Hit: expected points": "Tirer : points espérés",
    "Stay: points": "Rester : points",
    "Slaps in order": "Les tapes dans l'ordre",
    "first": "premier",
    "draws": "pioche",
    "did not slap": "n'a pas tapé",
    "Sound on": "Son activé",
    "Sound off": "Son coupé",
    # The table screen, offline and joining (issue 13, screens)
    "Referee offline — reconnecting": "Arbitre hors ligne — reconnexion",
    "What you see may be out of date. The screen updates by itself when the referee is back.":
        "Ce qui est affiché n'est peut-être plus à jour. L'écran se remet à jour tout seul "
        "quand l'arbitre revient.",
    "Phones cannot join yet": "Les téléphones ne peuvent pas encore suivre",
    "The referee listens on this computer only. To let phones on the same network follow the game, restart it with:":
        "L'arbitre n'écoute que sur cet ordinateur. Pour que les téléphones du même réseau "
        "suivent la partie, relancez-le avec :",
    "HIT THE DECK!": "TAPE LE DECK !",
    "Follow the game": "Suivre la partie",
    "Take a seat": "Prendre une place",
    "Score sheet (CSV)": "Feuille de scores (CSV)",
    "Raw log (JSON lines)": "Journal brut (lignes JSON)",
    "Each zone is x, y, w, h: its top left corner and its size as fractions of the picture (0 to 1), as the command line's --zone takes them. Choose a zone, then drag a rectangle on the picture.":
        "Chaque zone s'écrit x, y, l, h : son coin en haut à gauche et sa taille, en fractions "
        "de l'image (de 0 à 1), comme l'option --zone de la ligne de commande. Choisissez une "
        "zone, puis tracez un rectangle sur l'image.",
    "Draw": "Tracer",
    "Zone": "Zone",
    "Remove": "Retirer",
    "New zone name": "Nom de la nouvelle zone",
    "Add zone": "Ajouter une zone",
    "Command line": "Ligne de commande",
    # Flip 7
    "Bust": "Éliminé",
    "Stayed": "Arrêté",
    "Frozen": "Gelé",
    "Active": "En jeu",
    "Second Chance": "Seconde chance",
    "Modifiers": "Bonus",
    "Flip 7!": "Flip 7 !",
    "Waiting for a target": "Cible à choisir",
    "Hit": "Tirer",
    "Stay": "Rester",
    "Deck": "Pioche",
    "round score": "score de la manche",
    # Raj
    "Point card": "Carte points",
    "Pot": "Pot",
    "Bids": "Mises",
    "Bid down": "Mise posée",
    "Waiting": "En attente",
    "Took": "A pris",
    "Cancelled": "Annulées",
    "Nobody took the pot": "Personne ne prend le pot",
    "The pot stays": "Le pot reste",
    "Point cards left": "Cartes points restantes",
    "Cards left": "Cartes restantes",
    "Void": "Nulle",
    "Collected": "Ramassé",
    "Last pot": "Dernier pot",
    # host
    "Host controls": "Commandes de l'hôte",
    "Enter the host PIN": "Entrez le code hôte",
    "Unlock": "Déverrouiller",
    "Lock": "Verrouiller",
    "Wrong PIN.": "Code erroné.",
    "Too many wrong PINs: try again later.": "Trop de codes erronés : réessayez plus tard.",
    "The PIN is shown on the table screen.": "Le code est affiché sur l'écran de la table.",
    "New match": "Nouvelle partie",
    "Game": "Jeu",
    "Seat": "Place",
    "Name": "Nom",
    "Colour": "Couleur",
    "Add a seat": "Ajouter une place",
    "Settings": "Réglages",
    "Start the match": "Lancer la partie",
    "Undo": "Annuler",
    "End the match": "Terminer la partie",
    "Pause camera": "Pause caméra",
    "Resume camera": "Reprendre la caméra",
    "Quick actions": "Actions rapides",
    "Any action": "Toute action",
    "Action": "Action",
    "Send": "Envoyer",
    "Clear": "Effacer",
    "Tap cards to add them": "Touchez les cartes pour les ajouter",
    "Done.": "Fait.",
    "Refused": "Refusé",
    "Action JSON": "Action en JSON",
    "Save": "Enregistrer",
    "Saved players": "Joueurs enregistrés",
    "Are you sure?": "Êtes-vous sûr ?",
    "none": "aucun",
    "red": "rouge",
    "green": "vert",
    "blue": "bleu",
    "yellow": "jaune",
    # pads
    "Pad": "Pad",
    "Tap to hit, hold to stay": "Touchez pour tirer, maintenez pour rester",
    "Press": "Appuyez",
    "Slap!": "Tapez !",
    "Claim an out-of-turn discard": "Je joue hors tour",
    "My bid is down": "Ma mise est posée",
    "Choose your seat": "Choisissez votre place",
    "Enter the host PIN to use a virtual pad.": "Entrez le code hôte pour utiliser un pad virtuel.",
    # camera
    "No camera": "Pas de caméra",
    "This table has no camera connected.": "Aucune caméra n'est branchée sur cette table.",
    "Detected cards": "Cartes détectées",
    "Zones": "Zones",
    "Teach a card": "Apprendre une carte",
    "Put one card under the camera, choose what it is, and press Teach.":
        "Posez une carte sous la caméra, choisissez laquelle c'est, puis appuyez sur Apprendre.",
    "Teach": "Apprendre",
    "Teach a deck live": "Apprendre un jeu en direct",
    "Lay one card, or a row of different cards, under the camera; name them left to right, separated by commas, and press Start. Then slide and turn the cards slowly until each has enough views.":
        "Posez une carte, ou une rangée de cartes différentes, sous la caméra ; nommez-les de gauche à droite, "
        "séparées par des virgules, puis appuyez sur Commencer. Faites ensuite glisser et tourner les cartes "
        "lentement jusqu'à ce que chacune ait assez de vues.",
    "e.g. Red 7, Green 7, Skip": "p. ex. 7 rouge, 7 vert, Passe",
    "Start": "Commencer",
    "Stop": "Arrêter",
    "Train now": "Entraîner maintenant",
    "Training": "Entraînement",
    "Calibrate zones": "Calibrer les zones",
    "Zones as JSON: name → [x0, y0, x1, y1], from 0 to 1.":
        "Zones en JSON : nom → [x0, y0, x1, y1], de 0 à 1.",
    # history
    "Matches": "Parties",
    "Date": "Date",
    "Ended": "Terminée",
    "unfinished": "non terminée",
    "Download CSV": "Télécharger le CSV",
    "No match played yet.": "Aucune partie jouée.",
    "Player profiles": "Profils des joueurs",
    # Host controls, seats joined by QR, the end of a match
    "As expected": "Comme prévu",
    "Cancel: go on playing it": "Annuler : continuer cette partie",
    "Correct the last card": "Corriger la dernière carte",
    "End it, then start the new match": "La terminer, puis lancer la nouvelle",
    "End the match now? Tap again to end it.": "Terminer la partie maintenant ? Touchez encore pour la terminer.",
    "Enter a card": "Saisir une carte",
    "Every round": "Toutes les manches",
    "Final result": "Résultat final",
    "Just watch the scoreboard": "Seulement suivre le tableau des scores",
    "Keep it unfinished (History can resume it), then start": "La garder inachevée (l'historique peut la reprendre), puis lancer",
    "Match summary": "Bilan de la partie",
    "More actions": "Autres actions",
    "Nothing to undo": "Rien à annuler",
    "Open seats": "Places libres",
    "Rematch": "Revanche",
    "Scan the code on the table screen again.": "Scannez de nouveau le code de l'écran de la table.",
    "Scan to take a seat: your own pad on your phone": "Scannez pour prendre une place : votre pad sur votre téléphone",
    "Take a seat": "Prendre une place",
    "Take the seat back": "Reprendre la place",
    "Tap a card to enter it": "Touchez une carte pour la saisir",
    "Tap again to confirm": "Touchez encore pour confirmer",
    "Tap the right card for {what}": "Touchez la bonne carte pour {what}",
    "Tap your name: this phone becomes your pad.": "Touchez votre nom : ce téléphone devient votre pad.",
    "The host took the seat back, or a new match began: scan the code on the table screen again.":
        "L'hôte a repris la place, ou une nouvelle partie a commencé : scannez de nouveau le code de l'écran de la table.",
    "This phone holds no seat": "Ce téléphone n'a pas de place",
    "This phone holds no seat: scan the code on the table screen.": "Ce téléphone n'a pas de place : scannez le code de l'écran de la table.",
    "That seat is taken: ask the host to free it.": "Cette place est prise : demandez à l'hôte de la libérer.",
    "There is no such seat.": "Cette place n'existe pas.",
    "Nobody holds that seat.": "Personne n'occupe cette place.",
    "Wait": "Attendez",
    "Your cards": "Vos cartes",
    "Your score": "Votre score",
    "Your turn": "À vous de jouer",
    "taken": "prise",
    "your seat": "votre place",
    "{name} to play": "{name} joue",
    "A match is being played: end it, or keep it unfinished to resume later?":
        "Une partie est en cours : la terminer, ou la garder inachevée pour la reprendre plus tard ?",
    # what Undo takes back, and the table screen's banner
    "the last action": "la dernière action",
    "{name}'s {card}": "{card} de {name}",
    "the {card}": "la carte {card}",
    "an action": "une action",
    "Undo {what}?": "Annuler {what} ?",
    "The host undid {what}.": "L'hôte a annulé {what}.",
    "The host corrected {old} to {new}.": "L'hôte a corrigé {old} en {new}.",
    "The host started a new match.": "L'hôte a lancé une nouvelle partie.",
    "The host ended the match.": "L'hôte a terminé la partie.",
    "The host took back {name}'s seat.": "L'hôte a repris la place de {name}.",
    "{name} joined from a phone.": "{name} a rejoint depuis un téléphone.",
    "The host entered {what}.": "L'hôte a saisi {what}.",
    "The host changed the table.": "L'hôte a modifié la table.",
    "The host corrected the scores of round {number}.": "L'hôte a corrigé les scores de la manche {number}.",
    "The host set the totals.": "L'hôte a fixé les totaux.",
    "gives the card away": "donne la carte", "draws a card": "pioche une carte",
    "passes": "passe", "slap": "tape", "the slap result": "le résultat de la tape",
    "fake-out": "fausse tape", "forgot to call": "a oublié d'annoncer", "bid is down": "mise posée",
    "names a colour": "annonce une couleur", "swaps hands": "échange les mains",
    "takes a penalty": "prend une pénalité", "claim": "réclamation",
    "settles the play": "règle le coup", "calls Solo": "annonce Solo",
    "catches a missed Solo": "attrape un Solo oublié", "hand size": "nombre de cartes",
    "hand laid out": "main étalée", "new hand": "nouvelle main",
    "the end of the match": "la fin de la partie", "new round": "nouvelle manche",
    # the game's own figures in the summary
    "Busts": "Éliminations", "Flip 7s": "Flip 7", "Slaps lost": "Tapes perdues",
    "Fake-outs": "Fausses tapes", "Cards collected": "Cartes ramassées",
    "Rounds won": "Manches gagnées", "Second Chances used": "Secondes chances utilisées",
    "Forgotten calls": "Annonces oubliées", "Out-of-turn discards": "Défausses hors tour",
    "Caught without Solo": "Pris sans Solo", "Catches": "Prises", "Penalties taken": "Pénalités prises",
    "Fouls": "Fautes",
    "Records": "Palmarès", "wins": "victoires", "matches": "parties", "Best score": "Meilleur score",
    "Correct a round's score": "Corriger le score d'une manche",
    "Save the correction": "Enregistrer la correction",
    "a round's score corrected": "le score d'une manche corrigé", "the totals set": "les totaux fixés",
}

# French notices by game and Notice.code ("*" for any game). In a template, {name} is the
# first seat the notice concerns, {other} the second, {names} all of them, {n0}, {n1}...
# the numbers of the English text in order (seat names taken out first), {numbers} all.
NOTICE_FR: dict[str, dict[str, str]] = {
    "*": {
        "undo": "Dernière action annulée.",
        "match_started": "Une nouvelle partie commence.",
    },
    "flip7": {
        "hit": "{name} tire.",
        "stay": "{name} s'arrête avec {n0}.",
        "bust": "{name} saute avec un deuxième {n0}.",
        "second_chance": "La Seconde chance de {name} le sauve.",
        "freeze": "{name} est gelé et encaisse {n0}.",
        "flip_three": "{name} doit prendre les trois cartes suivantes.",
        "chance_given": "{name} donne une Seconde chance à {other}.",
        "flip7": "{name} fait Flip 7 ! La manche s'arrête : +15.",
        "round_over": "La manche {n0} est terminée.",
        "reshuffle": "La pioche est vide : les cartes mises de côté sont mélangées.",
    },
    "raj": {
        "raj.bid_down": "La mise de {name} est posée.",
        "raj.reveal": "Toutes les mises sont posées : révélez !",
        "raj.bid": "{name} mise {n0}.",
        "raj.take": "{name} prend {n0}.",
        "raj.carry": "Toutes les mises s'annulent : le pot de {n0} reste pour la carte suivante.",
        "raj.nobody": "Toutes les mises s'annulent au dernier tour : personne ne prend {n0}.",
        "raj.cancelled": "Les mises égales s'annulent : {numbers}.",
        "match.over": "La partie est terminée : {names} l'emporte avec {n0}.",
    },
    "solo": {
        "miss": "{name} passe son tour.",
        "reverse": "Le sens du jeu change.",
        "penalty": "{name} doit prendre {n0} cartes ou les renvoyer.",
        "rotate": "Chacun passe sa main au joueur suivant dans le sens du jeu.",
        "swap": "{name} échange ses cartes avec {other}.",
        "penalty_taken": "{name} prend {n0} cartes et passe son tour.",
        "solo": "{name} : SOLO !",
        "solo_due": "{name} n'a plus qu'une carte : il faut dire SOLO !",
        "solo_caught": "{name} a surpris {other} sans SOLO ! : {other} prend {n0} cartes.",
        "hand_size": "{name} a {n0} carte(s).",
        "round_scored": "{name} marque {n0}.",
        "match_over": "La partie est terminée. Gagnant(s) : {names}.",
        "next_round": "{name} distribue la manche {n0}.",
        "out": "{name} n'a plus de cartes et gagne la manche : étalez les autres mains.",
        "reshuffle": "La pioche est vide : gardez la carte du dessus et mélangez le reste.",
    },
    "hitthedeck": {
        "went_out": "{name} n'a plus de cartes : la main est finie.",
        "fake_out": "{name} s'est fait piéger et pioche deux cartes ; le tour ne change pas.",
        "hand_size": "{name} a {n0} carte(s).",
        "hand_counted": "{name} marque {n0}.",
        "flip_due": "{name} retourne les deux piles ; le sens s'inverse.",
        "reshuffle": "La pioche est vide : gardez la carte du dessus et mélangez le reste.",
    },
}


# French prompts: the engine's English prompt matched whole; a prompt with no match stays
# in English. Groups keep names and numbers.
PROMPT_FR: dict[str, list[tuple[str, str]]] = {
    "flip7": [
        (r"Deal a card to (?P<a>.+)\.", "Donnez une carte à {a}."),
        (r"Flip a card for (?P<a>.+) \(Hit\)\.", "Retournez une carte pour {a} (tirer)."),
        (r"Flip a card for (?P<a>.+) \(Flip Three: (?P<n>\d+) to go\)\.",
         "Retournez une carte pour {a} (Flip Three : encore {n})."),
        (r"(?P<a>.+): Hit \(tap your pad\) or Stay \(hold it\)\.",
         "{a} : tirer (touchez votre pad) ou rester (maintenez-le)."),
        (r"(?P<a>.+) has no card yet: Hit \(tap your pad\)\.",
         "{a} n'a pas encore de carte : tirez (touchez votre pad)."),
    ],
    "raj": [
        (r"Turn over the next point card\.", "Retournez la carte points suivante."),
        (r"Lay your bid face down and press your pad: waiting for (?P<a>.+)\.",
         "Posez votre mise face cachée et appuyez sur votre pad : on attend {a}."),
        (r"Reveal the bids\.", "Révélez les mises."),
        (r"The game is over\.", "La partie est terminée."),
    ],
    "solo": [
        (r"(?P<a>.+) deals (?P<n>\d+) cards each and turns the top card over onto the discard pile\.",
         "{a} distribue {n} cartes à chacun et retourne la carte du dessus sur la défausse."),
        (r"(?P<a>.+): name a colour\.", "{a} : annoncez une couleur."),
        (r"(?P<a>.+): choose a player to swap cards with\.", "{a} : choisissez avec qui échanger."),
    ],
    "hitthedeck": [
        (r"(?P<a>.+) deals (?P<n>\d+) cards each\.", "{a} distribue {n} cartes à chacun."),
        (r"Turn up the top card of the draw pile to start the discard pile\.",
         "Retournez la carte du dessus de la pioche pour commencer la défausse."),
        (r"(?P<a>.+): play any card\.", "{a} : jouez n'importe quelle carte."),
        (r"(?P<a>.+): flip both piles over\.", "{a} : retournez les deux piles."),
        (r"(?P<a>.+): play the card you drew if you can, or pass\.",
         "{a} : jouez la carte piochée si vous pouvez, sinon passez."),
        (r"The match is over\.", "La partie est terminée."),
    ],
}


def prompt_text(prompt: str, lang: str, game: str | None) -> str:
    """The engine's prompt in `lang` (French where a pattern knows it)."""
    if lang != "fr":
        return prompt
    for pattern, template in PROMPT_FR.get(game or "", []):
        m = re.fullmatch(pattern, prompt)
        if m:
            return template.format(**m.groupdict())
    return prompt


def choose_language(cookie: str | None, accept: Any) -> str:
    """The device's language: its cookie, else the browser's preference, else English."""
    if cookie in LANGUAGES:
        return cookie
    best = accept.best_match(LANGUAGES) if accept is not None else None
    return best or "en"


def translate(text: str, lang: str) -> str:
    return FRENCH.get(text, text) if lang == "fr" else text


def notice_text(notice: Mapping[str, Any], names: Sequence[str], lang: str,
                game: str | None = None) -> str:
    """A notice in `lang`: the French template for its game and code, else its English
    text."""
    english = str(notice.get("text", ""))
    if lang != "fr":
        return english
    code = str(notice.get("code", ""))
    template = NOTICE_FR.get(game or "", {}).get(code) or NOTICE_FR["*"].get(code)
    if template is None:
        return english
    seats = [names[s] for s in notice.get("seats", []) if isinstance(s, int) and 0 <= s < len(names)]
    rest = english
    for name in sorted(set(names), key=len, reverse=True):
        rest = rest.replace(name, " ")
    found = re.findall(r"[+-]?\d+", rest)
    numbers = {f"n{i}": n for i, n in enumerate(found)}
    try:
        return template.format(name=seats[0] if seats else "", other=seats[1] if len(seats) > 1 else "",
                               names=", ".join(seats), numbers=", ".join(found), **numbers)
    except (KeyError, IndexError):
        return english
