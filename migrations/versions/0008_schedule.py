"""A schedule, not a stopwatch: each game's fixed time of day for its deadlines

Revision ID: 0008
Revises: 0007
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # NULL for games created before: their deadlines keep the previous deadline's time of day
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline_time", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline_time")
