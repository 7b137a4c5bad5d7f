"""The command line as the CLI tests drive it: a config file, `gmserver ...` in-process, the seven
players' --player arguments."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from gmserver.cli import main
from gmserver.services.game.games import POWERS


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


def modules_loaded_by(argv: list[str], cache: Path, stdin: str = "") -> list[str]:
    """The modules `gmserver ARGV` has loaded when it ends (exit included: --help ends with one),
    run in a fresh interpreter with the engine's map facts kept in `cache`."""
    code = ("import json, sys\nfrom gmserver.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
            "    pass\nsys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code, *argv], input=stdin, capture_output=True, text=True,
                          cwd=Path(__file__).parents[2], env={**os.environ, "GMSERVER_CACHE_DIR": str(cache)},
                          check=True)
    return json.loads(done.stderr.rpartition("\nMODULES ")[2])


def modules_among(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """The `modules` that are one of `names` or inside one of them."""
    return [m for m in modules if any(m == name or m.startswith(name + ".") for name in names)]
