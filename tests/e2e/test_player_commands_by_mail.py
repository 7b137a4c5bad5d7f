"""The players' commands by mail over a real Dovecot (IMAP in, LMTP for the players' inboxes) and a
real aiosmtpd relay, on SQLite and PostgreSQL: HELP, LIST, SUMMARY, RULES, SET ZONE, SET CONFIRM,
SET PRESS and RESIGN, each the first line of a mail from the player, and the mail each player gets."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime, timedelta

import pytest

from gmserver.commands.player_command import permitted
from gmserver.commands.registry import PLAYER_COMMANDS
from gmserver.config import Config, SmtpRelayConfig
from gmserver.daemon import imap_settings
from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.mail.imap import ImapMailbox
from gmserver.mail.outbound import SmtpTransport
from gmserver.reports.words import format_time
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.base import outbox
from gmserver.services.commands import gm_controls
from gmserver.services.features import press_digest
from gmserver.services.game.games import POWERS, show_game
from gmserver.services.inbox.polling import poll_once
from gmserver.services.turn import turns
from tests.support.mailboxes import Table, imap_config
from tests.support.world import new_game, order_mail, services_for

pytestmark = pytest.mark.e2e


def flat(message) -> str:
    return " ".join(message.get_body(preferencelist=("plain",)).get_content().split())


class Game1901:
    """A standard game whose seven players are mailboxes of the test Dovecot."""

    def __init__(self, database_url, dovecot, smtp_relay, clock, ruleset: str = "standard") -> None:
        self.table = Table(dovecot)
        self.dovecot, self.clock = dovecot, clock
        clock.now = datetime.now(UTC)
        self.services = services_for(database_url, gm_address=self.table.gm)
        self.game_id = new_game(self.services, clock(), name="lepanto", ruleset=ruleset)
        with transaction(self.services.sessions) as session:
            for player in session.get(Game, self.game_id).players:
                player.address, player.fallback_address = self.table.players[player.power], None
        self.transport = SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port))

    def mail(self, power: str, body: str, subject: str = "lepanto") -> None:
        self.dovecot.append(self.table.gm, order_mail(self.table.players[power], subject, body))

    def run(self) -> int:
        """Read the GM's mailbox over IMAP, then send what was queued; how many mails were sent."""
        with ImapMailbox(imap_settings(Config(imap=imap_config(self.table, self.dovecot)))) as mailbox:
            poll_once(self.services, mailbox, self.clock)
        return outbox.deliver_due(self.services.sessions, self.transport, self.clock()).sent

    def inbox(self, power: str, having: str = "") -> list[str]:
        return [flat(m) for m in self.table.inbox(power) if having in flat(m)]

    def gm_inbox(self) -> list[str]:
        return [" ".join(m.get_body(("plain",)).get_content().split())
                for m in (email.message_from_bytes(raw, policy=email.policy.default)
                          for _, _, raw in self.dovecot.messages(self.table.gm))]

    def phase(self) -> str:
        return show_game(self.services.sessions, "lepanto")["phase"]

    def orders_subject(self, power: str) -> str:
        return format_subject(template="standard", game_name="lepanto", power=power, phase=self.phase(),
                              purpose="orders")


