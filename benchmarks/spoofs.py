"""Spoofed orders against a "verified" game ("nobody in"): a script that prints figures,
not a test.

Every round sends, in France's name, one message of each forgery below and one of each genuine
proof, all through the whole inbound path (store, decide, sender check, read, outbox), and counts
what was used. A forgery must never be used; a genuine message always; and however many
forgeries arrive, France hears of them at most once an hour.

    .venv/bin/python benchmarks/spoofs.py [--rounds 50] [--database sqlite|postgresql] [--sender-check from]
"""

from __future__ import annotations

import argparse
import base64
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import dkim  # noqa: E402
from sqlalchemy import create_engine, func, select, text  # noqa: E402

from gmserver.db.migrate import upgrade  # noqa: E402
from gmserver.db.models import OrderSet, OutboxMessage, Player  # noqa: E402
from gmserver.db.session import transaction  # noqa: E402
from gmserver.rules.authenticity import reply_token  # noqa: E402
from gmserver.rules.subject import format_subject  # noqa: E402
from gmserver.services.inbox import runner as intake  # noqa: E402
from gmserver.services.base.context import SenderChecks  # noqa: E402
from tests.support.world import new_game, order_mail, services_for  # noqa: E402

FRANCE = "france@players.test"
TRUSTED = "mx.gm.test"
FAILED = f"{TRUSTED}; dkim=fail header.d=players.test; spf=fail smtp.mailfrom=attacker.test; " \
         "dmarc=fail header.from=players.test"


def key(folder: Path) -> tuple[bytes, str]:
    private = folder / "dkim.pem"
    subprocess.run(["openssl", "genrsa", "-out", str(private), "2048"], check=True, capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", str(private), "-pubout", "-outform", "DER"],
                            check=True, capture_output=True).stdout
    return private.read_bytes(), "v=DKIM1; k=rsa; p=" + base64.b64encode(public).decode()


