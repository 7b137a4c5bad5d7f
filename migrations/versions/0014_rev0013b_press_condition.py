"""Conditional press (conditional_press; 003 [9], 002 PRESS 4).

press.condition: "if ..." or "unless ..." as the author wrote it in the press heading, decided on
the turn's results when its report is built; press.status condition_false: it did not hold and
was not published (the author is told).

Revision ID: 0013b
Revises: 0014
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013b"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("press") as batch:
        batch.add_column(sa.Column("condition", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("press") as batch:
        batch.drop_column("condition")
