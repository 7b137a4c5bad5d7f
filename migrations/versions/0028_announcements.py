"""Open sign-up, the games announced before they have players (`announcements`): the rules the
game will start with, when it starts, the seed of its power draw and, once started, the assignment
and the game. The players' requests are the next migration's (0029).

Revision ID: 0028
Revises: 0027
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
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


def downgrade() -> None:
    op.drop_table("announcements")
