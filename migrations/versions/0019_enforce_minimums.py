"""Whether a game holds the GM to the profile's minimum turn lengths (min_hours_*):
False for a game created with short turns (`--short-turns-for-testing`, the demo), so that
`game deadline` follows the game's own setting. Games before it keep the minimums (true).

Revision ID: 0019
Revises: 0018
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("enforce_minimums", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("enforce_minimums")
