"""GM corrections: mail held for the GM, order sets the GM wrote, rolled-back
adjudications.

inbound.held_phase: the turn a message held for the GM (hold_for_gm) is for.
order_sets.by_gm: a version the GM wrote (`gmserver game orders`), not the player.
phases.revision: how many times the phase's adjudication was rolled back (000 VIII(1)); the
reports of each re-adjudication are queued under their own dedupe keys.
phases.superseded: what each rolled-back adjudication said (orders, results, when), for the archive.
phases.rulings: the GM's convoy rulings for the phase (000 VI(4)), applied when it
is adjudicated.

Revision ID: 0011
Revises: 0010
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbound") as batch:
        batch.add_column(sa.Column("held_phase", sa.String(20), nullable=True))
    with op.batch_alter_table("order_sets") as batch:
        batch.add_column(sa.Column("by_gm", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("superseded", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("rulings", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.drop_column("rulings")
        batch.drop_column("superseded")
        batch.drop_column("revision")
    with op.batch_alter_table("order_sets") as batch:
        batch.drop_column("by_gm")
    with op.batch_alter_table("inbound") as batch:
        batch.drop_column("held_phase")