def messages(n: int, secret: str, other_secret: str, private: bytes) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(forgeries, genuine messages) of round n; every body differs, so none is a duplicate."""
    subject = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M",
                             purpose="orders")

    def mail(sender: str = FRANCE, body: str = "A PAR - PIC", **headers: str) -> bytes:
        return order_mail(sender, subject, f"{body}\nround {n} {uuid.uuid4().hex}\n",
                          headers={k.replace("_", "-"): v for k, v in headers.items()})

    def signed(raw: bytes, domain: str) -> bytes:
        return dkim.sign(raw, b"sel", domain.encode(), private, include_headers=[b"from", b"subject"]) + raw

    forged = {
        "bare From (the issue's spoof)": mail(Return_Path="<evil@attacker.test>", Authentication_Results=FAILED),
        "untrusted server says pass": mail(Authentication_Results="mx.attacker.test; dmarc=pass "
                                                                  "header.from=players.test"),
        "forged pass below the real verdict": FAILED.encode().join(
            [b"Authentication-Results: ", b"\r\n" + mail(Authentication_Results=f"{TRUSTED}; dmarc=pass "
                                                                                 "header.from=players.test")]),
        "attacker's own DKIM signature": signed(mail(), "attacker.test"),
        "tampered players.test signature": signed(mail(body="A PAR - GAS"), "players.test").replace(
            b"A PAR - GAS", b"A PAR - PIC"),
        "second From line over a signed one": b"From: france@players.test\r\n" + signed(
            mail(sender="evil@players.test"), "players.test"),
        "display-name trick": mail(sender="france@players.test <evil@attacker.test>"),
        "guessed password": mail(body="A PAR - PIC\nPassword: letmein"),
        "another player's reply address": mail(Delivered_To=f"gm+{reply_token(other_secret, 'S1901M')}@gm.test"),
        "the password as a reply address": mail(Delivered_To=f"gm+{secret}@gm.test"),
    }
    genuine = {
        "reply to the reply address": mail(body="A PAR - BUR",
                                           Delivered_To=f"gm+{reply_token(secret, 'S1901M')}@gm.test"),
        "password line": mail(body=f"A PAR - BUR\nPassword: {secret}"),
        "players.test DKIM signature": signed(mail(body="A PAR - BUR"), "players.test"),
        "trusted dmarc=pass": mail(body="A PAR - BUR", Authentication_Results=f"{TRUSTED}; dmarc=pass "
                                                                              "header.from=players.test"),
    }
    return forged, genuine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--sender-check", choices=["verified", "from"], default="verified",
                        help="from: the same forgeries against a game that trusts From (the hole)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        private, record = key(Path(folder))
        keys = {"sel._domainkey.players.test.": record, "sel._domainkey.attacker.test.": record}
        if args.database == "sqlite":
            url, drop = f"sqlite:///{folder}/spoofs.db", (lambda: None)
        else:
            name = f"gmspoof_{uuid.uuid4().hex[:8]}"
            admin = create_engine("postgresql+psycopg://postgres@127.0.0.1:5432/postgres",
                                  isolation_level="AUTOCOMMIT")
            with admin.connect() as connection:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
            url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"

            def drop() -> None:
                with admin.connect() as connection:
                    connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        try:
            upgrade(url)
            services = services_for(url, sender_checks=SenderChecks(
                trusted_authserv_ids=(TRUSTED,),
                dkim_lookup=lambda n, timeout=5: keys.get(n.decode() if isinstance(n, bytes) else n)))
            now = datetime(2026, 11, 22, 12, tzinfo=timezone.utc)
            new_game(services, now, sender_check=args.sender_check, movement_hours=24 * 365)
            with transaction(services.sessions) as session:
                secrets = dict(session.execute(select(Player.power, Player.secret)).all())
            used: Counter[str] = Counter()
            sent: Counter[str] = Counter()
            started = time.perf_counter()
            for n in range(args.rounds):
                forged, genuine = messages(n, secrets["FRANCE"], secrets["GERMANY"], private)
                for kind, raw in [*((f"forged: {k}", v) for k, v in forged.items()),
                                  *((f"genuine: {k}", v) for k, v in genuine.items())]:
                    before = _versions(services)
                    intake.store(services.sessions, raw, source="smtp", now=now)
                    intake.process_pending(services, now)
                    sent[kind] += 1
                    used[kind] += _versions(services) - before
                now += timedelta(minutes=10)  # six rounds an hour
            elapsed = time.perf_counter() - started
            with transaction(services.sessions) as session:
                warnings = session.scalar(select(func.count(OutboxMessage.id)).where(
                    OutboxMessage.dedupe_key.startswith("unverified:")))
        finally:
            drop()
    forged_sent = sum(c for k, c in sent.items() if k.startswith("forged"))
    forged_used = sum(c for k, c in used.items() if k.startswith("forged"))
    genuine_sent = sum(c for k, c in sent.items() if k.startswith("genuine"))
    genuine_used = sum(c for k, c in used.items() if k.startswith("genuine"))
    for kind in sent:
        print(f"  {kind:<50} {used[kind]:>4} used of {sent[kind]}")
    hours = args.rounds * 10 / 60
    print(f"{args.database}, sender check {args.sender_check}: spoofs refused {forged_sent - forged_used} of {forged_sent}; genuine messages taken "
          f"{genuine_used} of {genuine_sent}; warnings to France {warnings} over {hours:.1f} h of forgeries; "
          f"{(forged_sent + genuine_sent) / elapsed:.0f} messages/s through the whole inbound path")
    return 0 if args.sender_check == "from" or (forged_used == 0 and genuine_used == genuine_sent) else 1


def _versions(services) -> int:
    with transaction(services.sessions) as session:
        return session.scalar(select(func.count(OrderSet.id)))


if __name__ == "__main__":
    sys.exit(main())
