"""Stored reports: a deadline stores one report per game, and each player's outbox row points at
it; the sender writes that player's copy when it sends (so that a deadline with many games due
stays fast: docs/performance.md).

Revision ID: 0016
Revises: 0015
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("key", sa.String(300), nullable=False, unique=True),
        sa.Column("payload", sa.Text(), nullable=False),  # JSON (services/report_mail.py): a GM can read it
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("report_id", sa.Integer(), sa.ForeignKey("reports.id", name="fk_outbox_report"),
                                   nullable=True))
        batch.add_column(sa.Column("addressing", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_constraint("fk_outbox_report", type_="foreignkey")
        batch.drop_column("addressing")
        batch.drop_column("report_id")
    op.drop_table("reports")