def test_help_list_summary_and_rules_answer_each_player_in_words(database_url, dovecot, smtp_relay, clock) -> None:
    """HELP lists every command the profile permits (from the registry) with an example and how
    to reply; LIST shows who plays each power, centres, units and who has sent orders, never
    what; SUMMARY the years' centres, the chart and what the GM told the players; RULES the rules."""
    game = Game1901(database_url, dovecot, smtp_relay, clock)
    with transaction(game.services.sessions) as session:  # a GM action the players are told of
        gm_controls.civil_disorder(session, game.services, session.get(Game, game.game_id), "TURKEY", True, by="cli",
                                   now=clock())
    while game.phase() != "S1902M":  # through 1901: a year of centre counts for the summary and its chart
        turns.adjudicate(game.services, game.game_id, clock(), force=True)
    outbox.deliver_due(game.services.sessions, game.transport, clock())
    game.mail("FRANCE", "help")
    game.mail("ENGLAND", "F LON H", subject=game.orders_subject("ENGLAND"))
    game.run()
    game.mail("GERMANY", "List please")
    game.mail("ITALY", "SUMMARY")
    game.mail("RUSSIA", "", subject="Re: lepanto rules")
    game.run()

    [help_text] = game.inbox("FRANCE", "The commands you may use in lepanto")
    for command in permitted(PLAYER_COMMANDS, load_ruleset("standard")):
        assert command.example in help_text and command.summary in help_text, command.name
    assert "Reply to this mail" in help_text and game.orders_subject("FRANCE") in help_text

    [roster] = game.inbox("GERMANY", "The powers of lepanto")
    assert f"Played by: {game.table.players['FRANCE']}" in roster
    assert f"Played by: {game.table.players['GERMANY']} (you)" in roster
    england = roster.split("England")[1].split("France")[0]
    assert "a set is on file" in england and "London" not in england.split("Orders this turn")[1]
    assert "none yet" in roster.split("France")[1].split("Germany")[0]
    assert "Centres (3)" in roster and "In civil disorder" in roster.split("Turkey")[1]
    assert "Deadline:" in roster

    [summary_mail] = [m for m in game.table.inbox("ITALY") if "The summary of lepanto" in flat(m)]
    summary = flat(summary_mail)
    assert "Supply centres at the end of each year" in summary and "1901" in summary
    assert "Turkey is in civil disorder" in summary.split("What the GM did and told the players")[1]
    assert [part.get_filename() for part in summary_mail.iter_attachments()] == ["lepanto-centres.png"]

    [rules] = game.inbox("RUSSIA", "The house rules of lepanto")
    assert "Your subject line for orders this turn" in rules


def test_set_zone_and_set_confirm_brief_change_the_player_s_own_mail(database_url, dovecot, smtp_relay, clock) -> None:
    """SET ZONE: the deadline in the player's zone, the game's and UTC beside it, in the answer
    and in the confirmation that follows; `game show --json` has the zone. SET CONFIRM brief:
    the confirmation says the orders as read and the deadline only. A wrong zone is answered with
    what would have been read."""
    game = Game1901(database_url, dovecot, smtp_relay, clock)
    game.mail("FRANCE", "set zone Berlin")
    game.run()
    [wrong] = game.inbox("FRANCE", "line was not understood")
    assert "'Berlin' is not a time zone name" in wrong and "Write it as: set zone Continent/City" in wrong
    assert "Nothing was changed" in wrong
    game.mail("FRANCE", "Set Zone europe/berlin")
    game.run()
    game.mail("FRANCE", "SET CONFIRM: brief")
    game.run()
    game.mail("FRANCE", "A PAR - BUR\nF BRE - MAO\nA MAR H", subject=game.orders_subject("FRANCE"))
    game.run()

    [zone] = game.inbox("FRANCE", "now written in Europe/Berlin")
    assert "CET (Europe/Berlin)" in zone and "UTC" in zone
    [brief] = game.inbox("FRANCE", "Your confirmations in lepanto now say your orders as read")
    assert "CET (Europe/Berlin)" in brief  # the answer's heading: the deadline in the player's zone
    [confirmation] = game.inbox("FRANCE", "Your orders were received")
    # a clean set: its orders on file under the confirmation's own heading, no lines to check
    assert "On file (set version" in confirmation and "Burgundy" in confirmation
    assert "LINES TO CHECK" not in confirmation and "set confirm full" in confirmation
    assert "CET (Europe/Berlin)" in confirmation and "UTC" in confirmation
    assert show_game(game.services.sessions, "lepanto")["players"]["FRANCE"]["zone"] == "Europe/Berlin"
    # the others' mail is as it was
    game.mail("ENGLAND", "F LON - NTH", subject=game.orders_subject("ENGLAND"))
    game.run()
    [england] = game.inbox("ENGLAND", "Your orders were received")
    assert "set confirm full" not in england and "Europe/Berlin" not in england  # a full confirmation, in the game's zone
    # the turn report: France's copy has the next deadline in France's zone, text and HTML alike
    turns.adjudicate(game.services, game.game_id, clock(), force=True)
    outbox.deliver_due(game.services.sessions, game.transport, clock())
    [report] = [m for m in game.table.inbox("FRANCE") if "results" in str(m["Subject"])]
    text = report.get_body(("plain",)).get_content()
    assert "  Deadline: " in text and "CET (Europe/Berlin)" in text.split("  Deadline: ")[1].splitlines()[0]
    assert "UTC" in text.split("  Deadline: ")[1].splitlines()[1]
    assert "CET (Europe/Berlin)</strong>" in report.get_body(("html",)).get_content()
    [other] = [m for m in game.table.inbox("ENGLAND") if "results" in str(m["Subject"])]
    assert "Europe/Berlin" not in other.get_body(("plain",)).get_content()


