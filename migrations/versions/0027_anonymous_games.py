"""games.anonymous and games.pages_public: an anonymous (gunboat) game, in which no player ever
sees another's address (`game create --anonymous`; the GM may reveal the players once the game
is over, `game reveal`), and a game's own choice of whether its pages are public (NULL: as
`[web] public` says; `game create --private`, `game set NAME pages public|private`). Games
before it are neither anonymous nor set apart from the configuration.

Revision ID: 0027
Revises: 0026
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("anonymous", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("pages_public", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("pages_public")
        batch.drop_column("anonymous")
