"""The `gmserver` command as a GM uses it, on SQLite (and `db upgrade` on PostgreSQL too)."""

from __future__ import annotations

import json
import mailbox
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from gmserver.cli import main
from tests.support.cli import player_args, run, write_config

pytestmark = pytest.mark.integration

DATC = Path(__file__).resolve().parents[1] / "data" / "datc" / "datc.json"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(tmp_path)


def test_a_gm_session(config: Path, capsys, tmp_path: Path) -> None:
    assert run(config, "db", "upgrade") == 0
    assert run(config, "game", "create", "lepanto", "--ruleset", "mhr", *player_args(), "--movement-hours", "72") == 0
    assert run(config, "game", "list") == 0
    listed = capsys.readouterr().out
    assert "created game lepanto (mhr) at S1901M, deadline " in listed and " UTC, 7 players" in listed
    assert "lepanto" in listed and " UTC" in listed and not re.search(r"\d{4}-\d\d-\d\dT", listed)  # words, not ISO
    assert run(config, "game", "show", "lepanto", "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert {"name", "ruleset", "phase", "deadline", "units", "centers", "dislodged", "players"} <= shown.keys()
    assert (shown["ruleset"], shown["phase"], len(shown["units"]["RUSSIA"])) == ("mhr", "S1901M", 4)
    assert shown["players"]["FRANCE"]["address"] == "france@players.test"
    assert run(config, "adjudicate", "lepanto") == 2  # 000 VII(2): not before the deadline, unless forced
    assert "never adjudicated before its deadline (000 VII(2))" in capsys.readouterr().err
    assert run(config, "adjudicate", "lepanto", "--force") == 0
    assert "adjudicated S1901M" in capsys.readouterr().out
    assert run(config, "outbox", "send", "--once") == 0
    # the 7 start mails, the 7 reports and the 7 notices of a turn adjudicated before its deadline
    assert "sent 21" in capsys.readouterr().out
    assert len(mailbox.Maildir(tmp_path / "sent")) == 21
    assert run(config, "poll", "--once") == 0
    assert run(config, "game", "show", "lepanto") == 0
    assert "F1901M" in capsys.readouterr().out


def test_game_show_says_the_deadline_and_the_turn_lengths_as_a_gm_reads_them(config: Path, capsys) -> None:
    """QA: `game show` printed "deadline 2026-11-28T17:00:00+00:00 (Europe/Berlin)" and turns in
    fractions of hours. 18:00 UTC on 10 January 2030 (a Thursday) is 19:00 in Berlin (CET, UTC+1
    in winter); 72/36/24.5 hours are 3 days, 1 day 12 hours, 1 day 30 minutes."""
    run(config, "db", "upgrade")
    assert run(config, "game", "create", "berlin", "--player", "FRANCE=f@x.test", "--timezone", "Europe/Berlin",
               "--deadline", "2030-01-10T18:00+00:00", "--movement-hours", "72", "--retreat-hours", "36",
               "--adjustment-hours", "24.5", "--reminder-hours", "24") == 0
    capsys.readouterr()
    assert run(config, "game", "show", "berlin") == 0
    first, schedule = capsys.readouterr().out.splitlines()[:2]
    assert ("deadline Thursday 10 January 2030, 19:00 CET (Europe/Berlin) = Thursday 10 January 2030, 18:00 UTC,"
            in first)
    assert schedule.startswith("schedule: turns: movement 3 days, retreat 1 day 12 hours, adjustment 1 day "
                               "30 minutes, deadlines at 19:00 Europe/Berlin; reminders 1 day before the deadline")
    assert run(config, "game", "show", "berlin", "--json") == 0  # the machine format is unchanged
    assert json.loads(capsys.readouterr().out)["deadline"] == "2030-01-10T18:00:00+00:00"


def test_empty_lists_say_so_and_outgoing_rows_show_subject_and_time_queued(config: Path, tmp_path: Path,
                                                                           capsys) -> None:
    """QA: `inbox list --kind press` and `outbox list --status failed` printed nothing at all."""
    from gmserver.services.commands import gm_controls
    from tests.support.world import new_game, services_for

    run(config, "db", "upgrade")
    capsys.readouterr()
    assert run(config, "outbox", "list") == 0
    assert capsys.readouterr().out == "no outgoing mail yet\n"
    assert run(config, "inbox", "list", "--kind", "press") == 0
    assert capsys.readouterr().out == "no stored inbound mail with kind press\n"
    assert run(config, "inbox", "list", "--status", "failed", "--kind", "press") == 0
    assert capsys.readouterr().out == "no stored inbound mail with status failed and kind press\n"

    services = services_for(f"sqlite:///{tmp_path / 'gm.db'}")
    now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    new_game(services, now)
    gm_controls.act(services, "lepanto", gm_controls.pause, now=now)  # tells the 7 players
    assert run(config, "outbox", "list", "--status", "failed") == 0
    assert capsys.readouterr().out == "no outgoing mail with status failed\n"
    assert run(config, "outbox", "list") == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 7
    assert rows[0].split()[1:5] == ["pending", "gm-action", "2026-11-22", "12:00"]
    assert rows[0].endswith("attempts 0: lepanto: the game is paused")


def test_game_from_a_datc_position(config: Path, capsys, tmp_path: Path) -> None:
    case = next(c for c in json.loads(DATC.read_text()) if c["id"] == "6.B.14")  # an adjustment phase
    position = tmp_path / "position.json"
    position.write_text(json.dumps({k: case[k] for k in ("phase", "units", "centers")}))
    run(config, "db", "upgrade")
    assert run(config, "game", "create", "builds", "--player", "RUSSIA=ru@players.test",
               "--position", str(position)) == 0
    capsys.readouterr()
    run(config, "game", "show", "builds", "--json")
    shown = json.loads(capsys.readouterr().out)
    assert shown["phase"] == "W1901A" and shown["units"] == {"RUSSIA": ["A MOS"]}
    assert shown["centers"]["RUSSIA"] == ["MOS", "STP"] and shown["adjustments"] == {"RUSSIA": 1}


@pytest.mark.parametrize(("args", "message"), [
    (["game", "create", "x", "--ruleset", "nonesuch", "--player", "FRANCE=f@x.test"], "nonesuch"),
    (["game", "create", "x", "--player", "FRANCE"], "POWER=ADDRESS"),
    (["game", "create", "x", "--player", "NARNIA=n@x.test"], "unknown power 'NARNIA'"),
    (["game", "create", "x"], "--player"),
    (["game", "show", "nope"], "no game called 'nope'"),
    (["adjudicate", "nope"], "no game called 'nope'"),
    (["inbox", "replay", "99"], "not parked"),
])
def test_mistakes_get_readable_errors(config: Path, capsys, args, message) -> None:
    run(config, "db", "upgrade")
    assert run(config, *args) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", [["game", "list"], ["game", "show", "demo"], ["outbox", "list"],
                                     ["inbox", "list", "--kind", "press"], ["run"]])