def test_set_press_digest_collects_the_day_s_press_in_one_mail(database_url, dovecot, smtp_relay, clock) -> None:
    """SET PRESS digest: press to the player is kept and mailed once a day, every item in one
    mail; the sender is answered as before; a player on `each` still gets each item at once."""
    game = Game1901(database_url, dovecot, smtp_relay, clock)
    game.mail("ITALY", "set press digest")
    game.run()
    assert game.inbox("ITALY", "is now kept and mailed once a day")
    game.mail("FRANCE", "PRESS TO Italy, Austria\nLet us split the Balkans.\nEND PRESS")
    game.run()
    game.mail("GERMANY", "PRESS TO Italy\nTyrolia is yours.\nEND PRESS")
    game.run()
    assert not game.inbox("ITALY", "Balkans") and not game.inbox("ITALY", "Tyrolia")
    assert game.inbox("AUSTRIA", "Let us split the Balkans.")  # on `each`, at once
    assert press_digest.send_due(game.services, clock()) == 0  # not a day yet
    clock.advance(hours=24)
    assert press_digest.send_due(game.services, clock()) == 1
    assert outbox.deliver_due(game.services.sessions, game.transport, clock()).sent == 1
    [digest] = game.inbox("ITALY", "since your last digest")
    assert "2 items" in digest and "Let us split the Balkans." in digest and "Tyrolia is yours." in digest
    assert "Press from France" in digest and "Press from Germany" in digest
    assert press_digest.send_due(game.services, clock() + timedelta(days=2)) == 0  # each item once


def test_resign_tells_the_gm_and_the_players_and_keeps_the_record(database_url, dovecot, smtp_relay, clock) -> None:
    """RESIGN: the player is answered, the GM is told at once with the commands that follow, the
    other players are told, the power is in civil disorder (000 VII(6) under mhr), the record is
    kept, and the player's mail no longer counts for the power nor do reports reach them."""
    game = Game1901(database_url, dovecot, smtp_relay, clock, ruleset="mhr")
    game.mail("FRANCE", "Resign\n\nSorry, no time any more.")
    game.run()
    [answer] = game.inbox("FRANCE", "You have resigned from lepanto")
    assert "civil disorder" in answer and "(house rules 000 VII(6))" in answer and "the GM has been told" in answer
    assert any("resigned from France" in text and "gmserver game replace lepanto FRANCE ADDRESS" in text
               for text in game.gm_inbox())
    for power in POWERS:
        if power != "FRANCE":
            assert game.inbox(power, "The player of France has resigned"), power
    shown = show_game(game.services.sessions, "lepanto")
    assert "FRANCE" in shown["civil_disorder"] and shown["players"]["FRANCE"]["resigned"]
    assert [row["address"] for row in shown["former_players"]] == [game.table.players["FRANCE"]]
    before = len(game.table.inbox("FRANCE"))
    game.mail("FRANCE", "A PAR - BUR", subject=game.orders_subject("FRANCE"))
    game.run()
    assert "is not registered as a player" in flat(game.table.inbox("FRANCE")[-1])
    turns.adjudicate(game.services, game.game_id, clock(), force=True)
    outbox.deliver_due(game.services.sessions, game.transport, clock())
    assert len(game.table.inbox("FRANCE")) == before + 1  # the refusal; no report
    results = {power: [m for m in game.table.inbox(power) if "results" in str(m["Subject"])] for power in POWERS}
    assert not results["FRANCE"] and all(results[power] for power in POWERS if power != "FRANCE")



