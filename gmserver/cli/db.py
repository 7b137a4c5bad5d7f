"""`gmserver db upgrade`: the database schema."""

from __future__ import annotations

import argparse

from gmserver.cli.common import config_of
from gmserver.cli.parser import add_command


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from gmserver.db.migrate import current_revision, upgrade  # noqa: PLC0415
    from gmserver.db.session import shown_url  # noqa: PLC0415

    config = config_of(args)
    upgrade(config.database_url)
    print(f"database {shown_url(config.database_url)} is at revision {current_revision(config.database_url)}")
    return 0


def build(parser: argparse.ArgumentParser) -> None:
    db = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    add_command(db, "upgrade", help="apply every migration (SQLite or PostgreSQL)").set_defaults(func=cmd_db_upgrade)
