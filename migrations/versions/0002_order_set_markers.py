"""order sets: version, change and status markers, unsupportable units (001 II(7), 000 III(5))

Revision ID: 0002
Revises: 0001
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("order_sets") as batch:
        batch.add_column(sa.Column("marker", sa.String(length=20), nullable=True))
        batch.add_column(sa.Column("is_change", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("status", sa.String(length=20), nullable=True))
        batch.add_column(sa.Column("unsupportable", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("order_sets") as batch:
        for column in ("unsupportable", "status", "is_change", "marker"):
            batch.drop_column(column)