def test_whatif_answers_the_player_alone_with_results_and_map(database_url, dovecot, smtp_relay, clock) -> None:
    """WHATIF over real IMAP: France imagines its own orders and Germany's; the answer reaches
    France alone, with each order's result in the report's words, the lines not used and the map;
    Germany's real set (Munich holds) is neither used nor shown, and nothing is filed for France."""
    game = Game1901(database_url, dovecot, smtp_relay, clock)
    game.mail("GERMANY", "A MUN H\nA BER - KIE", subject=game.orders_subject("GERMANY"))
    game.run()
    game.mail("FRANCE", "What if\nGermany:\nA Mun - Bur\nFrance:\nA Par - Bur\nA Mar S A Par - Bur\nA Xyz - Bur")
    game.run()
    [answer] = [m for m in game.table.inbox("FRANCE") if "What if lepanto" in flat(m)]
    text = flat(answer)
    assert "A Paris -> Burgundy (A PAR - BUR): moved" in text
    assert "A Munich -> Burgundy (A MUN - BUR): bounced" in text
    assert "A Berlin holds (A BER H): holds: no order received" in text  # Germany's real move is not read
    assert 'Lines not used as written "A Xyz - Bur"' in text and "Reply to this mail" in text
    [image] = [part for part in answer.iter_attachments() if part.get_content_type() == "image/png"]
    assert image.get_content()[:8] == b"\x89PNG\r\n\x1a\n"
    for power in POWERS:
        if power != "FRANCE":
            assert not game.inbox(power, "What if"), power
    assert not game.inbox("FRANCE", "Your orders were received")  # nothing was filed
    assert game.phase() == "S1901M"


def test_absence_moves_the_deadline_every_player_is_told_and_absence_cancel_withdraws_it(
        database_url, dovecot, smtp_relay, clock) -> None:
    """ABSENCE under mhr (absence_policy = move_deadline, 000 VII(5)): an absence over the current
    deadline moves it at once to the day after the absence, at the same time of day; the player's
    answer says what was registered, what it does with the clause, the new deadline and how to
    change it; every other player is told the new deadline (not who is away); the GM is told;
    LIST and game show list it. `absence cancel` withdraws it."""
    game = Game1901(database_url, dovecot, smtp_relay, clock, ruleset="mhr")
    before = datetime.fromisoformat(show_game(game.services.sessions, "lepanto")["deadline"])
    first, last = clock().date(), before.date()
    game.mail("FRANCE", f"Absence: I'm away from {first:%d %B} until {last:%d %B} (family wedding)")
    game.run()

    moved = before + timedelta(days=1)  # the day after the last day away, at the deadline's time of day
    shown = show_game(game.services.sessions, "lepanto")
    assert datetime.fromisoformat(shown["deadline"]) == moved
    assert shown["absences"] == {"FRANCE": [{"from": first.isoformat(), "to": last.isoformat()}]}
    assert shown["players"]["FRANCE"]["zone"] is None
    [answer] = game.inbox("FRANCE", "Your absence is registered in lepanto")
    assert "(family wedding)" in answer and f"{last:%A %d %B %Y}" in answer
    assert "moves to the day after your absence" in answer and "(house rules 000 VII(5))" in answer
    assert format_time(moved, "UTC").local in answer and f"moved from {format_time(before, 'UTC').local}" in answer
    # the answer's footer too gives the deadline as it is now, not as it was when the mail came in
    assert answer.count(format_time(before, "UTC").local) == 1
    assert "Reply to this mail" in answer and "absence cancel" in answer
    for power in POWERS:
        if power != "FRANCE":
            [told] = game.inbox(power, "the deadline of Spring 1901 Movement moves to")
            assert format_time(moved, "UTC").local in told and "France" not in told, power
    assert any("France will be away" in text or "registered an absence" in text for text in game.gm_inbox())

    game.mail("GERMANY", "list")
    game.mail("FRANCE", "absence cancel", subject="Re: lepanto")
    game.run()
    [roster] = game.inbox("GERMANY", "The powers of lepanto")
    assert f"Absent: {first:%A %d %B}" in roster.split("France")[1].split("Germany")[0]
    [cancelled] = game.inbox("FRANCE", "Your absence is cancelled in lepanto (1 withdrawn)")
    assert "Registered absences none" in cancelled and "Reply to this mail" in cancelled
    assert show_game(game.services.sessions, "lepanto")["absences"] == {}


