"""Open sign-up: games announced before they have players (`announcements`: the rules the game
will start with, when it starts, the seed of its power draw and, once started, the assignment and
the game) and the players' requests by mail (`signups`: join with preferences, standby, observe;
each confirmed by a reply to its answer, which proves the address).

Revision ID: 0028
Revises: 0022
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("ruleset_name", sa.String(100), nullable=False),
        sa.Column("deadline_time", sa.String(8), nullable=True),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("anonymous", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("min_reliability", sa.Double(), nullable=True),
        sa.Column("approval", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("status", sa.String(20), nullable=False, server_default="open"),
        sa.Column("assignment", sa.JSON(), nullable=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(320), nullable=False),
    )
    op.create_index("ix_announcements_status", "announcements", ["status", "starts_at"])
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
    op.drop_table("announcements")
