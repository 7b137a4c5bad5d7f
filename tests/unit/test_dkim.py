"""Our own DKIM check (gmserver.mail.dkim) with a real key made here: dkimpy signs, we verify,
the DNS answer comes from the test (never the network)."""

from __future__ import annotations

import dkim
import pytest

from gmserver.mail.dkim import (
    DEAD_DOMAIN_SECONDS,
    DNS_TIMEOUT_SECONDS,
    MESSAGE_BUDGET_SECONDS,
    KeyLookups,
    offline_lookup,
    verified_domains,
)
from tests.support.dkim import new_dkim_key
from tests.support.world import order_mail


@pytest.fixture(scope="module")
def key(tmp_path_factory) -> tuple[bytes, str]:
    """(private key PEM, the TXT record that publishes its public half)."""
    return new_dkim_key(tmp_path_factory.mktemp("dkim"))


def signed(message: bytes, private: bytes, domain: str = "players.test") -> bytes:
    signature = dkim.sign(message, b"sel", domain.encode(), private,
                          include_headers=[b"from", b"to", b"subject", b"message-id"])
    return signature + message


def dns(records: dict[str, str]):
    asked: list[str] = []

    def lookup(name, timeout=5):
        name = name.decode() if isinstance(name, bytes) else name
        asked.append(name)
        return records.get(name)
    lookup.asked = asked
    return lookup


MESSAGE = order_mail("france@players.test", "lepanto France S1901M", "F BRE - MAO\nA PAR - BUR\n")


def test_a_valid_signature_names_its_domain(key):
    private, record = key
    lookup = dns({"sel._domainkey.players.test.": record})
    assert verified_domains(signed(MESSAGE, private), lookup) == ("players.test",)
    assert lookup.asked == ["sel._domainkey.players.test."]


def test_a_tampered_body_does_not_verify(key):
    private, record = key
    tampered = signed(MESSAGE, private).replace(b"A PAR - BUR", b"A PAR - PIC")
    assert verified_domains(tampered, dns({"sel._domainkey.players.test.": record})) == ()


def test_a_tampered_from_does_not_verify(key):
    private, record = key
    tampered = signed(MESSAGE, private).replace(b"From: france@players.test", b"From: germany@players.test")
    assert verified_domains(tampered, dns({"sel._domainkey.players.test.": record})) == ()


def test_the_attackers_own_signature_verifies_for_the_attackers_domain(key):
    """The check says who signed; alignment with From is decided by rules.authenticity."""
    private, record = key
    message = signed(MESSAGE, private, domain="attacker.test")
    assert verified_domains(message, dns({"sel._domainkey.attacker.test.": record})) == ("attacker.test",)


def test_no_key_published_or_no_signature(key):
    private, _ = key
    assert verified_domains(signed(MESSAGE, private), offline_lookup) == ()
    lookup = dns({})
    assert verified_domains(MESSAGE, lookup) == () and lookup.asked == []


def test_a_broken_signature_is_no_signature():
    broken = b"DKIM-Signature: v=1; a=rsa-sha256; d=players.test; b=!!!\r\n" + MESSAGE
    assert verified_domains(broken, dns({})) == ()


def test_hundreds_of_signatures_cost_a_few_lookups():
    many = b"".join(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/simple; d=players.test; s=s%d; "
                    b"h=from; bh=AAAA; b=AAAA\r\n" % i for i in range(300)) + MESSAGE
    lookup = dns({})
    assert verified_domains(many, lookup) == ()
    assert len(lookup.asked) <= 4


def test_a_signature_without_a_key_is_no_error_in_the_log(key, caplog):
    private, _ = key
    with caplog.at_level("DEBUG"):
        assert verified_domains(signed(MESSAGE, private), offline_lookup) == ()
    assert caplog.records and all(record.levelname in ("DEBUG", "INFO") for record in caplog.records)


# -- domains whose DNS never answers ---------------------------------------------------------------

def dead_signatures(*domains: str) -> bytes:
    return b"".join(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/simple; d=%s; s=sel; h=from:to:subject:date; "
                    b"bh=AAAA; b=AAAA\r\n" % domain.encode() for domain in domains) + MESSAGE


class DeadDns:
    """A resolver that never answers: each look-up 'waits' its whole timeout on a clock the test
    keeps (nothing sleeps), then fails as dnspython does."""

    def __init__(self) -> None:
        self.now, self.asked = 1000.0, []

    def clock(self) -> float:
        return self.now

    def __call__(self, name, timeout=5):
        self.asked.append((name.decode() if isinstance(name, bytes) else name, timeout))
        self.now += timeout
        raise dkim.DnsTimeoutError("no answer")


def test_four_dead_domains_cost_one_message_budget_not_four_timeouts():
    dns_ = DeadDns()
    lookups = KeyLookups(dns_, clock=dns_.clock)
    assert lookups.verify(dead_signatures("a.test", "b.test", "c.test", "d.test")) == ()
    assert dns_.now - 1000.0 <= MESSAGE_BUDGET_SECONDS
    assert all(timeout <= DNS_TIMEOUT_SECONDS for _, timeout in dns_.asked)


def test_a_domain_that_did_not_answer_is_not_asked_again_for_a_while():
    dns_ = DeadDns()
    lookups = KeyLookups(dns_, clock=dns_.clock, budget_seconds=60)
    lookups.verify(dead_signatures("a.test", "b.test"))
    assert [name for name, _ in dns_.asked] == ["sel._domainkey.a.test.", "sel._domainkey.b.test."]
    dns_.asked.clear()
    assert lookups.verify(dead_signatures("a.test", "b.test", "c.test")) == ()
    assert [name for name, _ in dns_.asked] == ["sel._domainkey.c.test."]  # a and b: no time spent
    dns_.now += DEAD_DOMAIN_SECONDS + 1
    dns_.asked.clear()
    lookups.verify(dead_signatures("a.test"))
    assert [name for name, _ in dns_.asked] == ["sel._domainkey.a.test."]


def test_a_quick_no_key_answer_does_not_mark_the_domain_dead(key):
    """A forger's unknown selector at a real player's domain must not cost the player their proof."""
    private, record = key
    answers = dns({"sel._domainkey.players.test.": record})
    lookups = KeyLookups(answers)
    forged = b"DKIM-Signature: v=1; a=rsa-sha256; d=players.test; s=nope; h=from; bh=AAAA; b=AAAA\r\n" + MESSAGE
    assert lookups.verify(forged) == ()
    assert lookups.verify(signed(MESSAGE, private)) == ("players.test",)


def test_the_result_is_remembered_for_the_transaction_that_follows(key):
    private, record = key
    lookups = KeyLookups(dns({"sel._domainkey.players.test.": record}))
    message = signed(MESSAGE, private)
    assert lookups.remembered(message) is None
    assert lookups.verify(message) == ("players.test",)
    assert lookups.remembered(message) == ("players.test",)
