"""Deckhand's own card designs and synthetic table scenes for testing the vision pipeline.

`cards` draws card faces and backs, `scene` composes table pictures with ground truth,
`sequence` strings scenes into short clips, `sheets` lays cards out on printable pages.
Everything is drawn with OpenCV primitives and Hershey fonts; nothing is read from disk.
"""
