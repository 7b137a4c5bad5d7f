"""What every `gmserver` command group shares: the error a user can fix, the clock, the
configuration and services of a command, argument types, and adding a command to a group
(gmserver/cli/__init__.py says why the services are imported late)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from gmserver.cli.parser import CliError
from gmserver.config import Config, config_path_from, load_config
from gmserver.rules.quantities import parse_hours, parse_moment

if TYPE_CHECKING:
    from gmserver.db.plain import Reader


def utcnow() -> datetime:
    return datetime.now(UTC)


def config_of(args: argparse.Namespace) -> Config:
    return load_config(config_path_from(args.config))


def services_of(config: Config):
    from gmserver.daemon import build_services  # noqa: PLC0415

    check_database(config)
    return build_services(config)


@contextmanager
def reader_of(config: Config) -> Iterator[Reader]:
    """The database, checked to be there and at the latest revision, open for reading through its
    driver alone (gmserver.db.plain: a command that only shows rows does not load SQLAlchemy);
    through SQLAlchemy for a URL the driver cannot open alone."""
    from gmserver.db import plain  # noqa: PLC0415
    from gmserver.db.revisions import head_revision  # noqa: PLC0415

    url = config.database_url
    opened: AbstractContextManager[Reader]
    if plain.opens_plainly(url):
        shown, path = plain.plain_url(url), plain.sqlite_file(url)
        missing = path is not None and not path.exists()
        opened = plain.open_reader(url)
    else:
        from gmserver.db.session import engine_reader, missing_sqlite_file, shown_url  # noqa: PLC0415

        shown, missing, opened = shown_url(url), missing_sqlite_file(url), engine_reader(url)
    if missing:  # reading would create an empty file: only `gmserver db upgrade` creates the database
        raise CliError(f"there is no database at {shown} yet: run `gmserver db upgrade` first (it creates it)")
    with opened as reader:
        current = reader.stored_revision()
        if current != head_revision():
            raise CliError(
                f"the database at {shown} is "
                + ("not initialised" if current is None else f"at revision {current}, not the latest")
                + ": run `gmserver db upgrade` first"
            )
        yield reader


def check_database(config: Config) -> None:
    """CliError unless the database is there and migrated to the latest revision."""
    with reader_of(config):
        pass


def cut(text: str, width: int) -> str:
    """A listing's column: the text, shortened to `width` with "..." if longer."""
    return text if len(text) <= width else text[:width - 3] + "..."


# Every stored row's number fits a 32-bit integer column (PostgreSQL's `integer`).
MAX_ROW_ID = 2**31 - 1


def hours(value: str) -> timedelta:
    try:
        return parse_hours(value)
    except ValueError as problem:
        raise argparse.ArgumentTypeError(str(problem)) from None


def time_of_day(value: str) -> time:
    """`18:00` -> 18:00 (a local time of day, for `--deadline-time`)."""
    try:
        return time.fromisoformat(value).replace(tzinfo=None, microsecond=0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a time of day like 18:00") from None


def moment(value: str) -> datetime:
    try:
        return parse_moment(value).astimezone(UTC)
    except ValueError as problem:
        raise argparse.ArgumentTypeError(str(problem)) from None


def row_id(value: str) -> int:
    """A stored message's or press item's number, as the listings show it."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 1 <= number <= MAX_ROW_ID:
        raise argparse.ArgumentTypeError(f"{value!r} is not a stored number (they run from 1 to {MAX_ROW_ID})")
    return number


def count(value: str) -> int:
    """A small positive count (turns, years)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if not 1 <= number <= 1000:
        raise argparse.ArgumentTypeError(f"{value!r} is out of range: give a whole number from 1 to 1000")
    return number


# The positional arguments most commands share, named and explained once (`--help` showed a bare
# `name` before): `parser.add_argument("name", **GAME)`.
GAME: dict[str, str] = {"metavar": "GAME", "help": "the game's name (`gmserver game list` shows them)"}
# a stored message's and a press item's number, as their listings show it
MESSAGE_ID: dict[str, Any] = {"metavar": "ID", "type": row_id,
                              "help": "the message's number (`gmserver inbox list` shows it)"}
HELD_ID: dict[str, Any] = {**MESSAGE_ID, "help": "the message's number (`gmserver inbox list --status held` shows it)"}
PRESS_ID: dict[str, Any] = {"metavar": "ID", "type": row_id,
                            "help": "the press item's number (`gmserver press list GAME` shows it)"}
POWER: dict[str, str] = {"metavar": "POWER", "help": "a power of the game, e.g. FRANCE or France"}