def test_a_missing_database_says_what_to_do_and_is_not_created(config: Path, tmp_path: Path, capsys,
                                                               command: list[str]) -> None:
    """QA: `game list` before `db upgrade` said so but left an empty SQLite file behind."""
    assert run(config, *command) == 2
    assert (f"there is no database at sqlite:///{tmp_path / 'gm.db'} yet: run `gmserver db upgrade` first"
            in capsys.readouterr().err)
    assert not (tmp_path / "gm.db").exists()


def test_an_unmigrated_database_says_what_to_do(config: Path, tmp_path: Path, capsys) -> None:
    import sqlite3

    sqlite3.connect(tmp_path / "gm.db").close()  # a file with no schema in it
    assert run(config, "game", "list") == 2
    assert "is not initialised: run `gmserver db upgrade` first" in capsys.readouterr().err


def test_db_upgrade_migrates_an_empty_database_to_the_models_on_both_backends(
        empty_database_url, tmp_path: Path, capsys) -> None:
    """Every migration from nothing, on both backends: the other database tests get copies of a
    database migrated this way once per session (tests/conftest.py), so this is where a broken
    migration or a model changed without one shows first."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from gmserver.db.migrate import current_revision
    from gmserver.db.models import Base
    from gmserver.db.revisions import head_revision
    from gmserver.db.session import make_engine

    path = tmp_path / "db.toml"
    path.write_text(f'[database]\nurl = "{empty_database_url}"\n')
    assert main(["--config", str(path), "db", "upgrade"]) == 0
    assert f"revision {head_revision()}" in capsys.readouterr().out
    assert current_revision(empty_database_url) == head_revision()
    engine = make_engine(empty_database_url)
    try:
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    finally:
        engine.dispose()


def test_db_upgrade_is_repeatable_on_both_backends(database_url, tmp_path: Path, capsys) -> None:
    from gmserver.db.revisions import head_revision

    path = tmp_path / "db.toml"
    path.write_text(f'[database]\nurl = "{database_url}"\n')
    assert main(["--config", str(path), "db", "upgrade"]) == 0  # already at head: a no-op
    assert f"revision {head_revision()}" in capsys.readouterr().out


@pytest.mark.parametrize("command", [[], ["db"], ["game"], ["game", "create"], ["poll"], ["outbox"], ["outbox", "send"],
                                     ["inbox"], ["adjudicate"], ["run"], ["demo"], ["orders", "read"]])
def test_help_at_every_level(command: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    assert "usage: gmserver" in capsys.readouterr().out


@pytest.mark.parametrize(("command", "said"), [
    (["game", "show"], "deadline (in its time zone, then UTC)"),
    (["game", "pause"], "Pause a game: no adjudication and no reminders until resumed."),
    (["game", "resume"], "Resume a paused game"),
    (["game", "preview"], "nothing is stored and nobody is mailed"),
    (["orders", "read"], "from standard input"),
    (["game", "propose"], "draw [POWERS] (all survivors if none named); concede POWER; end game TERMS; rule change "
                          "WORDS"),
])
def test_help_says_what_a_command_does_and_what_its_arguments_are(command: list[str], said: str, capsys) -> None:
    """QA: these showed only a usage line and an unexplained `name`."""
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    printed = capsys.readouterr().out
    out = " ".join(printed.split())  # argparse wraps to the terminal's width
    assert said in out
    if command[0] == "game":
        assert "GAME the game's name (`gmserver game list` shows them)" in out
        assert printed.splitlines()[0].endswith(" GAME FORM [FORM ...]" if command[1] == "propose" else " GAME")
    else:
        assert "--power POWER the power the message gives orders for (the sender's), e.g. France" in out


def test_every_argument_of_a_game_command_is_named_and_explained() -> None:
    """QA: `gmserver game clarify --help` showed bare `name power`: every positional argument of a
    `game` command has an upper-case name in the usage line and a sentence of help, the game and
    the power those of the other commands."""
    import argparse

    from gmserver.cli import build_parser
    from gmserver.cli.common import GAME, POWER

    def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        return next(a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction))

    unexplained = []
    for name, command in subcommands(subcommands(build_parser())["game"]).items():
        for argument in command._actions:
            if argument.option_strings or isinstance(argument, argparse._HelpAction):
                continue
            shown = argument.metavar or ("{...}" if argument.choices else argument.dest)
            if not argument.help or shown != shown.upper():
                unexplained.append(f"game {name} {argument.dest}")
            if argument.dest == "power":
                assert (argument.metavar, argument.help) == (POWER["metavar"], POWER["help"]), name
            if argument.dest == "name" and name != "create":
                assert (argument.metavar, argument.help) == (GAME["metavar"], GAME["help"]), name
    assert unexplained == []


def test_game_clarify_help_names_its_arguments(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["game", "clarify", "--help"])
    printed = capsys.readouterr().out
    assert printed.splitlines()[0].endswith(" GAME POWER {on,off}")
    assert "on: the player is asked about such lines; off: a receipt only" in " ".join(printed.split())


def test_every_command_has_a_description_of_its_own() -> None:
    import argparse

    from gmserver.cli import build_parser

    def commands(parser: argparse.ArgumentParser, path: str):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield f"{path} {name}", sub
                    yield from commands(sub, f"{path} {name}")

    found = dict(commands(build_parser(), "gmserver"))
    assert len(found) > 40  # every group and every action in it
    assert [path for path, sub in found.items() if not sub.description] == []


def test_orders_read_prints_the_reading_as_json(tmp_path: Path, capsys, monkeypatch) -> None:
    import io

    position = tmp_path / "position.json"
    position.write_text(json.dumps({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"]}, "centers": {}}))
    email_text = b"From: fr@players.test\nSubject: orders\n\nHello GM\nA Par -> Bur\nF Bre-Eng\n-- \nJo\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(email_text)))
    assert main(["orders", "read", "--ruleset", "mhr", "--position", str(position), "--power", "France"]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert (reading["power"], reading["phase"]) == ("FRANCE", "S1901M")
    assert sorted(reading["orders"]) == ["A PAR - BUR", "F BRE - ENG"]
    assert [line["status"] for line in reading["lines"]] == ["ignored", "accepted", "accepted"]
    assert {"line", "text", "status", "order", "rule", "message"} <= reading["lines"][0].keys()


@pytest.mark.parametrize(("command", "said"), [
    (["inbox", "show"], "ID the message's number (`gmserver inbox list` shows it)"),
    (["inbox", "replay"], "ID the message's number (`gmserver inbox list` shows it)"),
    (["inbox", "release"], "ID the message's number (`gmserver inbox list --status held` shows it)"),
    (["inbox", "refuse"], "ID the message's number (`gmserver inbox list --status held` shows it)"),
    (["press", "list"], "GAME the game's name (`gmserver game list` shows them)"),
    (["press", "approve"], "ID the press item's number (`gmserver press list GAME` shows it)"),
    (["press", "drop"], "ID the press item's number (`gmserver press list GAME` shows it)"),
    (["press", "edit"], "ID the press item's number (`gmserver press list GAME` shows it)"),
])
def test_help_explains_message_and_press_numbers(command: list[str], said: str, capsys) -> None:
    """QA: these listed a bare lower-case `id` (and `game`) with no word on where to find it."""
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    printed = capsys.readouterr().out
    assert said in " ".join(printed.split())
    assert " id" not in printed.splitlines()[0] and " game" not in printed.splitlines()[0]


def test_orders_read_merges_with_the_previous_set_000_III_4(capsys, monkeypatch, tmp_path: Path) -> None:
    """`--previous ORDERS.json` (a JSON list, as the help says) is the set on file: under mhr a new
    set merges with it unit by unit (000 III(4)). It stopped the command with a traceback."""
    import io

    previous = tmp_path / "previous.json"
    previous.write_text(json.dumps(["A PAR - BUR", "F BRE - MAO"]))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"A Par - Pic\n")))
    assert main(["orders", "read", "--ruleset", "mhr", "--power", "France", "--previous", str(previous)]) == 0
    assert sorted(json.loads(capsys.readouterr().out)["orders"]) == ["A PAR - PIC", "F BRE - MAO"]
    previous.write_text(json.dumps(["A PAR to BUR"]))
    assert main(["orders", "read", "--ruleset", "mhr", "--power", "France", "--previous", str(previous)]) == 2
    assert "--previous" in capsys.readouterr().err  # said in words, without a traceback


def test_orders_read_without_a_position_reads_against_the_opening(capsys, monkeypatch) -> None:
    """A GM trying the reader needs no position file: the standard opening is the default. Under
    danivon (unit_location_matching = own_units) "F Ki" is the fleet in Kiel."""
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"Germany: A Mun - Bur\nF Ki - Den\n")))
    assert main(["orders", "read", "--ruleset", "danivon", "--power", "Germany"]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["phase"] == "S1901M"
    assert sorted(reading["orders"]) == ["A MUN - BUR", "F KIE - DEN"]


def test_orders_read_refuses_an_unknown_power(tmp_path: Path, capsys, monkeypatch) -> None:
    import io

    position = tmp_path / "position.json"
    position.write_text(json.dumps({"phase": "S1901M", "units": {}, "centers": {}}))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"A Par-Bur\n")))
    assert main(["orders", "read", "--position", str(position), "--power", "Narnia"]) == 2
    assert "not a power" in capsys.readouterr().err


def test_a_players_own_abbreviations_are_used_under_gwm_004_I_1(config: Path, capsys, tmp_path: Path) -> None:
    """004 I(1) ¶2: a player's own list is matched before the standard table."""
    from gmserver.db.models import OrderSet
    from gmserver.db.session import transaction
    from gmserver.services.inbox import runner as intake
    from tests.support.world import order_mail, services_for

    run(config, "db", "upgrade")
    assert run(config, "game", "create", "gw", "--ruleset", "gwm", "--sender-check", "from", *player_args()) == 0
    assert run(config, "game", "abbreviations", "gw", "FRANCE", "Mx=Marseilles", "Bg=bur") == 0
    assert "Bg = BUR" in capsys.readouterr().out
    assert run(config, "game", "abbreviations", "gw", "FRANCE", "Q=Atlantis") == 2
    assert "'Atlantis' is not a province" in capsys.readouterr().err
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    services = services_for(url)
    now = datetime.now(UTC)
    intake.store(services.sessions, order_mail("france@players.test", "gw France S1901M", "A Par - Bg\nA Mx H"),
                 source="smtp", now=now)
    intake.process_pending(services, now)
    with transaction(services.sessions) as session:
        [order_set] = session.scalars(select(OrderSet)).all()
    assert sorted(order_set.orders) == ["A MAR H", "A PAR - BUR"]


