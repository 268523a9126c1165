"""One module per `deckhand` sub-command. Each defines `add_parser(subparsers)` (which
registers the sub-command and sets `func` to a function taking the parsed args and
returning an exit code)."""
