"""What every `gmserver` command group shares: the error a user can fix, the clock, the
configuration and services of a command, argument types, and adding a command to a group
(gmserver/cli/__init__.py says why the services are imported late)."""

from __future__ import annotations

import argparse
import json
import math
from datetime import datetime, time, timedelta, timezone
from typing import Any, NoReturn, Protocol

from gmserver.config import Config, config_path_from, load_config


class CliError(Exception):
    """A problem the user can fix; printed without a traceback."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a wrong argument said in one line: the whole usage of `game create` (a
    dozen lines) buried the one line that said what was wrong. Subcommands' parsers are of this
    class too (argparse makes them of their parent's)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (`{self.prog} --help` lists what it takes)\n")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def config_of(args: argparse.Namespace) -> Config:
    return load_config(config_path_from(args.config))


def services_of(config: Config):
    from gmserver.daemon import build_services  # noqa: PLC0415

    check_database(config)
    return build_services(config)


def sessions_of(config: Config):
    """The database alone, for a command that only reads or writes rows: without the rest of the
    services (the daemon's module that builds them costs a command a sixth of a second)."""
    from gmserver.db.session import make_engine, make_session_factory  # noqa: PLC0415

    check_database(config)
    return make_session_factory(make_engine(config.database_url))


def check_database(config: Config) -> None:
    """CliError unless the database is there and migrated to the latest revision."""
    from gmserver.db.migrate import current_revision, head_revision  # noqa: PLC0415
    from gmserver.db.session import missing_sqlite_file, shown_url  # noqa: PLC0415

    if missing_sqlite_file(config.database_url):
        raise CliError(f"there is no database at {shown_url(config.database_url)} yet: run `gmserver db upgrade` "
                       "first (it creates it)")
    current = current_revision(config.database_url)
    if current != head_revision():
        raise CliError(
            f"the database at {shown_url(config.database_url)} is "
            + ("not initialised" if current is None else f"at revision {current}, not the latest")
            + ": run `gmserver db upgrade` first"
        )


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False))


def cut(text: str, width: int) -> str:
    """A listing's column: the text, shortened to `width` with "..." if longer."""
    return text if len(text) <= width else text[:width - 3] + "..."


# The longest duration a command takes: a turn or a reminder lead of more than a year is a typing
# mistake, and `1e308` hours would overflow every date computed from it.
MAX_HOURS = 24 * 366
# The dates a command takes: deadlines are computed from a date by adding turns, which must stay
# far inside the calendar (year 9999 is its end).
YEARS = range(1970, 3000)
# Every stored row's number fits a 32-bit integer column (PostgreSQL's `integer`).
MAX_ROW_ID = 2**31 - 1


def hours(value: str) -> timedelta:
    try:
        hours = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of hours") from None
    if math.isnan(hours):
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of hours")
    if hours < 0:
        raise argparse.ArgumentTypeError("a duration cannot be negative")
    if hours > MAX_HOURS:
        raise argparse.ArgumentTypeError(f"{value!r} hours is too long: at most {MAX_HOURS} (a year)")
    return timedelta(hours=hours)


def time_of_day(value: str) -> time:
    """`18:00` -> 18:00 (a local time of day, for `--deadline-time`)."""
    try:
        return time.fromisoformat(value).replace(tzinfo=None, microsecond=0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a time of day like 18:00") from None


def moment(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an ISO 8601 date and time") from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{value!r} needs a time zone, e.g. {value}+00:00")
    if moment.year not in YEARS:
        raise argparse.ArgumentTypeError(f"{value!r} is out of range: give a date in the years "
                                         f"{YEARS.start} to {YEARS.stop - 1}")
    return moment.astimezone(timezone.utc)


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


class Subcommands(Protocol):
    """What `ArgumentParser.add_subparsers()` returns, as the groups use it."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def sentence(text: str) -> str:
    """A one-line help as the first sentence of a `--help` (argparse shows a subcommand's help only
    in its parent's list)."""
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def add_command(actions: Subcommands, name: str, *, help: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A command of a group, its `--help` opening with its description or else its help."""
    kwargs["description"] = kwargs.get("description") or sentence(help)
    return actions.add_parser(name, help=help, **kwargs)
