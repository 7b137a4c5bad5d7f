"""Where the project's data directories live.

The brief puts `templates/`, `config/` and `migrations/` at the top of the repository, beside
the package; gmserver runs from a checkout (editable install, or the Docker image's copy of it).
"""

import os
from collections.abc import Mapping
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TEMPLATES_DIR = PROJECT_ROOT / "templates"
CONFIG_DIR = PROJECT_ROOT / "config"
RULESETS_DIR = CONFIG_DIR / "rulesets"
MIGRATIONS_DIR = PROJECT_ROOT / "migrations"

CACHE_DIR_VARIABLE = "GMSERVER_CACHE_DIR"


def cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where gmserver keeps what it derives once and reuses in every process (the engine's map
    facts): $GMSERVER_CACHE_DIR, else $XDG_CACHE_HOME/gmserver, else ~/.cache/gmserver."""
    if environ.get(CACHE_DIR_VARIABLE):
        return Path(environ[CACHE_DIR_VARIABLE])
    base = environ.get("XDG_CACHE_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "gmserver"
