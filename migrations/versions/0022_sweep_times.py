"""games.next_reminder_at and games.next_check_at: when the daemon's sweep must next look at a
game for its clock reminders and for the Spring 1901 checkpoint (000 II(1)), indexed, so that
an idle sweep reads the games whose time has come and not every game; and indexes for the
sweep's other questions (deadline; status, paused, phase; sender_check). Active games start at
their creation time (in the past: the first sweep works out each one's next time); others
have none.

Revision ID: 0022
Revises: 0021
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("next_reminder_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("next_check_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_games_next_reminder_at", ["next_reminder_at"])
        batch.create_index("ix_games_next_check_at", ["next_check_at"])
        # the sweep's other questions: past the deadline, minor turns that may end early, From-only games
        batch.create_index("ix_games_deadline", ["deadline"])
        batch.create_index("ix_games_status_phase", ["status", "paused", "phase", "deadline"])
        batch.create_index("ix_games_sender_check", ["sender_check", "status"])
    # created_at: stored as every other time of the table, and before any sweep to come
    op.execute("UPDATE games SET next_reminder_at = created_at, next_check_at = created_at "
               "WHERE status = 'active' AND NOT paused")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_sender_check")
        batch.drop_index("ix_games_status_phase")
        batch.drop_index("ix_games_deadline")
        batch.drop_index("ix_games_next_check_at")
        batch.drop_index("ix_games_next_reminder_at")
        batch.drop_column("next_check_at")
        batch.drop_column("next_reminder_at")
