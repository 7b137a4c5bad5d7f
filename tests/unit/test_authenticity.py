"""The sender check of a "verified" game ("nobody in"): a table of cases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gmserver.rules.authenticity import (
    Binding,
    DkimSignature,
    Evidence,
    Unverified,
    Verified,
    address_secret,
    aligned,
    is_gm_recipient,
    read_signature,
    reply_address,
    reply_token,
    trusted_results,
    verify_sender,
    without_secret_lines,
)
from gmserver.rules.password_lines import is_password_line, passwords_in

GM = "gm@gm.test"
SECRET = "k3xq7m2pa5rtw4zd"
FRANCE = "france@players.test"
TRUSTED = ("mx.gm.test",)
# the reply tokens accepted now: this turn's (F1901M) and the last one's (S1901M)
PERIODS = ("F1901M", "S1901M")
TOKEN, LAST_TURNS = reply_token(SECRET, "F1901M"), reply_token(SECRET, "S1901M")
OLD_TOKEN = reply_token(SECRET, "W1900A")

PASS_DMARC = "mx.gm.test; dkim=pass header.d=players.test; spf=pass smtp.mailfrom=players.test; " \
             "dmarc=pass header.from=players.test"
FAIL_ALL = "mx.gm.test; dkim=fail header.d=players.test; spf=fail smtp.mailfrom=attacker.test; " \
           "dmarc=fail header.from=players.test"


def check(**evidence) -> Verified | Unverified:
    return verify_sender(Evidence(sender=FRANCE, **evidence), secret=SECRET, gm_address=GM,
                         trusted_authserv_ids=TRUSTED, periods=PERIODS)


CASES = [
    # (what, evidence, verified?)
    ("trusted header: dmarc=pass for the From domain", dict(authentication_results=(PASS_DMARC,)), True),
    ("trusted header: aligned dkim=pass (subdomain signs)",
     dict(authentication_results=("mx.gm.test; dkim=pass header.d=mail.players.test",)), True),
    ("trusted header: dkim=pass known by header.i only",
     dict(authentication_results=("mx.gm.test; dkim=pass header.i=@players.test",)), True),
    ("trusted header in another case, with a version and comments",
     dict(authentication_results=("MX.GM.TEST 1; DMARC=Pass (p=reject) header.from=Players.Test",)), True),
    ("untrusted authserv-id is ignored",
     dict(authentication_results=("mx.attacker.test; dmarc=pass header.from=players.test",)), False),
    ("forged trusted header below the real one (which failed)",
     dict(authentication_results=(FAIL_ALL, "mx.gm.test; dmarc=pass header.from=players.test")), False),
    ("an untrusted hop above the trusted one changes nothing",
     dict(authentication_results=("list.example; dmarc=pass header.from=players.test", FAIL_ALL)), False),
    ("misaligned dkim=pass (the attacker's own domain signed)",
     dict(authentication_results=("mx.gm.test; dkim=pass header.d=attacker.test",)), False),
    ("dkim=pass of a domain that merely ends alike", dict(authentication_results=(
        "mx.gm.test; dkim=pass header.d=evilplayers.test",)), False),
    ("dmarc=pass for another From domain",
     dict(authentication_results=("mx.gm.test; dmarc=pass header.from=attacker.test",)), False),
    ("spf=pass alone says nothing about From",
     dict(authentication_results=("mx.gm.test; spf=pass smtp.mailfrom=players.test",)), False),
    ("unreadable trusted header: no proof, and nothing below it is read", dict(authentication_results=(
        "mx.gm.test; dkim=pass ((((((", "mx.gm.test; dmarc=pass header.from=players.test")), False),
    ("own DKIM check: aligned signature", dict(dkim_domains=("players.test",)), True),
    ("own DKIM check: only the attacker's signature", dict(dkim_domains=("attacker.test",)), False),
    ("reply address in RCPT TO / Delivered-To", dict(recipients=(f"gm+{TOKEN}@gm.test",)), True),
    ("reply address of the turn before (a reply just after the deadline)",
     dict(recipients=(f"gm+{LAST_TURNS}@gm.test",)), True),
    ("reply address of a mail two turns old: a leaked mail is no key for the game",
     dict(recipients=(f"gm+{OLD_TOKEN}@gm.test",)), False),
    ("the password as a reply address (before reply tokens): no longer proof",
     dict(recipients=(f"gm+{SECRET}@gm.test",)), False),
    ("reply address, upper-cased by some client", dict(recipients=(f"<GM+{TOKEN.upper()}@GM.TEST>",)), True),
    ("another player's reply address", dict(recipients=("gm+aaaaaaaaaaaaaaaa@gm.test",)), False),
    ("the token at another domain", dict(recipients=(f"gm+{TOKEN}@attacker.test",)), False),
    ("password line", dict(passwords=(SECRET,)), True),
    ("wrong password line", dict(passwords=("guess",)), False),
    ("nothing at all", dict(), False),
    ("two From lines: a pass proves nothing", dict(authentication_results=(PASS_DMARC,),
                                                   dkim_domains=("players.test",), single_from=False), False),
    ("two From lines, but the reply address", dict(single_from=False, recipients=(f"gm+{TOKEN}@gm.test",)), True),
    ("the spoof from the issue: failing results, attacker's signature, plain GM address",
     dict(authentication_results=(FAIL_ALL,), dkim_domains=("attacker.test",), recipients=(GM,)), False),
]


@pytest.mark.parametrize("what, evidence, verified", CASES, ids=[case[0] for case in CASES])
def test_verify_sender(what, evidence, verified):
    outcome = check(**evidence)
    assert isinstance(outcome, Verified if verified else Unverified), outcome


def test_no_trusted_server_configured_means_the_header_is_never_trusted():
    outcome = verify_sender(Evidence(sender=FRANCE, authentication_results=(PASS_DMARC,)), secret=SECRET,
                            gm_address=GM, trusted_authserv_ids=())
    assert isinstance(outcome, Unverified)


def test_a_player_without_a_secret_proves_nothing_by_an_empty_token():
    outcome = verify_sender(Evidence(sender=FRANCE, recipients=("gm+@gm.test",), passwords=("",)), secret=None,
                            gm_address=GM, trusted_authserv_ids=TRUSTED)
    assert isinstance(outcome, Unverified)


def test_the_findings_say_what_failed_and_never_hold_the_secret():
    outcome = check(authentication_results=(FAIL_ALL,), dkim_domains=("attacker.test",), passwords=("guess",))
    assert isinstance(outcome, Unverified)
    text = " ".join(outcome.findings)
    assert "mx.gm.test" in text and "dmarc=fail" in text
    assert "attacker.test" in text and "reply address" in text and "password" in text
    assert SECRET not in text


def test_a_reply_token_shows_nothing_of_the_password_and_differs_per_period():
    assert len(TOKEN) == 16 and TOKEN == TOKEN.lower() and SECRET not in TOKEN
    assert len({TOKEN, LAST_TURNS, OLD_TOKEN, reply_token("another0password", "F1901M")}) == 4
    assert reply_token(SECRET.upper(), "F1901M") == TOKEN  # as the password line, in any case


def test_an_expired_reply_address_is_answered_with_the_newest_mail_to_reply_to():
    outcome = check(recipients=(f"gm+{OLD_TOKEN}@gm.test",))
    assert isinstance(outcome, Unverified)
    assert "reply to the newest mail from the GM" in " ".join(outcome.findings)


def test_trusted_results_takes_only_the_topmost_trusted_header():
    header = trusted_results([FAIL_ALL, PASS_DMARC], TRUSTED)
    assert header is not None and [r.result for r in header.results] == ["fail", "fail", "fail"]
    assert trusted_results([PASS_DMARC], ()) is None


@pytest.mark.parametrize("signer, from_domain, expected", [
    ("players.test", "players.test", True),
    ("mail.players.test", "players.test", True),
    ("players.test", "eu.players.test", True),
    ("mail.example.co.uk", "example.co.uk", True),
    ("other.co.uk", "example.co.uk", False),  # the public suffix is not an organization
    ("co.uk", "example.co.uk", False),
    ("attacker.test", "players.test", False),
    ("", "players.test", False),
])
def test_relaxed_alignment(signer, from_domain, expected):
    assert aligned(signer, from_domain) is expected


def test_reply_addresses():
    assert reply_address(GM, SECRET) == f"gm+{SECRET}@gm.test"
    assert address_secret(f"gm+{SECRET}@gm.test", GM) == SECRET
    assert address_secret("gm@gm.test", GM) is None
    assert address_secret("gm+@gm.test", GM) is None
    assert address_secret(f"other+{SECRET}@gm.test", GM) is None
    assert is_gm_recipient("GM@gm.test", GM) and is_gm_recipient("gm+x@GM.test", GM)
    assert not is_gm_recipient("gmx@gm.test", GM) and not is_gm_recipient("gm+x@other.test", GM)


def test_password_lines():
    text = "F PAR - BUR\nPassword: abc123\n  password = Def456  \nA MAR H\nmy password: is not a line"
    assert passwords_in(text) == ("abc123", "Def456")
    assert is_password_line("PASSWORD:xyz") and not is_password_line("F PAR - BUR")


# what binds a signed message to the GM and to now -------------------------------------------

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
GOOD_SIGNATURE = DkimSignature("players.test", ("from", "to", "subject", "date", "message-id"), False)


def bound(dated=NOW, *, to_gm=True, turn_opened=None, signature=GOOD_SIGNATURE, **evidence) -> Verified | Unverified:
    return check(dkim_domains=("players.test",), signatures=(signature,),
                 binding=Binding(dated, to_gm, received_at=NOW, turn_opened=turn_opened), **evidence)


@pytest.mark.parametrize("what, outcome", [
    ("a provider's signature, dated now, to the GM", bound()),
    ("dated a minute ago, after the turn opened", bound(NOW - timedelta(minutes=1), turn_opened=NOW - timedelta(hours=2))),
    ("a sender's clock a few minutes fast", bound(NOW + timedelta(minutes=10))),
    ("over-signed", bound(signature=DkimSignature("players.test", ("from", "to", "subject", "date") * 2, False))),
    ("an unaligned signature's tags do not matter",
     check(dkim_domains=("players.test",), signatures=(GOOD_SIGNATURE, DkimSignature("relay.test", ("from",), True)),
           binding=Binding(NOW, True, received_at=NOW))),
])
def test_a_bound_signature_proves_the_sender(what, outcome):
    assert isinstance(outcome, Verified), outcome


@pytest.mark.parametrize("what, outcome, said", [
    ("l= body length", bound(signature=DkimSignature("players.test", ("from", "to", "subject", "date"), True)),
     "(l=)"),
    ("To not signed", bound(signature=DkimSignature("players.test", ("from", "subject", "date"), False)),
     "does not cover its To header"),
    ("Subject and Date not signed", bound(signature=DkimSignature("players.test", ("from", "to"), False)),
     "does not cover its Subject, Date headers"),
    ("no Date", bound(None), "no readable Date"),
    ("dated before the turn opened (a replay of last turn's mail)",
     bound(NOW - timedelta(hours=3), turn_opened=NOW - timedelta(hours=2)), "not within this turn"),
    ("dated more than a day before it arrived", bound(NOW - timedelta(hours=25)), "not within this turn"),
    ("dated in the future", bound(NOW + timedelta(hours=1)), "not within this turn"),
    ("not addressed to the GM", bound(to_gm=False), "not addressed To the GM"),
    ("a second Subject (the server's pass too)",
     check(authentication_results=(PASS_DMARC,), repeated=("Subject",)), "more than one Subject header"),
    ("a trusted pass for a message whose aligned signature has l=",
     check(authentication_results=(PASS_DMARC,), binding=Binding(NOW, True, received_at=NOW),
           signatures=(DkimSignature("players.test", ("from", "to", "subject", "date"), True),)), "(l=)"),
])
def test_a_signature_or_pass_that_could_be_reused_proves_nothing(what, outcome, said):
    assert isinstance(outcome, Unverified) and said in " ".join(outcome.findings), outcome
    assert "reply address" in " ".join(outcome.findings)


def test_the_reply_address_proves_the_sender_whatever_the_headers():
    assert isinstance(bound(to_gm=False, repeated=("To",), recipients=(f"gm+{TOKEN}@gm.test",)), Verified)


@pytest.mark.parametrize("value, expected", [
    ("v=1; a=rsa-sha256; d=Players.Test; s=sel; h=From : To:Subject:\r\n Date; bh=x; b=y",
     DkimSignature("players.test", ("from", "to", "subject", "date"), False)),
    ("v=1; d=players.test; l=120; h=from:from; b=y", DkimSignature("players.test", ("from", "from"), True)),
    ("v=1; d=players.test; b=y", None),
    ("garbage", None),
])
def test_read_signature(value, expected):
    assert read_signature(value) == expected


@pytest.mark.parametrize("line", [
    f"Password: {SECRET} (do not share)", f"Passwort: {SECRET}", f"my code is {SECRET.upper()}!",
    f"write to gm+{TOKEN}@gm.test", f"pw={SECRET}",
])
def test_a_line_holding_the_password_or_a_reply_token_anywhere_is_taken_out(line):
    text, removed = without_secret_lines(f"Hello all.\n{line}\nBye.\n", (SECRET, TOKEN))
    assert text == "Hello all.\nBye.\n" and len(removed) == 1
    assert SECRET not in removed[0].lower() and TOKEN not in removed[0].lower() and "[your secret]" in removed[0]


def test_a_text_without_secrets_is_left_as_it_is():
    assert without_secret_lines("Password: of course not\nsee you\n", (SECRET, None, "")) == (
        "Password: of course not\nsee you\n", ())
