"""GM controls: a record of every GM action, paused games, GM copies, the game's GM
secret (gm_command_auth). (players.civil_disorder, which the GM also sets, is 0009's.)

Revision ID: 0010
Revises: 0009
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("gm_copies", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("gm_secret", sa.String(64), nullable=True))
    op.create_table(
        "gm_actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("arguments", sa.JSON(), nullable=False),
        sa.Column("by", sa.String(320), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("gm_actions")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("gm_secret")
        batch.drop_column("gm_copies")
        batch.drop_column("paused")
