"""The migration files, listed by name (`ls migrations/versions`), are in the order Alembic applies
them: one chain from the first to the head, the files numbered in its order. Three files keep
an older revision id that differs from their number and say it in their name (`0014_rev0013b_...`
is revision 0013b): a migration names the one before it by revision id, never by file name."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from gmserver.db.migrate import alembic_config
from gmserver.db.revisions import RevisionsError, head_of, head_revision, revision_ids
from gmserver.paths import MIGRATIONS_DIR


def test_the_file_names_sort_in_the_chains_order() -> None:
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    chain = list(reversed(list(scripts.walk_revisions())))  # the first migration first
    assert [s.down_revision for s in chain[1:]] == [s.revision for s in chain[:-1]]  # one chain, no branch
    assert chain[-1].revision == head_revision()
    by_name = sorted(path.name for path in (MIGRATIONS_DIR / "versions").glob("*.py"))
    assert by_name == [script.path.rpartition("/")[2] for script in chain]
    # numbered in the chain's order; numbers set aside for work merged later may leave a gap
    numbers = [int(name[:4]) for name in by_name]
    assert numbers[0] == 1 and numbers == sorted(set(numbers))


def test_the_head_read_from_the_files_is_alembics_head() -> None:
    """`gmserver` checks the database against the head read from the files without Alembic
    (gmserver/db/revisions.py): each file's ids are the ones Alembic reads, and so is the head."""
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert head_revision() == scripts.get_current_head()
    for script in scripts.walk_revisions():
        assert revision_ids(Path(script.path).read_text(encoding="utf-8")) == (script.revision, script.down_revision)


def test_two_heads_or_a_file_without_a_revision_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.py").write_text('revision: str = "a"\ndown_revision: str | None = None\n')
    (tmp_path / "0002_b.py").write_text("revision = 'b'\ndown_revision = 'a'\n")
    assert head_of(tmp_path) == "b"
    (tmp_path / "0003_c.py").write_text('revision = "c"\ndown_revision = "a"\n')
    with pytest.raises(RevisionsError, match="2 heads: b, c"):
        head_of(tmp_path)
    (tmp_path / "0004_d.py").write_text('"""no ids"""\n')
    with pytest.raises(RevisionsError, match="0004_d.py names no revision"):
        head_of(tmp_path)
