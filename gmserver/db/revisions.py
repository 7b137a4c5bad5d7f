"""The newest migration's revision id, read from the migration files themselves (each names its
own `revision` and the `down_revision` before it), without loading Alembic: every command checks
the database against it, and Alembic's script directory costs a command a tenth of a second.
tests/unit/test_migration_files.py checks the answer against Alembic's own head."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from gmserver.paths import MIGRATIONS_DIR

# `revision: str = "0022"` and `down_revision: str | None = "0021"` (or None), at the start of a line
_ASSIGNMENT = re.compile(r"""^(revision|down_revision)(?:\s*:[^=\n]+)?\s*=\s*(?:["']([^"'\n]+)["']|None)\s*$""",
                         re.MULTILINE)


class RevisionsError(Exception):
    """The migration files do not form one chain with one head."""


def revision_ids(text: str) -> tuple[str | None, str | None]:
    """(revision, down_revision) named in one migration file's text."""
    found: dict[str, str | None] = {}
    for match in _ASSIGNMENT.finditer(text):
        found.setdefault(match.group(1), match.group(2))
    return found.get("revision"), found.get("down_revision")


@functools.cache
def head_revision() -> str:
    """The newest migration's revision. Read once per process (the tests run a thousand commands
    in one)."""
    return head_of(MIGRATIONS_DIR / "versions")


def head_of(versions: Path) -> str:
    """The revision that no migration in `versions` names as the one before it."""
    revisions, earlier = set(), set()
    for path in versions.glob("*.py"):
        revision, down_revision = revision_ids(path.read_text(encoding="utf-8"))
        if revision is None:
            raise RevisionsError(f"{path.name} names no revision")
        revisions.add(revision)
        if down_revision is not None:
            earlier.add(down_revision)
    heads = sorted(revisions - earlier)
    if len(heads) != 1:
        raise RevisionsError(f"the migrations in {versions} have {len(heads)} heads: {', '.join(heads) or 'none'}")
    return heads[0]
