"""The hardware and the running appliance: camera sources, GPIO pads and LEDs, the
SQLite event store, configuration, and the `deckhand` command (`device.cli`).
This package is the composition root: it may import every other part of Deckhand."""
