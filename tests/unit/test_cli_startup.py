"""`gmserver` loads what the command given needs and no more: the parser and `--help` load none of
the heavy libraries nor the layers behind the commands, and `orders read` needs neither the
database nor the daemon nor (its map facts cached) the engine. Each runs in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.cli import modules_among, modules_loaded_by

REPO = Path(__file__).parents[2]

LIBRARIES = ("sqlalchemy", "alembic", "aiosmtpd", "apscheduler", "jinja2", "diplomacy", "PIL")
LAYERS = ("gmserver.daemon", "gmserver.db", "gmserver.services", "gmserver.mail", "gmserver.reports",
          "gmserver.engine", "gmserver.rules.reading")


def test_help_loads_no_heavy_library_and_no_layer_behind_the_commands(tmp_path: Path) -> None:
    loaded = modules_loaded_by(["--help"], tmp_path)
    assert "gmserver.cli" in loaded
    assert modules_among(loaded, LIBRARIES) == []
    assert modules_among(loaded, LAYERS) == []


def test_help_lists_the_groups_from_a_table_and_builds_none(tmp_path: Path) -> None:
    """`gmserver --help` imports no group's module and not the command registry; `gmserver game
    --help` imports the game group's modules and the registry, and no other group's module."""
    loaded = modules_loaded_by(["--help"], tmp_path)
    assert modules_among(loaded, ("gmserver.commands",)) == []
    assert [m for m in modules_among(loaded, ("gmserver.cli",)) if m != "gmserver.cli"] == ["gmserver.cli.parser"]
    assert "gmserver.config" not in loaded  # the configuration's floor is the commands' own
    loaded = modules_loaded_by(["--config", "nowhere.toml", "game", "--help"], tmp_path)
    assert "gmserver.commands.registry" in loaded and "gmserver.cli.game" in loaded
    assert modules_among(loaded, ("gmserver.cli.outbox", "gmserver.cli.daemon", "gmserver.cli.orders",
                                  "gmserver.cli.press", "gmserver.cli.db")) == []
    assert modules_among(loaded, LIBRARIES) == [] and modules_among(loaded, LAYERS) == []


def test_orders_read_loads_neither_the_database_nor_the_daemon_nor_the_engine(tmp_path: Path) -> None:
    argv = ["orders", "read", "--power", "France"]
    modules_loaded_by(argv, tmp_path, stdin="A Par - Bur\n")  # the first use builds the engine's map facts
    loaded = modules_loaded_by(argv, tmp_path, stdin="A Par - Bur\nF Bre - Mao\n")
    assert "gmserver.rules.reading" in loaded
    assert modules_among(loaded, LIBRARIES) == []
    assert modules_among(loaded, ("gmserver.daemon", "gmserver.db", "gmserver.services", "gmserver.mail")) == []
    # it needs neither the configuration nor the sender checks' libraries (a fifth of its cost)
    assert modules_among(loaded, ("gmserver.config", "gmserver.rules.authenticity", "importlib.metadata")) == []


def test_an_error_of_a_command_is_still_one_readable_line(tmp_path: Path) -> None:
    """main() no longer loads the modules whose errors it prints: a command's own error still comes
    out as one line, not a traceback."""
    done = subprocess.run([sys.executable, "-m", "gmserver", "orders", "read", "--power", "France", "--ruleset",
                           "nosuchprofile"], input="A Par - Bur\n", capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "GMSERVER_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 2
    assert done.stderr.startswith("gmserver: error: ") and "Traceback" not in done.stderr
    assert "nosuchprofile" in done.stderr
