"""press_digest: the press items owed to a player who chose SET PRESS digest, each with its text
as the player would have got it, until the day's one mail carries them (sent_at). One row per
item and player.

Revision ID: 0026
Revises: 0025
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "press_digest",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("press_id", sa.Integer(), sa.ForeignKey("press.id"), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("press_id", "player_id"),
    )
    op.create_index("ix_press_digest_pending", "press_digest", ["sent_at", "player_id"])


def downgrade() -> None:
    op.drop_index("ix_press_digest_pending", table_name="press_digest")
    op.drop_table("press_digest")