def test_an_unreachable_database_is_a_readable_error_without_the_password(tmp_path: Path, capsys) -> None:
    from tests.support.dovecot import free_port

    path = tmp_path / "bad.toml"
    path.write_text(f'[database]\nurl = "postgresql://gm:S3cret@127.0.0.1:{free_port()}/gm"\n')
    assert main(["--config", str(path), "game", "list"]) == 2
    err = capsys.readouterr().err
    assert "cannot use the database" in err and "S3cret" not in err


def test_db_upgrade_does_not_print_the_password(tmp_path: Path, capsys) -> None:
    from gmserver.db.session import shown_url

    assert shown_url("postgresql://gm:S3cret@db:5432/gm") == "postgresql://gm:***@db:5432/gm"


@pytest.mark.parametrize("text", ['players = 3\n', '[players]\nFRANCE = 7\n', '[players]\nFRANCE = {address = 1}\n'])
def test_a_malformed_players_file_is_a_readable_error(config: Path, capsys, tmp_path: Path, text: str) -> None:
    run(config, "db", "upgrade")
    players_file = tmp_path / "players.toml"
    players_file.write_text(text)
    assert run(config, "game", "create", "x", "--players", str(players_file)) == 2
    assert "--players" in capsys.readouterr().err


@pytest.mark.parametrize("address", ["<anna@example.org>", "anna@example.org;", "anna@[bad", "Anna <a@b.org>"])
def test_addresses_that_could_never_match_a_sender_are_refused(config: Path, capsys, address: str) -> None:
    run(config, "db", "upgrade")
    assert run(config, "game", "create", "x", "--player", f"FRANCE={address}") == 2
    assert "not a plain email address" in capsys.readouterr().err


def test_outbox_retry_queues_failed_mail_again(config: Path, capsys, tmp_path: Path) -> None:
    from gmserver.db.models import OutboxMessage
    from gmserver.db.session import transaction
    from tests.support.world import services_for

    run(config, "db", "upgrade")
    run(config, "game", "create", "lepanto", *player_args())
    run(config, "adjudicate", "lepanto")
    services = services_for(f"sqlite:///{tmp_path / 'gm.db'}")
    with transaction(services.sessions) as session:
        for row in session.scalars(select(OutboxMessage)):
            row.status, row.attempts, row.last_error = "failed", 8, "550 relay said no"
    capsys.readouterr()
    assert run(config, "outbox", "retry") == 0
    assert "14 failed message(s) queued again" in capsys.readouterr().out  # 7 start mails, 7 reports
    assert run(config, "outbox", "send", "--once") == 0
    assert "sent 14" in capsys.readouterr().out
