"""players.zone, players.confirm_style, players.press_delivery and players.resigned_at: what a
player set by mail (SET ZONE: the IANA time zone their mail shows deadlines in, none the game's;
SET CONFIRM brief|full; SET PRESS each|digest) and when they resigned (RESIGN: the power's
record is kept in player_history and the power goes to civil disorder until a new player takes
it). Existing players keep today's behaviour: no zone, full confirmations, each press item.

Revision ID: 0025
Revises: 0022
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("zone", sa.String(64), nullable=True))
        batch.add_column(sa.Column("confirm_style", sa.String(8), nullable=False, server_default="full"))
        batch.add_column(sa.Column("press_delivery", sa.String(8), nullable=False, server_default="each"))
        batch.add_column(sa.Column("resigned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("resigned_at")
        batch.drop_column("press_delivery")
        batch.drop_column("confirm_style")
        batch.drop_column("zone")
