"""Camera sources: one small interface (`FrameSource`: `frames()` yields `Frame`s, then
`close()`) with picamera2, USB webcam (OpenCV), replay of a file or folder, and the
simulated table behind it; `ResilientSource` survives a lost camera; `open_source` /
`choose_auto` turn a `--camera` spec into a source.

Import what you need from the submodules; this package imports nothing heavy itself."""
