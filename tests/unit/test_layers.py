"""The layers hold: read from every module's imports with `ast`, without importing anything.

- gmserver/rules is the pure core: it imports from gmserver only gmserver.rules and
  gmserver.paths (where the ruleset profiles are), and no library that does I/O.
- gmserver/engine.py is the only module that imports the `diplomacy` engine (AGPL, slow to load).
- the command line (gmserver/cli/, a module per command group), daemon.py, demo.py and the web pages
  (web/) reach the database through the services: they import neither SQLAlchemy nor the models nor
  the queries.
- gmserver/services is built in floors (FLOORS, low to high): a module imports only its own floor
  or a lower one, and every services module is on a floor.
- Every mail gmserver sends is made in gmserver/services/base/outgoing.py (a turn report's copies
  in base/report_copies.py, which the outbox sender calls): no other module composes one.
- No import cycle among gmserver's modules (imports for type checking only left out), and no
  module imports another module's private (underscore) name (but the modules of the order reader,
  whose underscore names are private to their package: PACKAGE_PRIVATE).

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
ENTRY_POINTS = (*sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.glob("cli/*.py")), "daemon.py",
                "demo.py", *sorted(f"web/{path.name}" for path in (PACKAGE / "web").glob("*.py")))
DATABASE_MODULES = ("sqlalchemy", "gmserver.db.models", "gmserver.db.queries")


# The floors of gmserver/services, low to high: a module may import its own floor and those below.
FLOORS = (
    "gmserver.services.base",  # context, outbox, every outgoing mail, the GM's recorded actions
    "gmserver.services.game",  # games, players, order sets, schedule, filing an order set
    "gmserver.services.features",  # press, votes, proxies, delays, held mail, corrections, ending...
    "gmserver.services.turn",  # the deadline orchestrator, preview
    "gmserver.services.commands",  # the GM's commands
    "gmserver.services.inbox",  # store, runner, routing, polling, the handlers
)


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def typing_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:` (never imported when the code runs)."""
    return {id(inner) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for inner in ast.walk(node)}


def imported_modules(path: Path, root: Path = PACKAGE, *, runtime_only: bool = False) -> Iterator[tuple[int, str]]:
    """(line, module) for every import in the file: `from a import b` yields a.b as well as a,
    since b may be a module (`from gmserver import engine`). `runtime_only`: without the imports
    under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path, root) if path.name == "__init__.py" else module_name(path, root).rpartition(".")[0]
    skipped = typing_only(tree) if runtime_only else set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
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


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the gmserver modules it imports when it runs (at the top or inside a function).
    `from a import b`, b a module, is an import of a.b alone; a module's own packages are left
    out (Python imports them before the module anyway)."""
    paths = {module_name(path, root): path for path in modules(root)}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found = {module for _, module in imported_modules(path, root, runtime_only=True) if module in paths}
        graph[name] = {module for module in found
                       if module != name and not name.startswith(module + ".")
                       and not any(other.startswith(module + ".") and other in found for other in found)}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def floor_of(module: str) -> int | None:
    return next((number for number, floor in enumerate(FLOORS) if within(module, (floor,))), None)


def floor_violations(root: Path = PACKAGE) -> list[str]:
    found = []
    for path in modules(root / "services"):
        module = module_name(path, root)
        floor = floor_of(module)
        if floor is None:
            if path.name != "__init__.py" or path.parent != root / "services":
                found.append(f"{path.relative_to(root.parent)} is on no floor")
            continue
        for line, imported in imported_modules(path, root, runtime_only=True):
            if (higher := floor_of(imported)) is not None and higher > floor:
                found.append(f"{path.relative_to(root.parent)}:{line} imports {imported} from a higher floor")
    return sorted(set(found))


# A package whose underscore names are private to the package, not to their module (its
# docstring says so): its modules import them from each other.
PACKAGE_PRIVATE = ("gmserver.rules.reading",)


def private_imports(root: Path = PACKAGE) -> list[str]:
    """In gmserver: `from x import _name` of another gmserver module, or `x._name` through an
    imported module (within a PACKAGE_PRIVATE package, among its own modules, allowed)."""
    names = {module_name(path, root) for path in modules(root)}
    found = []
    for path in modules(root):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        shared = next((package for package in PACKAGE_PRIVATE if within(module_name(path, root), (package,))), None)
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and within(node.module, ("gmserver",)):
                if shared is not None and within(node.module, (shared,)):
                    continue
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.relative_to(root.parent)}:{node.lineno} imports "
                                     f"{node.module}.{alias.name}")
                    elif f"{node.module}.{alias.name}" in names:
                        aliases.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                aliases.update(alias.asname for alias in node.names if alias.asname and alias.name in names)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno} uses {node.value.id}.{node.attr}")
    return found


# The modules that make outgoing messages (Composer.compose, Composer.readdress) besides the Composer itself
COMPOSERS = ("gmserver/services/base/outgoing.py", "gmserver/services/base/report_copies.py")


def composing_modules(root: Path = PACKAGE) -> set[str]:
    """The modules that call `.compose(...)` or `.readdress(...)` on something named a composer."""
    found = set()
    for path in modules(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("compose", "readdress") and "composer" in ast.unparse(node.func.value)):
                found.add(str(path.relative_to(root.parent)))
    return found


def test_every_mail_is_made_in_the_outgoing_module() -> None:
    """Subject, threading (References hardened once), the reply secret: one place
    (services/base/outgoing.py); the turn report's copies are written by base/report_copies.py."""
    assert composing_modules() == set(COMPOSERS)


def test_no_import_cycle_among_gmserver_modules() -> None:
    """Imports inside functions count (they run): only those for type checking do not."""
    assert cycles(import_graph()) == []


def test_each_services_floor_imports_only_its_own_floor_or_a_lower_one() -> None:
    assert floor_violations() == []


def test_no_module_imports_a_private_name_of_another() -> None:
    assert private_imports() == []


def test_the_graph_checks_see_cycles_floors_and_private_names(tmp_path: Path) -> None:
    """The checks above would pass on a scan that sees nothing: this one shows what they see."""
    root = tmp_path / "gmserver"
    for floor in ("base", "turn"):
        (root / "services" / floor).mkdir(parents=True)
        (root / "services" / floor / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "services" / "base" / "outbox.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from gmserver.services.turn import turns\n"
        "def later():\n"
        "    from gmserver.services.turn.turns import _due\n")
    (root / "services" / "base" / "mails.py").write_text(
        "from gmserver.services.base import outbox\nx = outbox._queue\n")
    (root / "services" / "turn" / "turns.py").write_text(
        "from gmserver.services.base import outbox\ndef mail(services):\n    return services.composer.compose(to='x')\n")
    (root / "services" / "loose.py").write_text("")
    assert cycles(import_graph(root)) == [["gmserver.services.base.outbox", "gmserver.services.turn.turns"]]
    assert floor_violations(root) == [
        "gmserver/services/base/outbox.py:5 imports gmserver.services.turn.turns from a higher floor",
        "gmserver/services/base/outbox.py:5 imports gmserver.services.turn.turns._due from a higher floor",
        "gmserver/services/loose.py is on no floor",
    ]
    assert sorted(private_imports(root)) == [
        "gmserver/services/base/mails.py:2 uses outbox._queue",
        "gmserver/services/base/outbox.py:5 imports gmserver.services.turn.turns._due",
    ]
    assert composing_modules(root) == {"gmserver/services/turn/turns.py"}


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
    (root / "cli").mkdir()
    for name in ENTRY_POINTS:
        (root / name).parent.mkdir(exist_ok=True)
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

