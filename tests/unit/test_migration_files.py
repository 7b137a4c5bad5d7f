"""The migration files, listed by name (`ls migrations/versions`), are in the order Alembic applies
them: one chain from the first to the head, the files numbered in its order. Three files keep
an older revision id that differs from their number and say it in their name (`0014_rev0013b_...`
is revision 0013b): a migration names the one before it by revision id, never by file name."""

from __future__ import annotations

from alembic.script import ScriptDirectory

from gmserver.db.migrate import alembic_config, head_revision
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
