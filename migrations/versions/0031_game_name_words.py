"""The words of every game's name, keyed by word (game_name_words): intake finds the games a
subject may name through them instead of reading every open game's name for every mail. The
existing games' words are written here, split as the subject matcher splits them.

Revision ID: 0031
Revises: 0030
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from gmserver.rules.subject import name_words

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    words = op.create_table(
        "game_name_words",
        sa.Column("word", sa.String(400), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
    )
    games = op.get_bind().execute(sa.text("SELECT id, name FROM games")).all()
    rows = [{"word": word, "game_id": game_id} for game_id, name in games for word in sorted(set(name_words(name)))]
    if rows:
        op.bulk_insert(words, rows)


def downgrade() -> None:
    op.drop_table("game_name_words")
