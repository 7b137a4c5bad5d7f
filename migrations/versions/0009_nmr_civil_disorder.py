"""NMR and civil disorder: missed turns and civil disorder per player, the record of
replaced players, the powers a game waits a replacement for (003 [14])

Revision ID: 0009
Revises: 0007
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("missed_in_a_row", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("missed_turns", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("civil_disorder", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("cd_recorded", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("contact_due_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("missed_phase", sa.String(20), nullable=True))
        batch.add_column(sa.Column("cd_search_until", sa.Integer(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("waiting_for", sa.JSON(), nullable=True))
    op.create_table(
        "player_history",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("power", sa.String(20), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("fallback_address", sa.String(320), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_in_phase", sa.String(20), nullable=False),
        sa.Column("missed_turns", sa.Integer(), nullable=False),
        sa.Column("missed_in_a_row", sa.Integer(), nullable=False),
        sa.Column("civil_disorder", sa.Boolean(), nullable=False),
        sa.Column("cd_recorded", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_player_history_game_id", "player_history", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_player_history_game_id", table_name="player_history")
    op.drop_table("player_history")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("waiting_for")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("cd_search_until")
        batch.drop_column("missed_phase")
        batch.drop_column("contact_due_since")
        batch.drop_column("joined_at")
        batch.drop_column("cd_recorded")
        batch.drop_column("civil_disorder")
        batch.drop_column("missed_turns")
        batch.drop_column("missed_in_a_row")
