"""Every DATC case through the whole pipeline under the `standard` profile (Acceptance).

For each case of `tests/data/datc/datc.json` (README there): `gmserver game create --position`
starts a game at the case's position (a retreat case at the movement phase before it, whose
orders are played first, as `tests/unit/test_engine_datc.py` does at the engine level), each power
mails its orders to the GM (stored with `intake.store` as the listener stores them, read by
`gmserver poll --once`), `gmserver adjudicate` runs the deadline, `gmserver outbox send --once`
delivers the reports to a Maildir, and `gmserver game show --json` plus a player's report are
compared with the case's `expect`: the units on the board, the units dislodged (waiting in the
retreat phase, or disbanded at once in the report), and each listed order's result as the report
states it.

The orders are mailed as the corpus writes them, illegal ones included: the reader turns those
into holds (or refusals), which is what the DATC expects of an adjudicator. 6.B.9 follows the
profile's `coast_support_mismatch` ("invalid" under standard: the DATC 4.B.4 preference).
"""

from __future__ import annotations

import email
import email.parser
import email.policy
import functools
import json
import mailbox
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gmserver.cli import main
from gmserver.db.session import make_engine
from gmserver.rules.geography import POWERS
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from tests.support.datc import CASES, MISSING, board_of, move_target, unit_named
from tests.support.world import order_mail, services_for

pytestmark = pytest.mark.e2e

RULESET = "standard"


def _params() -> list[Any]:
    if CASES is None:  # fail loudly, never skip: an absent corpus must not pass as green
        return [pytest.param(None, id="datc.json-missing")]
    return [pytest.param(case, id=case["id"]) for case in CASES]


