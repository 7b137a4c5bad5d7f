"""Votes in words: a rule change or an end of the game on any terms keeps
the words proposed (000 IX(3), 001 VIII(3), 003 [18]).

Revision ID: 0015
Revises: 0013b
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0013b"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("proposals") as batch:
        batch.add_column(sa.Column("terms", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("proposals") as batch:
        batch.drop_column("terms")
