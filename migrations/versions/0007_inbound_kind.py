"""Mail kinds: what each accepted inbound message is (orders, press, a request...)

Revision ID: 0007
Revises: 0006
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.add_column(sa.Column("kind", sa.String(20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.drop_column("kind")