@pytest.fixture(scope="module", autouse=True)
def one_engine_per_database() -> Iterator[None]:
    """Every command of every case runs in this process, and each built a new SQLAlchemy engine
    whose cache of compiled statements started empty (a sixth of a case's time went to compiling
    the same statements again). Here they share one engine per database, as the daemon's jobs do:
    what each case mails, adjudicates and reads is unchanged."""
    shared = functools.cache(make_engine)
    with pytest.MonkeyPatch.context() as patch:
        for where in ("gmserver.db.session", "gmserver.daemon", "tests.support.world"):
            patch.setattr(f"{where}.make_engine", shared)
        yield


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One migrated SQLite database for every case (a game per case), migrated once."""
    root = tmp_path_factory.mktemp("datc")
    url = f"sqlite:///{root / 'gm.db'}"
    config = root / "gmserver.toml"
    config.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "gm@gm.test"\n')
    assert main(["--config", str(config), "db", "upgrade"]) == 0
    return root, url


class Table:
    """One case's game: its configuration (its own Maildir for the reports), players and mail."""

    def __init__(self, root: Path, url: str, case_id: str, ruleset: str = RULESET) -> None:
        self.ruleset = ruleset
        self.name = f"datc-{ruleset}-" + re.sub(r"[^A-Za-z0-9]+", "-", case_id).strip("-").lower()
        self.dir = root / self.name
        self.dir.mkdir()
        self.sent = self.dir / "sent"
        self.config = self.dir / "gmserver.toml"
        self.config.write_text(f'[database]\nurl = "{url}"\n[gm]\naddress = "gm@gm.test"\n'
                               f'[outbound.maildir]\npath = "{self.sent}"\n')
        self.services = services_for(url)

    def address(self, power: str) -> str:
        return f"{power.lower()}.{self.name}@players.test"

    def run(self, *args: str) -> None:
        assert main(["--config", str(self.config), *args]) == 0, args

    def create(self, position: Mapping[str, Any]) -> None:
        path = self.dir / "position.json"
        path.write_text(json.dumps(position))
        players = [arg for power in POWERS for arg in ("--player", f"{power}={self.address(power)}")]
        self.run("game", "create", self.name, "--ruleset", self.ruleset, "--sender-check", "from",
                 "--position", str(path), *players)

    def mail_orders(self, phase: str, orders: Mapping[str, list[str]]) -> None:
        """Each power's orders as one message, stored as the listener stores it, then read."""
        now = datetime.now(UTC)
        for power, lines in orders.items():
            if not lines:
                continue
            subject = format_subject(template=load_ruleset(self.ruleset).subject_template, game_name=self.name, power=power, phase=phase,
                                     purpose="orders")
            body = "Orders:\n\n" + "\n".join(lines) + "\n\n-- \n" + power.title()
            intake.store(self.services.sessions, order_mail(self.address(power), subject, body),
                         source="smtp", now=now)
        self.run("poll", "--once")

    def adjudicate(self) -> str:
        """Run the deadline, deliver the reports, return the report the first player got. The GM
        adjudicates at once: --force, since mhr and danivon never adjudicate a movement turn before
        its deadline otherwise (000 VII(2), 001 IV(2))."""
        self.run("adjudicate", self.name, "--force")
        self.run("outbox", "send", "--once")
        box = mailbox.Maildir(self.sent, create=False)
        raws = [box.get_bytes(key) for key in box.keys()]
        box.clear()  # the next phase's reports are then the only ones there
        # the headers of every mail, the whole of the one report read (a third of a case went to
        # parsing the bodies of the other players' mail)
        headers = email.parser.BytesHeaderParser(policy=email.policy.default)
        reports = [raw for raw in raws if "results" in str((head := headers.parsebytes(raw))["Subject"])
                   and head["To"] == self.address(POWERS[0])]
        assert len(reports) == 1, f"{len(reports)} reports reached {POWERS[0]}"
        return email.message_from_bytes(reports[0], policy=email.policy.default).get_body(("plain",)).get_content()

    def show(self, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
        capsys.readouterr()
        self.run("game", "show", self.name, "--json")
        return json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------------------------------------
# Reading the report a player got


def _report_lines(report: str) -> list[str]:
    """The report's ORDERS section, one order per line (the template wraps long lines with an
    indent of six spaces)."""
    section = report.split("\nORDERS\n", 1)[1]
    section = re.split(r"\n(?:DISLODGED UNITS|REMOVED BY THE RULES|BUILDS NOT USED|SUPPLY CENTRES)", section)[0]
    lines: list[str] = []
    for line in section.splitlines():
        if line.startswith("      ") and lines:
            lines[-1] += " " + line.strip()
        elif line.startswith("  ") and line.strip() != "No orders were given.":
            lines.append(line.strip())
    return lines


_REPORTED = re.compile(r"(?:^|\()(?P<order>(?:[AF] [A-Z/]+ [^():]*|[AF] [A-Z/]+))\)?: (?P<result>[a-z, ]+)")


def _reported_orders(report: str) -> list[tuple[str, str]]:
    """(engine order, result words) for every order line of the report."""
    found = []
    for line in _report_lines(report):
        match = _REPORTED.search(line)
        assert match, f"report line not understood: {line!r}"
        found.append((match["order"].strip(), match["result"].strip()))
    return found


def _reported_dislodged(report: str) -> list[str]:
    """`A YOR` for every unit the report's DISLODGED UNITS section lists."""
    if "\nDISLODGED UNITS\n" not in report:
        return []
    section = report.split("\nDISLODGED UNITS\n", 1)[1].split("\n\n\n", 1)[0]
    section = re.split(r"\n(?:REMOVED BY THE RULES|BUILDS NOT USED|SUPPLY CENTRES)", section)[0]
    return [f"{kind} {code}" for kind, code in re.findall(r"\b([AF]) [^()\n]*\((?:[^,()]*, )?([A-Z]{3}(?:/[A-Z]{2})?)\)",
                                                           section)]


# what the report says of an order carried out (reports/words.py: what the unit did)
_SUCCESS_WORDS = {"holds", "moved", "support given", "convoyed", "retreated", "built", "removed", "disbanded"}


def _result_in_report(reported: list[tuple[str, str]], order: str) -> str:
    """What the report says of a listed order: "succeeds" when the unit's reported order is the
    listed one (same kind and destination; an army's coast ignored, DATC 6.B.12) and was carried out."""
    words = order.split()
    unit = unit_named(order)
    province = unit.split()[1].split("/")[0]
    for got, result in reported:
        got_words = got.split()
        if words[-1] in ("B", "D"):
            if unit_named(got) == unit and got_words[-1] == words[-1]:
                return "succeeds" if result in _SUCCESS_WORDS else "fails"
            continue
        if got_words[1].split("/")[0] != province:
            continue
        target, got_target = move_target(order), move_target(got)
        if target is None or got_target is None:
            return "fails"
        if words[0] == "A" or "/" not in target or "/" not in got_target:
            target, got_target = target.split("/")[0], got_target.split("/")[0]
        return "succeeds" if target == got_target and result in ("moved", "retreated") else "fails"
    return "fails"


def _check_phase(report: str, shown: Mapping[str, Any], expect: Mapping[str, Any], moved: bool) -> list[str]:
    problems = []
    if board_of(shown["units"]) != board_of(expect["units_after"]):
        problems.append(f"units after {board_of(shown['units'])}, expected {board_of(expect['units_after'])}")
    if moved:
        waiting = sorted(u for units in shown["dislodged"].values() for u in units)
        reported = sorted(_reported_dislodged(report))
        wanted = sorted(u for units in expect.get("dislodged_after", {}).values() for u in units)
        if reported != wanted or not set(waiting) <= set(wanted):
            problems.append(f"dislodged: report {reported}, retreat phase {waiting}, expected {wanted}")
    reported_orders = _reported_orders(report)
    for power, by_order in expect.get("order_results", {}).items():
        for order, want in by_order.items():
            if (got := _result_in_report(reported_orders, order)) != want:
                problems.append(f"{power} {order!r}: the report says it {got}, expected {want}")
    return problems


# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", _params())
def test_datc_case_by_mail(case: Mapping[str, Any] | None, database: tuple[Path, str],
                           capsys: pytest.CaptureFixture[str]) -> None:
    if case is None:
        pytest.fail(MISSING)
    table = Table(*database, case["id"])
    problems: list[str] = []
    if "prior_movement" in case:
        prior = case["prior_movement"]
        table.create({"phase": prior["phase"], "units": prior["units"]})
        table.mail_orders(prior["phase"], prior["orders"])
        report = table.adjudicate()
        shown = table.show(capsys)
        problems += [f"prior movement: {p}" for p in _check_phase(report, shown, {
            "units_after": case["units"], "dislodged_after": case.get("dislodged", {}),
            "order_results": prior.get("order_results", {})}, moved=True)]
        if shown["phase"] != case["phase"]:
            # nobody dislodged could retreat: the engine skipped the retreat phase (DATC 6.H.15)
            assert not any(case["orders"].values()), "retreat orders given for a phase the engine skipped"
            assert board_of(shown["units"]) == board_of(case["expect"]["units_after"])
            assert not problems, "\n".join(problems)
            return
    else:
        table.create({key: case[key] for key in ("phase", "units", "centers", "dislodged") if key in case})
        shown = table.show(capsys)
        assert shown["phase"] == case["phase"] and board_of(shown["units"]) == board_of(case["units"])
    table.mail_orders(case["phase"], case["orders"])
    report = table.adjudicate()
    shown = table.show(capsys)
    assert shown["phase"] != case["phase"], "the phase was not adjudicated"
    problems += _check_phase(report, shown, case["expect"], moved=case["phase"].endswith("M"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("ruleset", ["mhr", "danivon", "gwm"])
def test_datc_6_B_9_follows_coast_support_mismatch_accept_if_unique_000_IV_7(
        ruleset: str, database: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """000 IV(7), 001 III(9), 004 II(3)c (coast_support_mismatch = accept_if_unique): the support
    names the north coast of Spain, the fleet it supports moves to the south coast; the fleet's
    own coast counts, the support stands and the Italian fleet bounces (the opposite of the DATC
    4.B.4 preference that `standard` follows in test_datc_case_by_mail[6.B.9])."""
    if CASES is None:
        pytest.fail(MISSING)
    case = next(c for c in CASES if c["id"] == "6.B.9")
    table = Table(*database, case["id"], ruleset)
    table.create({key: case[key] for key in ("phase", "units")})
    table.mail_orders(case["phase"], case["orders"])
    report = table.adjudicate()
    shown = table.show(capsys)
    assert board_of(shown["units"]) == {"FRANCE": ["F MAO", "F POR"], "ITALY": ["F LYO", "F WES"]}
    reported = _reported_orders(report)
    # the engine writes the support to the province: the coast is the fleet's own
    assert [result for order, result in reported if order.startswith("F POR S F MAO - SPA")] == ["support given"]
    assert _result_in_report(reported, "F WES - SPA/SC") == "fails"
