"""Where the project's data directories live.

The brief puts `templates/`, `config/` and `migrations/` at the top of the repository, beside
the package; gmserver runs from a checkout (editable install, or the Docker image's copy of it).
"""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TEMPLATES_DIR = PROJECT_ROOT / "templates"
CONFIG_DIR = PROJECT_ROOT / "config"
RULESETS_DIR = CONFIG_DIR / "rulesets"
MIGRATIONS_DIR = PROJECT_ROOT / "migrations"
