"""Nothing published holds a player's password or reply token: a line of press that holds one
(a near-miss password line, a pasted reply address) is taken out before anyone else reads it, and
the author is told which line, in words. On both databases."""

from __future__ import annotations

import pytest

from gmserver.services.turn import turns
from tests.support.intake_rows import deliver, outbox_rows, plain_text, player_reply_address
from tests.support.world import new_game, order_mail, password_of, player_address, services_for

pytestmark = pytest.mark.integration

SUBJECT = "lepanto France S1901M"


def test_near_miss_password_lines_in_press_are_never_published_and_the_author_is_told(database_url, clock) -> None:
    """The finding: `Password: SECRET (do not share)` and `Passwort: SECRET` inside press went to
    all seven players with the report."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), sender_check="verified")
    secret = password_of(services, "FRANCE")
    token = player_reply_address(services, "FRANCE").split("+")[1].split("@")[0]
    body = (f"A PAR - BUR\n\nPRESS\nVive la France!\nPassword: {secret} (do not share)\n"
            f"Passwort: {secret.upper()}\nwrite to gm+{token}@gm.test\nEND PRESS\n\nPassword: {secret}\n")
    row = deliver(services, order_mail(player_address("FRANCE"), SUBJECT, body), clock())
    assert row.outcome == "accepted"
    told = " ".join(plain_text(outbox_rows(services, "confirmation")[0]).split())
    assert "These lines were taken out first" in told and '"Password: [your secret] (do not share)"' in told
    # the one place the reply address is written out: the offer of the player's own address for
    # their next set, which the confirmation makes to the player alone
    offer = f"write to gm+{token}@gm.test with the subject"
    assert told.count(offer) == 1
    told = told.replace(offer, "")
    assert '"Passwort: [your secret]"' in told and secret not in told and token not in told

    turns.adjudicate(services, game_id, clock(), force=True)
    reports = outbox_rows(services, "report")
    assert len(reports) == 7
    for report in reports:
        text = plain_text(report)
        assert "Vive la France!" in text
        assert secret not in text.lower() and token not in text.lower() and "passwort" not in text.lower()


def test_a_worded_proposal_holding_the_authors_password_is_not_made_000_IX_3(database_url, clock) -> None:
    """000 IX(3): the words of a RULE CHANGE proposal go to every player; one that holds the
    author's password is refused, in words, and nobody else hears of it."""
    services = services_for(database_url)
    new_game(services, clock(), ruleset="mhr")
    secret = password_of(services, "FRANCE")
    row = deliver(services, order_mail(player_address("FRANCE"), "lepanto",
                                       f"RULE CHANGE: press in retreats (Passwort: {secret})"), clock())
    assert row.outcome != "vote-recorded"
    told = " ".join(plain_text(outbox_rows(services, "notice")[-1]).split())
    assert "it holds your password or reply address, which every player would read" in told
    assert not any(secret in mail.raw.decode("utf-8", "replace").lower() for mail in outbox_rows(services)
                   if mail.recipient != player_address("FRANCE"))
    assert row.outcome == "vote-refused"
