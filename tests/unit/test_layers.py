"""The layers hold: read from every module's imports with `ast`, without importing anything.

- gmserver/rules is the pure core: it imports from gmserver only gmserver.rules and
  gmserver.paths (where the ruleset profiles are), and no library that does I/O.
- gmserver/engine.py is the only module that imports the `diplomacy` engine (AGPL, slow to load).
- cli.py (with its command groups, cli_*.py), daemon.py and demo.py reach the database through the
  services: they import neither SQLAlchemy nor the models nor the queries.

Every import counts, at the top of a module or inside a function. Allowed exceptions: none.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gmserver"

# What gmserver.rules may import from gmserver itself.
RULES_MAY_IMPORT = ("gmserver.rules", "gmserver.paths")

# Libraries that talk to the network, the database, other processes or the clock's scheduler.
# (authres and publicsuffixlist, which rules/authenticity.py uses, only parse strings.)
IO_LIBRARIES = (
    "sqlalchemy", "alembic", "psycopg", "psycopg2",  # the database
    "imapclient", "imaplib", "aiosmtpd", "smtplib", "poplib",  # mail servers
    "socket", "ssl", "selectors", "asyncio", "http", "urllib.request", "requests", "httpx",  # the network
    "dns", "dkim",  # DNS lookups (dkimpy looks keys up)
    "apscheduler", "threading", "subprocess", "multiprocessing",  # jobs, threads, processes
    "jinja2",  # templates are read from disk by gmserver.mail.compose
    "diplomacy",  # the engine, behind gmserver.engine
)

# The modules that may only reach the database through gmserver.services.
# every command-line module, found by name so that a new one cannot be left out of the check
ENTRY_POINTS = (*sorted(path.name for path in PACKAGE.glob("cli*.py")), "daemon.py", "demo.py")
DATABASE_MODULES = ("sqlalchemy", "gmserver.db.models", "gmserver.db.queries")


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path = PACKAGE) -> Iterator[tuple[int, str]]:
    """(line, module) for every import in the file: `from a import b` yields a.b as well as a,
    since b may be a module (`from gmserver import engine`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path, root) if path.name == "__init__.py" else module_name(path, root).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from .x import y
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def modules(root: Path = PACKAGE) -> list[Path]:
    return sorted(root.rglob("*.py"))


def rules_violations(root: Path = PACKAGE) -> list[str]:
    found = []
    for path in modules(root / "rules"):
        for line, module in imported_modules(path, root):
            if module != "gmserver" and within(module, ("gmserver",)) and not within(module, RULES_MAY_IMPORT):
                found.append(f"{path.relative_to(root.parent)}:{line} imports {module}")
            elif within(module, IO_LIBRARIES):
                found.append(f"{path.relative_to(root.parent)}:{line} imports the I/O library {module}")
    return found


def diplomacy_importers(root: Path = PACKAGE) -> set[str]:
    return {str(path.relative_to(root.parent)) for path in modules(root)
            if any(within(module, ("diplomacy",)) for _, module in imported_modules(path, root))}


def entry_point_violations(root: Path = PACKAGE) -> list[str]:
    found = []
    for name in ENTRY_POINTS:
        path = root / name
        for line, module in imported_modules(path, root):
            if within(module, DATABASE_MODULES):
                found.append(f"{path.relative_to(root.parent)}:{line} imports {module}")
    return found


def test_the_rules_import_no_adapter_service_engine_or_io_library() -> None:
    assert rules_violations() == []


def test_only_the_engine_adapter_imports_diplomacy() -> None:
    assert diplomacy_importers() == {"gmserver/engine.py"}


def test_cli_daemon_and_demo_reach_the_database_through_the_services_only() -> None:
    assert entry_point_violations() == []


def test_the_scan_finds_imports_anywhere_in_a_module(tmp_path: Path) -> None:
    """The checks above would pass on a scan that sees nothing: this one shows what it sees."""
    root = tmp_path / "gmserver"
    (root / "rules").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "rules" / "__init__.py").write_text("")
    (root / "rules" / "leaky.py").write_text(
        "import re\n"
        "from gmserver.rules.position import Position\n"
        "from gmserver import engine\n"
        "def later():\n"
        "    import smtplib\n"
        "    from ..db.models import Game\n"
        "    from sqlalchemy.orm import Session\n")
    for name in ENTRY_POINTS:
        (root / name).write_text("def f():\n    from gmserver.db import models\n    import diplomacy.engine\n")
    assert rules_violations(root) == [
        "gmserver/rules/leaky.py:3 imports gmserver.engine",
        "gmserver/rules/leaky.py:5 imports the I/O library smtplib",
        "gmserver/rules/leaky.py:6 imports gmserver.db.models",
        "gmserver/rules/leaky.py:6 imports gmserver.db.models.Game",
        "gmserver/rules/leaky.py:7 imports the I/O library sqlalchemy.orm",
        "gmserver/rules/leaky.py:7 imports the I/O library sqlalchemy.orm.Session",
    ]
    assert diplomacy_importers(root) == {f"gmserver/{name}" for name in ENTRY_POINTS}
    assert entry_point_violations(root) == [f"gmserver/{name}:2 imports gmserver.db.models" for name in ENTRY_POINTS]

