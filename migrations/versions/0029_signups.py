"""Open sign-up, the players' requests by mail (`signups`): join with preferences, standby,
observe, leave, unobserve; each confirmed by a reply to its answer, which proves the address.

Revision ID: 0029
Revises: 0028
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signups",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_name", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("preferences", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("offered_power", sa.String(20), nullable=True),
    )
    op.create_index("ix_signups_game_name", "signups", ["game_name", "kind", "status"])
    op.create_index("ix_signups_address", "signups", ["address"])


def downgrade() -> None:
    op.drop_table("signups")
