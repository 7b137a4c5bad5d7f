"""The tests keep one shape: no test module imports another test module (or a conftest).

A helper two test modules need lives in tests/support (or a `support.py` beside them); importing
it from a test module drags that module's tests, fixtures and module-level work into the other's
namespace, and pytest then collects or shadows them twice. Read with `ast`, importing nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


def is_test_module(path: Path) -> bool:
    """What pytest collects or loads as a test module: test_*.py, *_test.py, conftest.py."""
    return path.suffix == ".py" and (path.name.startswith("test_") or path.stem.endswith("_test")
                                     or path.name == "conftest.py")


def module_path(name: str, root: Path = ROOT) -> Path | None:
    """The file of the dotted module `name` under `root`, if it is one there."""
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_modules(source: str, path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every module `source` (the file at `path`) may import, relative
    imports resolved; for `from P import N` both P and P.N, since N may be a module."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"


def imports_of_test_modules(path: Path, root: Path = ROOT) -> list[str]:
    """`file:line imports module` for every test module `path` imports."""
    found = []
    for line, name in imported_modules(path.read_text(encoding="utf-8"), path, root):
        target = module_path(name, root)
        if target is not None and target != path and is_test_module(target):
            found.append(f"{path.relative_to(root)}:{line} imports {name}")
    return found


def test_no_test_module_imports_another_test_module() -> None:
    found = [problem for path in sorted(TESTS.rglob("*.py")) for problem in imports_of_test_modules(path)]
    assert not found, "move the shared helper to tests/support:\n" + "\n".join(found)


def test_the_check_sees_absolute_relative_and_from_package_imports(tmp_path: Path) -> None:
    package = tmp_path / "tests" / "integration"
    package.mkdir(parents=True)
    for name in ("__init__.py", "test_a.py", "conftest.py", "helpers.py"):
        (package / name).write_text("")
    (tmp_path / "tests" / "__init__.py").write_text("")
    importer = package / "test_b.py"
    importer.write_text("from tests.integration.test_a import world\n"
                        "from . import conftest\n"
                        "from .helpers import send\n"
                        "from tests.integration import helpers\n"
                        "import tests.integration.test_a\n")
    assert imports_of_test_modules(importer, tmp_path) == [
        "tests/integration/test_b.py:1 imports tests.integration.test_a",
        "tests/integration/test_b.py:2 imports tests.integration.conftest",
        "tests/integration/test_b.py:5 imports tests.integration.test_a",
    ]
