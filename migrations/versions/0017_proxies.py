"""Proxies (proxy_policy; 000 II(3), 003 [19]): a power's orders sent by another
address, and which stored order sets its holder sent; a power's perpetual order set
(perpetual_orders, 000 II(4)).

Revision ID: 0017
Revises: 0016
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "proxies",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("power", sa.String(20), nullable=False),
        sa.Column("holder", sa.String(320), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("until_phase", sa.String(20), nullable=True),
        sa.Column("units", sa.JSON(), nullable=True),
        sa.Column("requested_by", sa.String(320), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_proxies_game_id", "proxies", ["game_id"])
    with op.batch_alter_table("order_sets") as batch:
        batch.add_column(sa.Column("by_proxy", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("perpetual", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("perpetual")
    with op.batch_alter_table("order_sets") as batch:
        batch.drop_column("by_proxy")
    op.drop_index("ix_proxies_game_id", "proxies")
    op.drop_table("proxies")
