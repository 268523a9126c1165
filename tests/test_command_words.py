"""The host's words at `deckhand teach`, `recognize` and `calibrate`: every sentence comes
from the catalog in the shell's language (its locale), the reasons vision, the config
and the cameras give keep their params (which photo, which line, which zone), and the
JSON for programs keeps its codes in every language. (A whole teaching run in French:
tests/test_vision_teach.py.)"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cli import main as deckhand
from web import messages
from web.words import locale_language

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("environ, lang", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),               # a language Deckhand does not speak
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "fr_BE.UTF-8@euro", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"}, "fr"),   # gettext's list of preferences
    ({"LANGUAGE": "en", "LC_ALL": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
])
def test_a_command_speaks_the_shells_language(environ, lang):
    assert locale_language(environ) == lang


def test_a_folder_where_no_photo_teaches_names_every_bad_photo_in_french(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    cv2.imwrite(str(tmp_path / "table.png"), np.full((300, 400, 3), 90, np.uint8))
    (tmp_path / "labels.csv").write_text("file,label\ntable.png,Rouge 7\nparti.png,Bleu 2\n")
    assert deckhand(["teach", "--images", str(tmp_path), "--labels", str(tmp_path / "labels.csv"),
                     "--out", str(tmp_path / "deck")]) == 2
    said = capsys.readouterr()
    assert "2 photos n'ont rien appris (reprenez-les, la carte entière et à plat) :" in said.out
    assert "  table.png : aucune carte trouvée (posez la carte à plat" in said.out
    assert "  parti.png : absente, ou pas une image que Deckhand sait lire" in said.out
    assert said.err == "deckhand teach: aucune photo n'a pu être apprise\n"
    assert not (tmp_path / "deck.npz").exists()


@pytest.mark.parametrize("text, french", [
    ("file,label\na.png,x\nb.png,\n", "labels.csv, ligne 3 : b.png n'a pas de nom de carte"),
    ("file,label\n,x\n", "labels.csv, ligne 2 : aucune photo nommée"),
    ("name,label\na.png,x\n", "labels.csv : la première ligne doit nommer les colonnes file,label"),
    ("file,label\n", "labels.csv ne cite aucune photo"),
])
def test_a_bad_labels_file_is_refused_in_french_naming_the_place(tmp_path, capsys, monkeypatch, text, french):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    (tmp_path / "labels.csv").write_text(text)
    assert deckhand(["teach", "--images", str(tmp_path), "--labels", str(tmp_path / "labels.csv"),
                     "--out", str(tmp_path / "deck")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deckhand teach: ") and french in err and "'" not in err.replace("n'", "")


def test_a_labels_file_that_is_not_text_is_refused_in_words(tmp_path, capsys):
    (tmp_path / "labels.csv").write_bytes(b"\xff\xfe\x00\x81 not text")
    assert deckhand(["teach", "--images", str(tmp_path), "--labels", str(tmp_path / "labels.csv"),
                     "--out", str(tmp_path / "deck")]) == 2
    assert capsys.readouterr().err == f"deckhand teach: {tmp_path / 'labels.csv'} is not a text (CSV) file\n"


def test_recognize_says_its_errors_in_french_and_keeps_the_json_codes(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert deckhand(["recognize", "--profile", "flip8", "table.png"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deckhand recognize: il n'y a ni jeu intégré ni fichier de profil « flip8 » ; "
                          "les jeux intégrés sont hitthedeck, ")
    assert err.rstrip().endswith(" et raj/alt")
    (tmp_path / "bad.npz").write_text("not a profile")
    assert deckhand(["recognize", "--profile", str(tmp_path / "bad.npz"), "table.png"]) == 2
    assert capsys.readouterr().err == (f"deckhand recognize: {tmp_path / 'bad.npz'} "
                                       "n'est pas un profil de jeu de Deckhand\n")
    cv2.imwrite(str(tmp_path / "small.png"), np.full((60, 80, 3), 90, np.uint8))
    cv2.imwrite(str(tmp_path / "empty.png"), np.full((120, 160, 3), 90, np.uint8))
    code = deckhand(["recognize", "--profile", "flip7", "--empty", str(tmp_path / "empty.png"),
                     str(tmp_path / "missing.png"), str(tmp_path / "small.png")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1
    assert [(line["error"], line["message"]) for line in lines] == [
        ("unreadable", "absente, ou pas une image que Deckhand sait lire"),
        ("not_empty_size", "pas de la taille de l'image de la table vide")]


def test_calibrate_speaks_french(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    path = tmp_path / "deckhand.toml"
    path.write_text("[seats.0]\npad = 17\n[seats.1]\npad = 27\n")
    assert deckhand(["calibrate", "--config", str(path), "--camera", "sim", "--dry-run",
                     "--zone", "discard=0.4,0.35,0.2,0.3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Caméra : sim ; instantané 640×480.\nTapis : trouvé à x=")
    assert "  discard  x=0.400 y=0.350 l=0.200 h=0.300 (à la main)\n" in out
    assert out.endswith("Essai à blanc : rien n'est écrit.\n")
    for argv, french in [
        (["--zone", "nowhere=0,0,1,1"], "--zone nowhere : il n'y a pas de zone « nowhere » (les zones sont discard, "
                                        "reveal et scoring, et seat:N pour une place)"),
        (["--zone", "discard=0.9,0.1,0.2,0.1"], "--zone discard dépasse le bord de l'image (x+l = 1.1, y+h = 0.2 ;"),
        (["--seats", "12"], "--seats : une table a de 1 à 10 places, pas 12"),
        (["--camera", "webcam"], "--camera : « webcam » n'est pas une caméra : utilisez auto, picam"),
    ]:
        assert deckhand(["calibrate", "--config", str(path), "--camera", "sim", *argv]) == 2
        assert capsys.readouterr().err.startswith("deckhand calibrate: " + french)
    for text, french in [("[seats.0]\npad = 99\n", "seats.0.pad : BCM 99 n'est pas une broche GPIO du connecteur "
                                                      "(utilisez 2 à 27)"),
                         ("[seats.0]\npad = 17\npda = 3\n", "seats.0.pda : clé inconnue (les clés connues sont led et pad)"),
                         ("[camera\n", f"{tmp_path / 'bad.toml'} n'est pas du TOML valide (ligne 1, colonne 8)")]:
        (tmp_path / "bad.toml").write_text(text)
        assert deckhand(["calibrate", "--config", str(tmp_path / "bad.toml"), "--camera", "sim"]) == 2
        assert capsys.readouterr().err == f"deckhand calibrate: {french}\n"
    assert deckhand(["calibrate", "--config", str(path), "--camera", f"replay:{tmp_path / 'gone'}"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"deckhand calibrate: pas d'instantané de la caméra replay:{tmp_path / 'gone'} : "
                          f"il n'y a pas de fichier ou de dossier {tmp_path / 'gone'}\n  Vérifiez la caméra")


def _reasons_in(folder: str) -> list[tuple[str, str, set[str]]]:
    """(file, code, params given) of every reason given as a code in `folder`:
    `why("code", english, **params)`, `Why("code", {params}, english)` (vision),
    `ConfigError(key, english, "code", **params)` (its key is a param too) and
    `SourceError` / `CameraLost(english, "code", **params)` (device)."""
    found = []
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            at = {"why": 0, "Why": 0, "ConfigError": 2, "SourceError": 1, "CameraLost": 1}.get(name)
            if at is None or len(node.args) <= at or not isinstance(node.args[at], ast.Constant) \
                    or not isinstance(node.args[at].value, str) or not node.args[at].value:
                continue   # not a code ("": plain English, vision.why.WhyError's fallback)
            params = {k.arg for k in node.keywords if k.arg}
            if name == "Why" and len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
                params = {k.value for k in node.args[1].keys}
            if name == "ConfigError":
                params.add("key")
            found.append((path.name, node.args[at].value, params))
    return found


@pytest.mark.parametrize("folder, least", [("vision", 25), ("device", 50)])
def test_every_reason_given_as_a_code_has_a_sentence_that_its_params_fill(folder, least):
    reasons = _reasons_in(folder)
    assert len(reasons) >= least
    for file, code, params in reasons:
        entry = messages.lookup(None, code)
        assert entry is not None, f"{file}: {code} has no sentence in web/messages.py"
        texts = entry[:2] if isinstance(entry, tuple) else (entry,)
        wanted = {p.split(":")[0] for text in texts for p in re.findall(r"{([^{}]+)}", text)}
        assert wanted <= params | {"n"}, f"{file}: {code} gives {sorted(params)}, its sentence needs {sorted(wanted)}"


def test_run_refuses_in_french(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert deckhand(["run", "--game", "raj", "--players", "9"]) == 2
    assert capsys.readouterr().err == "deckhand run: Raj se joue de 2 à 5 joueurs à la table simulée, pas 9\n"
    assert deckhand(["run", "--game", "chess"]) == 2
    assert capsys.readouterr().err.startswith("deckhand run: il n'y a pas de jeu « chess » ; choisissez flip7, ")
    assert deckhand(["run", "--speed", "0"]) == 2
    assert capsys.readouterr().err == "deckhand run: --speed doit être plus grand que 0\n"


def test_run_says_where_phones_join_in_french(tmp_path, monkeypatch):
    from device.commands.run import welcome_lines
    from device.commands.words import Words
    from device.store import EventStore
    from device.table import LiveTable
    from web.app import create_app

    with EventStore(tmp_path / "w.db") as store:
        app = create_app(LiveTable(store), listen="127.0.0.1")
        pin = app.config["DECKHAND_HOST_PIN"]
        assert welcome_lines(app, "127.0.0.1", 8000, Words("fr")) == [
            "Deckhand : les téléphones ne peuvent pas rejoindre la table : le serveur écoute sur 127.0.0.1 (cet "
            "ordinateur seulement) ; pour laisser entrer les téléphones du réseau, lancez "
            "`deckhand run --bind 0.0.0.0`",
            f"Deckhand : code de l'hôte pour cette fois : {pin} (choisissez le vôtre avec --host-pin ou "
            "host_pin_hash dans la configuration)"]


def test_check_reports_in_french(tmp_path, capsys, monkeypatch):
    import socket
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        path = tmp_path / "deckhand.toml"
        path.write_text(f'[camera]\nsource = "sim"\n[store]\npath = "{tmp_path}/d.sqlite3"\n'
                        f'[server]\nbind = "127.0.0.1"\nport = {port}\n')
        assert deckhand(["check", "--config", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (f"[ok    ] config. {path} : pas de pads, caméra sim 640×480 et 0 zone")
    assert lines[1].startswith("[ok    ] caméra  sim : première image 640×480 en ")
    assert lines[2].startswith("[avert.] broches aucun pad configuré ([seats] dans la configuration)")
    assert any(line.startswith(f"[ÉCHEC ] écran   le port {port} sur 127.0.0.1 est déjà pris (Deckhand "
                               "tourne-t-il déjà ?)") for line in lines), lines
    assert lines[-1] == "1 problème"
    path.write_text("[seats.0]\npad = 99\n")
    assert deckhand(["check", "--config", str(path)]) == 1
    assert capsys.readouterr().out == ("[ÉCHEC ] config. seats.0.pad : BCM 99 n'est pas une broche GPIO du "
                                       "connecteur (utilisez 2 à 27)\n")


def test_simulate_prints_its_statistics_in_french(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert deckhand(["simulate", "--game", "flip7", "--players", "3", "--rounds", "40"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("jeu : Flip 7\njoueurs : 3\nmanches : 40\ngraine : 0\n")
    assert "\npar place :\n  - place 1 : stratégie stay:25, score moyen d'une manche " in out
    assert re.search(r"\ndurée : \d+,\d+ s \([\d\u202f\u00a0 ]+ manches/s\)\n$", out)
    assert "_" not in out.replace("stay:25", "")
    assert deckhand(["simulate", "--game", "hitthedeck", "--strategy", "psychic"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deckhand simulate: Stratégie Hit the Deck inconnue « psychic » ; connues : ")
    assert " et " in err and err.endswith(".\n")


def test_install_dry_run_in_french(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert deckhand(["install", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("[1/") and "] paquets Debian (la pile de la caméra ne marche qu'avec eux) : apt-get install" in lines[0]
    assert any(line.endswith("] recharger systemd : systemctl daemon-reload") for line in lines)
    assert lines[-1] == "essai à blanc : rien n'a été changé"


def _english_prints(tree: ast.AST, where: str) -> list[str]:
    """print() calls whose text is written in the source ("..." or f"...") beyond the
    command's own name ("deckhand run: "): English no catalog translates."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" and node.args):
            continue
        first = node.args[0]
        parts = [first.value] if isinstance(first, ast.Constant) and isinstance(first.value, str) else \
            [v.value for v in first.values if isinstance(v, ast.Constant)] if isinstance(first, ast.JoinedStr) else []
        text = re.sub(r"^deckhand [a-z]+: ", "", "".join(parts))
        if re.search(r"[A-Za-z]{2}", text):
            found.append(f"{where}:{node.lineno}: {text[:60]!r}")
    return found


def test_no_command_prints_english_written_in_its_source():
    found = []
    for path in sorted((ROOT / "device").rglob("*.py")):   # the commands and all they call
        found += _english_prints(ast.parse(path.read_text(encoding="utf-8")), path.name)
    assert found == []


def test_the_command_scan_finds_english():
    sample = ast.parse('print("install needs root")\nprint(f"deckhand run: {x}")\n'
                       'print(f"deckhand run: unknown game {g}")\nprint(words("run.speed"))\n')
    assert [line.split(":")[1] for line in _english_prints(sample, "sample")] == ["1", "3"]
