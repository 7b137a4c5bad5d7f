"""Our own DKIM check (gmserver.mail.dkim) with a real key made here: dkimpy signs, we verify,
the DNS answer comes from the test (never the network)."""

from __future__ import annotations


import dkim
import pytest

from gmserver.mail.dkim import offline_lookup, verified_domains
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
