"""Press end to end on a real database (SQLite and PostgreSQL): judged, stored, mailed to its
recipients or published with the turn report as the profile says, and the author of
grey press never shown to anyone (003 [9], 000 X(1))."""

from __future__ import annotations

import email
import email.policy

import pytest

from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.features import press_moderation
from gmserver.services.game.games import GameError
from gmserver.services.turn import turns
from tests.support.intake_rows import deliver as send
from tests.support.intake_rows import outbox_rows as outbox
from tests.support.intake_rows import plain_text as text
from tests.support.intake_rows import press_rows
from tests.support.world import new_game, order_mail, player_address, services_for, set_options

pytestmark = pytest.mark.integration


def subject(power: str, game: str = "lepanto", profile: str = "standard") -> str:
    return format_subject(template=load_ruleset(profile).subject_template, game_name=game, power=power, phase="S1901M", purpose="orders")


def test_partial_grey_press_reaches_only_its_recipients_and_never_shows_its_author(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())  # standard: white and grey press
    raw = order_mail(player_address("ENGLAND"), "lepanto",
                     "GREY PRESS TO France, Germany:\nThe Kaiser plots against you both.\nEND PRESS")
    row = send(services, raw, clock())
    assert row.outcome == "press-filed"
    delivered = outbox(services, "press")
    assert sorted(m.recipient for m in delivered) == [player_address("FRANCE"), player_address("GERMANY")]
    for mail in delivered:
        body = text(mail)
        assert "The Kaiser plots against you both." in body and "Anonymous press" in body
        # 003 [9] "Authorship of gray press will not be disclosed": not in the mail, nor its headers
        assert "england" not in mail.raw.decode("utf-8", "replace").lower()
    told = text(outbox(services, "notice")[0])
    assert "sent anonymously to France, Germany: your name was not shown." in " ".join(told.split())
    assert press_rows(services) == [("ENGLAND", "grey", "sent")]


def _reply_to(mail, sender: str, body: str) -> bytes:
    """A player's reply to a mail the GM sent them: Re: its subject, threaded, to its Reply-To (the
    player's reply address), the GM's text quoted below the new words."""
    parsed = email.message_from_bytes(mail.raw, policy=email.policy.default)
    quoted = "\n".join(f"> {line}" for line in text(mail).splitlines())
    return order_mail(sender, f"Re: {parsed['Subject']}", f"{body}\n\nOn Monday the GM wrote:\n{quoted}\n",
                      to=str(parsed["Reply-To"] or parsed["From"]),
                      headers={"In-Reply-To": mail.message_id, "References": mail.message_id})


def test_a_reply_to_partial_press_is_press_to_its_other_participants(database_url, clock) -> None:
    """A reply to a press mail is press, to the same participants: France's white press to Italy
    and Russia, answered by Italy, goes to France and Russia. It was refused as an order set (the
    press mail's subject names the turn). The copies say who else received it."""
    services = services_for(database_url)
    new_game(services, clock())
    send(services, order_mail(player_address("FRANCE"), "lepanto",
                              "PRESS TO Italy, Russia:\nLet us split Austria.\nEND PRESS"), clock())
    to_italy = next(m for m in outbox(services, "press") if m.recipient == player_address("ITALY"))
    assert "Press from France in lepanto, Spring 1901 Movement, to you and Russia:" in " ".join(text(to_italy).split())

    before = {m.id for m in outbox(services, "press")}
    row = send(services, _reply_to(to_italy, player_address("ITALY"), "Agreed, but Trieste is mine."), clock())
    assert (row.kind, row.outcome) == ("press", "press-filed")
    replies = [m for m in outbox(services, "press") if m.id not in before]
    assert sorted(m.recipient for m in replies) == [player_address("FRANCE"), player_address("RUSSIA")]
    to_france = next(m for m in replies if m.recipient == player_address("FRANCE"))
    words = " ".join(text(to_france).split())
    assert "Press from Italy in lepanto, Spring 1901 Movement, to you and Russia: Agreed, but Trieste is mine." in words
    assert "Let us split Austria" not in words  # the quoted press is not sent again
    told = " ".join(text(outbox(services, "notice")[-1]).split())
    assert "France, Russia" in told and "not" not in told.split("Your press")[1].split(".")[0]


def test_a_reply_to_anonymous_press_cannot_reach_its_author_and_says_so(database_url, clock) -> None:
    """Grey press to France alone (002 PRESS 1: its author unnamed): France's reply has nobody to
    go to but the hidden author; it is not sent, never to everyone, and the answer says why and
    what would be sent."""
    services = services_for(database_url)
    new_game(services, clock())
    send(services, order_mail(player_address("ENGLAND"), "lepanto", "GREY PRESS TO France\nBeware.\nEND PRESS"),
         clock())
    [to_france] = outbox(services, "press")
    row = send(services, _reply_to(to_france, player_address("FRANCE"), "Who are you?"), clock())
    assert (row.kind, row.outcome) == ("press", "press-filed")
    assert len(outbox(services, "press")) == 1
    told = " ".join(text(outbox(services, "notice")[-1]).split())
    assert "a reply cannot reach it" in told and '"Press to England"' in told


