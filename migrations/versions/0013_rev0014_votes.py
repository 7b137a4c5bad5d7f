"""Votes (vote_kinds): proposals to end the game and each power's latest ballot.

Revision ID: 0014
Revises: 0013
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "proposals",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("phase", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("members", sa.String(200), nullable=False),
        sa.Column("proposer", sa.String(20), nullable=False),
        sa.Column("inbound_id", sa.Integer(), sa.ForeignKey("inbound.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(20), nullable=False, server_default="open"),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("tallied_phase", sa.String(20), nullable=True),
        sa.UniqueConstraint("game_id", "phase", "kind", "members"),
    )
    op.create_table(
        "votes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("proposal_id", sa.Integer(), sa.ForeignKey("proposals.id"), nullable=False),
        sa.Column("power", sa.String(20), nullable=False),
        sa.Column("choice", sa.String(10), nullable=False),
        sa.Column("inbound_id", sa.Integer(), sa.ForeignKey("inbound.id"), nullable=True),
        sa.Column("cast_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("proposal_id", "power"),
    )


def downgrade() -> None:
    op.drop_table("votes")
    op.drop_table("proposals")
