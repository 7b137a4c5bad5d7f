"""Hostile mail: processing attempts, the SMTP envelope, per-player secrets, a game's
sender check

Revision ID: 0006
Revises: 0005
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("envelope_from", sa.String(998), nullable=True))
        batch.add_column(sa.Column("envelope_to", sa.JSON(), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))
    with op.batch_alter_table("games") as batch:
        # games created before this migration keep trusting From (their players were told nothing else)
        batch.add_column(sa.Column("sender_check", sa.String(20), nullable=False, server_default="from"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("sender_check")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("secret")
    with op.batch_alter_table("inbound") as batch:
        batch.drop_column("envelope_to")
        batch.drop_column("envelope_from")
        batch.drop_column("attempts")
