"""Address changes confirmed by the new address (ADDRESS new@...: a one-time token to the new
address, another to the old one to cancel), and the GM command mails carried out (so that a
re-sent copy is refused). Reply tokens are derived from each player's secret, which stays their
password: existing rows need nothing.

Revision ID: 0020
Revises: 0019
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "address_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("power", sa.String(20), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("fallback", sa.String(320), nullable=True),
        sa.Column("old_address", sa.String(320), nullable=False),
        sa.Column("old_fallback", sa.String(320), nullable=True),
        sa.Column("confirm_token", sa.String(32), nullable=False, unique=True),
        sa.Column("cancel_token", sa.String(32), nullable=False, unique=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_address_changes_game_id", "address_changes", ["game_id"])
    op.create_table(
        "gm_command_mails",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("inbound_id", sa.Integer(), sa.ForeignKey("inbound.id"), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gm_command_mails_game_id", "gm_command_mails", ["game_id"])


def downgrade() -> None:
    op.drop_table("gm_command_mails")
    op.drop_table("address_changes")
