"""order sets: contingent retreat and adjustment lines (contingent_minor_orders, 000 II(5), 001 II(6))

Revision ID: 0003
Revises: 0002
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # existing sets kept no contingent lines: an empty list, as a new set without any has
    with op.batch_alter_table("order_sets") as batch:
        batch.add_column(sa.Column("contingent", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("order_sets") as batch:
        batch.drop_column("contingent")
