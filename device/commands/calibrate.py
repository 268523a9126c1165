"""`deckhand calibrate`: find the table's zones (discard pile, reveal area, scoring
zone, one spot per seat) and save them in the config file's `[zones]` table.

It takes a snapshot from the camera, looks for the play mat in it (the largest
four-sided region that stands out from the table) and places the default layout for
the number of seats on the mat — or on the whole picture if no mat is found. Zones
given by hand (`--zone discard=0.4,0.35,0.2,0.3`) replace the layout's. `--snapshot
out.png` saves the picture with the zones drawn on it, to check them.

The layouts and the mat finder are plain functions (`mat_layout`, `find_mat`,
`place_on_mat`) so tests and the simulated table can use them.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Mapping

import cv2
import numpy as np

from web.messages import N_
from device.config import (ConfigError, Zone, check_zone_name, find_config_path, load_config, parse_zone,
                           write_zones)

MAX_SEATS = 10


def mat_layout(seats: int) -> dict[str, Zone]:
    """The default zones on a mat for `seats` players, in mat coordinates (0..1): the
    discard pile and the reveal area side by side in the middle, the scoring zone
    around them, and the seats' spots round the edge, seat 0 nearest the bottom of the
    picture and the others clockwise as seen from above."""
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"a mat layout has 1 to {MAX_SEATS} seats, not {seats}")
    zones = {
        "discard": Zone(0.32, 0.36, 0.16, 0.28),
        "reveal": Zone(0.52, 0.36, 0.16, 0.28),
        "scoring": Zone(0.25, 0.30, 0.50, 0.40),
    }
    size = 0.22 if seats <= 4 else 0.18 if seats <= 6 else 0.14
    for seat in range(seats):
        angle = math.pi / 2 + 2 * math.pi * seat / seats
        cx = 0.5 + (0.5 - size / 2 - 0.01) * math.cos(angle)
        cy = 0.5 + (0.5 - size / 2 - 0.01) * math.sin(angle)
        x = min(max(cx - size / 2, 0.0), 1.0 - size)
        y = min(max(cy - size / 2, 0.0), 1.0 - size)
        zones[f"seat:{seat}"] = Zone(round(x, 4), round(y, 4), size, size)
    return zones


def find_mat(image: np.ndarray, *, min_fraction: float = 0.2) -> Zone | None:
    """The play mat's bounding box in normalized coordinates, or None: the largest
    roughly four-sided region covering at least `min_fraction` of the picture and less
    than all of it, found on edges and on a brightness split (whichever finds one)."""
    height, width = image.shape[:2]
    blurred = cv2.GaussianBlur(image, (5, 5), 0)
    masks = []
    # A mat differs from the table in brightness or in colour (green felt on brown
    # wood): split each channel of Lab in two, both ways round, and add colour edges.
    for channel in cv2.split(cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB)):
        _, split = cv2.threshold(channel, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks += [split, 255 - split]
    edges = np.max([cv2.Canny(channel, 40, 120) for channel in cv2.split(blurred)], axis=0)
    masks.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    best = None
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if not min_fraction * width * height <= area <= 0.97 * width * height:
                continue
            approx = cv2.approxPolyDP(contour, 0.03 * cv2.arcLength(contour, True), True)
            if not 4 <= len(approx) <= 6:
                continue
            x, y, w, h = cv2.boundingRect(approx)
            if area < 0.8 * w * h:   # not filled like a mat
                continue
            if best is None or area > best[0]:
                best = (area, (x, y, w, h))
    if best is None:
        return None
    x, y, w, h = best[1]
    return Zone(x / width, y / height, w / width, h / height)


def place_on_mat(layout: Mapping[str, Zone], mat: Zone) -> dict[str, Zone]:
    """Mat coordinates -> picture coordinates."""
    return {name: Zone(round(mat.x + z.x * mat.w, 4), round(mat.y + z.y * mat.h, 4),
                       round(z.w * mat.w, 4), round(z.h * mat.h, 4))
            for name, z in layout.items()}


def parse_zone_argument(text: str) -> tuple[str, Zone]:
    """"discard=0.4,0.35,0.2,0.3" -> ("discard", Zone(...)); ConfigError naming it."""
    name, sep, numbers = text.partition("=")
    if not sep:
        raise ConfigError(f"--zone {text}", "write NAME=x,y,w,h, e.g. discard=0.4,0.35,0.2,0.3",
                          "calibrate.zone_format")
    name = name.strip()
    check_zone_name(name, f"--zone {name}")
    return name, parse_zone(numbers, f"--zone {name}")


def draw_zones(image: np.ndarray, zones: Mapping[str, Zone]) -> np.ndarray:
    out = image.copy()
    height, width = out.shape[:2]
    for name, zone in zones.items():
        x, y, w, h = zone.to_pixels(width, height)
        colour = (0, 200, 255) if name.startswith("seat:") else (255, 200, 0)
        cv2.rectangle(out, (x, y), (x + w - 1, y + h - 1), colour, 2)
        cv2.putText(out, name, (x + 4, y + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    return out


def add_parser(sub: argparse._SubParsersAction) -> None:
    from device.commands.words import LANGUAGE_HELP
    parser = sub.add_parser("calibrate", help=N_("find the table's zones from a camera snapshot and save them"),
                            description=N_("Find the table's zones (discard pile, reveal area, scoring zone, one spot per "
                                           "seat) from a camera snapshot and save them in the config file's [zones] table."), epilog=LANGUAGE_HELP)
    parser.add_argument("--config", metavar=N_("FILE"), help=N_("config file to update (default: $DECKHAND_CONFIG, "
                           "/etc/deckhand/deckhand.toml, ~/.config/deckhand/deckhand.toml)"))
    parser.add_argument("--camera", metavar=N_("SOURCE"), help=N_("camera source (default: the config's, else auto)"))
    parser.add_argument("--seats", type=int, metavar=N_("NUMBER"), help=N_("number of seats (default: the config's [seats])"))
    parser.add_argument("--zone", action="append", default=[], metavar=N_("NAME=x,y,w,h"),
                        help=N_("set a zone by hand (normalized 0..1); may be repeated"))
    parser.add_argument("--no-mat", action="store_true", help=N_("do not look for a mat: lay out on the whole picture"))
    parser.add_argument("--snapshot", metavar=N_("FILE"), help=N_("save the snapshot with the zones drawn to this PNG"))
    parser.add_argument("--dry-run", action="store_true", help=N_("print the zones, write nothing"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.commands.words import Words
    words = Words.of_shell()
    try:
        return _run(args, words)
    except ConfigError as exc:   # the config file, a zone, --seats or --camera
        print(f"deckhand calibrate: {words.say(exc.said) if exc.said else exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace, words) -> int:
    from device.camera.auto import open_source
    from device.camera.base import CameraLost, SourceError

    path = find_config_path(args.config)
    if path is None:
        path = Path.home() / ".config" / "deckhand" / "deckhand.toml"
    config = load_config(path) if path.exists() else load_config(None)
    by_hand = dict(parse_zone_argument(text) for text in args.zone)
    seats = args.seats if args.seats is not None else len(config.seats)
    if (args.seats is not None or seats) and not 1 <= seats <= MAX_SEATS:
        key = "--seats" if args.seats is not None else "seats"
        raise ConfigError(key, f"must be 1 to {MAX_SEATS}, not {seats}", "calibrate.seats_range",
                          high=MAX_SEATS, count=seats)

    spec = args.camera or config.camera.source
    snapshot = None
    try:
        try:
            source, _ = open_source(spec, config.camera.size, config.camera.fps, realtime=False, resilient=False)
        except ValueError as exc:   # not a camera spec (device.camera.auto.parse_spec)
            raise ConfigError("--camera", str(exc), "calibrate.bad_camera", camera=spec) from None
        try:
            frame = next(iter(source.frames()), None)
        finally:
            source.close()
        if frame is None:
            raise SourceError(f"{spec}: gave no picture", "camera.no_picture", camera=spec)
        snapshot = frame.image
        camera = getattr(source, "name", spec)
        print(words("calibrate.camera", camera=camera, width=snapshot.shape[1], height=snapshot.shape[0]))
        if camera == "sim" and spec != "sim":
            print(words("calibrate.simulated"))
    except (SourceError, CameraLost) as exc:
        detail = camera_problem(exc)
        if not by_hand or seats:
            print("deckhand calibrate: " + words("calibrate.no_snapshot", camera=spec, why=detail), file=sys.stderr)
            print("  " + words("calibrate.check_camera"), file=sys.stderr)
            return 1
        print(words("calibrate.by_hand_only", camera=spec, why=detail))

    zones: dict[str, Zone] = {}
    if seats:
        mat = None if args.no_mat or snapshot is None else find_mat(snapshot)
        if mat is None:
            mat = Zone(0.0, 0.0, 1.0, 1.0)
            print(words("calibrate.mat_not_looked_for" if args.no_mat else "calibrate.mat_not_found"))
        else:
            print(words("calibrate.mat_found", x=mat.x, y=mat.y, w=mat.w, h=mat.h))
        zones = place_on_mat(mat_layout(seats), mat)
    elif not by_hand:
        raise ConfigError("--seats", "say how many seats (the config has no [seats]) or give zones with --zone",
                          "calibrate.no_seats")
    zones.update(by_hand)

    for name, zone in sorted(zones.items()):
        line = words("calibrate.zone_by_hand" if name in by_hand else "calibrate.zone",
                     zone=f"{name:8s}", x=zone.x, y=zone.y, w=zone.w, h=zone.h)
        print("  " + line)
    if args.snapshot:
        if snapshot is None:
            print(words("calibrate.no_snapshot_to_save"), file=sys.stderr)
        else:
            cv2.imwrite(args.snapshot, draw_zones(snapshot, zones))
            print(words("calibrate.snapshot_saved", path=args.snapshot))
    if args.dry_run:
        print(words("calibrate.dry_run"))
        return 0
    try:
        write_zones(path, zones)
    except OSError:
        print("deckhand calibrate: " + words("calibrate.not_written", path=str(path)), file=sys.stderr)
        return 1
    print(words("calibrate.written", path=str(path)))
    return 0


def camera_problem(exc: Exception) -> dict | str:
    """Why the camera gave no snapshot: its message (device.camera's `said`) where it has
    one, else its text."""
    return getattr(exc, "said", None) or str(exc)
