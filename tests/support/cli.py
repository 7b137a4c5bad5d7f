"""The command line as the CLI tests drive it: a config file, `gmserver ...` in-process, the seven
players' --player arguments."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gmserver.cli import main
from gmserver.services.games import POWERS


def write_config(directory: Path, database_url: str | None = None) -> Path:
    """gmserver.toml in `directory`: the database (SQLite in `directory` unless given), the GM's
    address, and outgoing mail to a Maildir there (`sent`)."""
    path = directory / "gmserver.toml"
    url = database_url or f"sqlite:///{directory / 'gm.db'}"
    path.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "gm@gm.test"\n'
                    f'[outbound.maildir]\npath = "{directory / "sent"}"\n')
    return path


def run(config: Path, *args: str) -> int:
    """`gmserver --config CONFIG ARGS...`, in this process; its exit status."""
    return main(["--config", str(config), *args])


def exit_status(config: Path, *args: str) -> int:
    """`run`, and the status of an argument argparse refused (it exits instead of returning)."""
    try:
        return run(config, *args)
    except SystemExit as exit_:
        return int(exit_.code or 0)


def player_args(address: Callable[[str], str] = lambda power: f"{power.lower()}@players.test") -> list[str]:
    """--player POWER=ADDRESS for each of the seven powers."""
    return [arg for power in POWERS for arg in ("--player", f"{power}={address(power)}")]
