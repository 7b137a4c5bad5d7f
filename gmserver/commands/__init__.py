"""The GM's commands, one module each (command.py says what a command is; registry.py collects
them). Importing this package loads nothing: the registry is gmserver.commands.registry."""
