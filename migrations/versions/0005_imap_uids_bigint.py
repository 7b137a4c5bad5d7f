"""inbound: IMAP UID and UIDVALIDITY as 64-bit integers (they are unsigned 32-bit)

Revision ID: 0005
Revises: 0004
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.alter_column("uidvalidity", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=True)
        batch.alter_column("uid", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=True)


def downgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.alter_column("uid", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=True)
        batch.alter_column("uidvalidity", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=True)
