"""One blueprint per screen: `screens` (table, phone, pads, language), `host`,
`api` (JSON and the live stream), `history`, `vision` (camera teaching/calibration)."""