def test_an_absence_line_that_cannot_be_registered_is_answered_with_what_would_be(
        database_url, dovecot, smtp_relay, clock) -> None:
    """End before start, and longer than the allowance (000 VII(5): how many days are left): nothing
    registered, the answer says why and what is read."""
    game = Game1901(database_url, dovecot, smtp_relay, clock, ruleset="mhr")
    start = clock().date() + timedelta(days=30)
    game.mail("FRANCE", f"absence {start + timedelta(days=3)} to {start}")
    game.mail("ITALY", f"absence {start} to {start + timedelta(days=9)}")
    game.run()
    [backwards] = game.inbox("FRANCE", "Your ABSENCE line was not understood")
    assert "is before the first" in backwards and "absence FIRST-DAY to LAST-DAY (reason)" in backwards
    [too_long] = game.inbox("ITALY", "Your ABSENCE line was not understood")
    assert "10 days long" in too_long and "you have 7 days left this year" in too_long and "000 VII(5)" in too_long
    assert show_game(game.services.sessions, "lepanto")["absences"] == {}


def test_an_out_of_office_reply_naming_its_dates_is_offered_once_and_yes_registers_it(
        database_url, dovecot, smtp_relay, clock) -> None:
    """An auto-reply with its dates is answered once per absence with an offer ("reply YES to this
    mail"); the auto-reply changes no orders; a second copy of it, and an auto-reply with no dates,
    get nothing; YES to the offer's one-time address registers the absence (000 VII(5))."""
    game = Game1901(database_url, dovecot, smtp_relay, clock, ruleset="mhr")
    first, last = clock().date() + timedelta(days=20), clock().date() + timedelta(days=24)
    auto = {"Auto-Submitted": "auto-replied"}
    said = f"I am out of the office from {first:%d %B} until {last:%d %B} with limited access to email."
    for body in (said, said, "I am out of the office."):
        game.dovecot.append(game.table.gm, order_mail(game.table.players["ITALY"], "Automatic reply: lepanto", body,
                                                      headers=auto))
        game.run()
    [offered] = [m for m in game.table.inbox("ITALY") if "Your automatic reply says you are away" in flat(m)]
    assert "Reply YES to this mail" in flat(offered) and "(house rules 000 VII(5))" in flat(offered)
    assert len(game.table.inbox("ITALY")) == 1
    assert show_game(game.services.sessions, "lepanto")["absences"] == {}

    reply_to = str(offered["Reply-To"])
    game.dovecot.append(game.table.gm, order_mail(game.table.players["ITALY"], f"Re: {offered['Subject']}",
                                                  "Yes please", to=reply_to))
    game.run()
    [registered] = game.inbox("ITALY", "Your absence is registered in lepanto")
    assert f"{last:%A %d %B %Y}" in registered and "Reply to this mail" in registered
    assert show_game(game.services.sessions, "lepanto")["absences"] == {
        "ITALY": [{"from": first.isoformat(), "to": last.isoformat()}]}
