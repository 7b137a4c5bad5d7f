"""The GM's commands (by mail and the command line's game controls). Imports the floors
below."""
