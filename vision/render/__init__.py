"""Deckhand's own card designs and synthetic table scenes for testing the vision pipeline.

`cards` draws card faces and backs (from `canvas` and `icons` primitives), `scene` makes
random table pictures with ground truth (`stage` takes the picture, `layout` places
cards and hands, `table`, `camera` and `hands` supply textures, optics and light, and
things that are not cards), `sequence` strings frames into clips of play, `sheets` lays
cards out on printable pages. Everything is drawn with OpenCV primitives and Hershey
fonts; nothing is read from disk.
"""
