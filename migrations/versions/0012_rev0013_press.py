"""Press (press_kinds): every press item a player sent, with its kind, recipients and fate.

press.status: sent (mailed at once), report (published with the turn report), held (waiting for
the GM, 003 [9]), refused, replaced (an order set without it came later, 003 [9]), dropped (by the GM).
press.author is kept for the GM only: grey press never shows it (003 [9], 000 X(2)).

Revision ID: 0013
Revises: 0011
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "press",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("phase", sa.String(20), nullable=False),
        sa.Column("author", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("signature", sa.String(100), nullable=True),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("inbound_id", sa.Integer(), sa.ForeignKey("inbound.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_press_game_phase", "press", ["game_id", "phase"])


def downgrade() -> None:
    op.drop_index("ix_press_game_phase", table_name="press")
    op.drop_table("press")
