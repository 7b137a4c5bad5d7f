"""The player commands, one module each (gmserver/commands/player_command.py says what one is;
gmserver/commands/registry.py lists them in `PLAYER_COMMANDS`)."""