def test_press_kinds_001_vii_1_grey_press_is_refused_and_kept_from_everyone(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), ruleset="danivon")
    send(services, order_mail(player_address("ITALY"), "lepanto", "GREY PRESS TO France\nBoo.\nEND PRESS"), clock())
    assert outbox(services, "press") == []
    told = " ".join(text(outbox(services, "notice")[0]).split())
    assert ("was not sent: grey (anonymous) press is not accepted in this game, only white press "
            "(house rules 001 VII(1))") in told
    assert press_rows(services) == [("ITALY", "grey", "refused")]


def test_000_x_1_report_prints_white_press_under_its_authors_orders_and_grey_press_anonymously(
        database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="mhr")
    send(services, order_mail(player_address("FRANCE"), subject("FRANCE", profile="mhr"),
                              "A PAR - BUR\n\nPRESS\nVive la France!\nEND PRESS"), clock())
    send(services, order_mail(player_address("ENGLAND"), "lepanto",
                              "GREY PRESS\nWho guards the Channel?\nEND PRESS"), clock())
    assert outbox(services, "press") == []  # broadcast press waits for the report
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    france = report.index("\nFrance\n")
    assert report.index("Press from France:", france) < report.index("Vive la France!") < report.index("\nGermany\n")
    anonymous = report.index("ANONYMOUS PRESS")
    assert report.index("Anonymous:", anonymous) < report.index("Who guards the Channel?")
    assert "ENGLAND" not in report[anonymous:report.index("SUPPLY CENTRES")].upper()


def test_press_channel_003_9_only_the_press_of_the_last_order_set_is_published(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="scorpion")
    # scorpion holds every item for the GM (003 [9] insults); this test is about the channel alone
    set_options(services, game_id, press_moderation="auto_with_gm_withhold")
    send(services, order_mail(player_address("FRANCE"), subject("FRANCE"),
                              "A PAR - BUR\n\nPRESS\nFirst thoughts.\nEND PRESS"), clock())
    send(services, order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR - PIC"), clock())
    send(services, order_mail(player_address("ITALY"), subject("ITALY"),
                              "A VEN H\n\nPRESS\nItaly stands firm.\nEND PRESS"), clock())
    assert press_rows(services) == [("FRANCE", "white", "replaced"), ("ITALY", "white", "report")]
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    assert "Italy stands firm." in report and "First thoughts." not in report


def test_press_channel_003_9_refuses_partial_press(database_url, clock) -> None:
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="scorpion")
    set_options(services, game_id, press_moderation="auto_with_gm_withhold")
    send(services, order_mail(player_address("FRANCE"), "lepanto", "PRESS TO Italy\nPsst.\nEND PRESS"), clock())
    told = " ".join(text(outbox(services, "notice")[0]).split())
    assert "cannot be sent to some powers only (house rules 003 [9])" in told
    assert outbox(services, "press") == []


def test_press_moderation_003_9_press_is_held_until_the_gm_approves_it(database_url, clock) -> None:
    """003 [9] "Press that insults another player on a personal level will not be published": the
    GM reads each item first (gm_approval), approves one and drops the other."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), ruleset="scorpion")
    send(services, order_mail(player_address("FRANCE"), "lepanto", "PRESS\nYou are all fools.\nEND PRESS"), clock())
    send(services, order_mail(player_address("ITALY"), "lepanto", "PRESS\nPeace in the Med.\nEND PRESS"), clock())
    assert press_rows(services) == [("FRANCE", "white", "held"), ("ITALY", "white", "held")]
    told = " ".join(text(outbox(services, "notice")[0]).split())
    assert "is kept for the GM: press is published once the GM has approved it (house rules 003 [9])" in told
    held = press_moderation.press_list(services, "lepanto", "held")
    assert [(item.author, item.text) for item in held] == [("FRANCE", "You are all fools."),
                                                           ("ITALY", "Peace in the Med.")]
    assert press_moderation.moderate(services, "lepanto", held[0].id, "drop", clock()).endswith("will not be published")
    assert "approved" in press_moderation.moderate(services, "lepanto", held[1].id, "approve", clock())
    with pytest.raises(GameError, match="only press not yet published"):
        press_moderation.moderate(services, "lepanto", held[0].id, "approve", clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    report = text(outbox(services, "report")[0])
    assert "You are all fools." not in report and "Peace in the Med." in report
