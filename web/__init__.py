"""The Flask application: table screen, phone scoreboard, host controls, live updates."""
