"""Fuzz run: generated hostile mail through the whole inbound path, in-process.

Each message is made (seeded) from one of: a real order mail (tests/data/orders/emails/*.eml) with
its sender and subject rewritten, a message of the HOSTILE set (tests/integration/
test_hostile_mail.py), random headers, encoded words (broken charsets, encoded CR/LF, long runs),
nested multiparts, oversized headers, forged senders, or an auto-reply (marked by a header, or an
"Out of Office" subject answering one of our own messages); half of them are then mutated at the
byte level. Each goes through `intake.store` and `intake.process_one` with a simulated clock (a few
seconds to a minute between messages); games fall due now and then (`turns.adjudicate_due`).

Checked: no exception escapes store or process; every message ends done (accepted, rejected,
ignored, refused ...) or parked with an error, none pending; every queued mail is well-formed (it
parses, one To with one address, one Message-ID, Auto-Submitted, no Cc/Bcc, no header line broken
by a stray CR or LF, a body that decodes); no reply to a message marked automated; replies to
strangers and refusals to players within the rate limits; no message takes longer than
--message-timeout. Printed: counts per outcome and per generator, messages/s, peak RSS, the
slowest message. Exit status 1 when an invariant broke.

Several workers (--workers) each run their share on a database of their own (separate SQLite
files), seeded with the seed and their number.

    python scripts/reliability/fuzz.py --count 100000 --workers 2 --seed 1
"""

from __future__ import annotations

import argparse
import base64
import email
import email.policy
import multiprocessing
import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import common

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
GAMES = ("lepanto", "secretgame", "hidden-alpha")
VERIFIED = "hidden-alpha"  # its sender check is "verified": a forged From must never be read as a player
EMAILS = sorted((common.ROOT / "tests" / "data" / "orders" / "emails").glob("*.eml"))
GENERATORS = {"real": 26, "hostile": 10, "random-headers": 10, "encoded-words": 10, "multipart": 8,
              "oversized": 4, "forged": 10, "auto-reply": 12, "stranger": 10}
START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


class MessageTimeout(Exception):
    pass


class Generator:
    """Seeded message maker. Each generator returns the raw message and the automated mark it
    carries intact ("" for none), so that the run can check that no such message is answered."""

    def __init__(self, rng: random.Random, hostile: list[tuple[str, bytes]], bomb_kb: int) -> None:
        self.rng = rng
        self.hostile = hostile
        self.bomb_kb = bomb_kb
        self.real = [path.read_bytes() for path in EMAILS]
        self.our_ids: list[str] = []  # Message-IDs of our own mail, for auto-replies that answer one
        self.counter = 0

    def new_id(self) -> str:
        self.counter += 1
        return f"<fuzz-{self.counter}-{self.rng.getrandbits(32):08x}@players.test>"

    def subject(self) -> str:
        from gmserver.rules.subject import format_subject

        game = self.rng.choice(GAMES)
        phase = self.rng.choice(["S1901M", "S1901M", "F1901M", "S1902M", "W1901A"])
        if self.rng.random() < 0.8:
            return format_subject(template="standard", game_name=game, power=self.rng.choice(POWERS), phase=phase,
                                  purpose="orders")
        return self.rng.choice(["orders", f"{game}", "Re: hi", "", "lepanto secretgame hidden alpha France",
                                "ΣΦΑΛΜΑ", "=?utf-8?q?lepanto_France_S1901M?="])

    def sender(self) -> str:
        return player(self.rng.choice(POWERS)) if self.rng.random() < 0.7 else self.stranger()

    def stranger(self) -> str:
        return f"stranger{self.rng.randrange(50)}@elsewhere{self.rng.randrange(5)}.test"

    def text(self, size: int) -> str:
        alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFG-0123456789 /:;,.<>()@\"'=?_\t\\éüß中文🙂\u202e\x00\x7f"
        return "".join(self.rng.choice(alphabet) for _ in range(size))

    # -- generators -------------------------------------------------------------------------

    def make(self) -> tuple[str, bytes, str]:
        """(generator, raw, the automated mark it carries or "")."""
        kind = self.rng.choices(list(GENERATORS), weights=list(GENERATORS.values()))[0]
        raw, automated = getattr(self, "gen_" + kind.replace("-", "_"))()
        if kind != "auto-reply" and kind != "oversized" and self.rng.random() < 0.5:
            raw = self.mutate(raw)
        return kind, raw, automated

    def headers(self, raw: bytes, **replace: str) -> bytes:
        head, sep, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
        lines = [line for line in head.split(b"\n")
                 if line.split(b":", 1)[0].strip().lower().decode("latin-1") not in {k.lower().replace("_", "-")
                                                                                      for k in replace}]
        extra = [f"{k.replace('_', '-')}: {v}".encode("utf-8", "surrogateescape") for k, v in replace.items()]
        return b"\r\n".join(extra + lines) + b"\r\n\r\n" + body.replace(b"\n", b"\r\n")

    def gen_real(self) -> tuple[bytes, str]:
        raw = self.rng.choice(self.real)
        return self.headers(raw, From=self.sender(), To=common.GM, Subject=self.subject(),
                            Message_ID=self.new_id()), ""

    def gen_stranger(self) -> tuple[bytes, str]:
        raw = self.rng.choice(self.real)
        return self.headers(raw, From=self.stranger(), Subject=self.subject(), Message_ID=self.new_id()), ""

    def gen_hostile(self) -> tuple[bytes, str]:
        _, raw = self.rng.choice(self.hostile)
        return f"Message-ID: {self.new_id()}\r\n".encode() + raw, ""

    def gen_random_headers(self) -> tuple[bytes, str]:
        names = ["From", "To", "Subject", "Date", "Reply-To", "Sender", "Return-Path", "Content-Type",
                 "Content-Transfer-Encoding", "MIME-Version", "References", "In-Reply-To", "X-" + self.text(5),
                 self.text(8).replace(":", ""), "Received", "Cc", "Message-ID"]
        lines = [f"Message-ID: {self.new_id()}"]
        for _ in range(self.rng.randrange(1, 15)):
            lines.append(f"{self.rng.choice(names)}: {self.text(self.rng.randrange(0, 200))}")
        if self.rng.random() < 0.7:
            lines.append(f"From: {self.sender()}")
        body = self.text(self.rng.randrange(0, 500))
        return ("\r\n".join(lines) + "\r\n\r\n" + body).encode("utf-8", "surrogateescape"), ""

    def encoded_word(self) -> str:
        charset = self.rng.choice(["utf-8", "iso-8859-1", "x-unknown", "utf-16", "UTF-8*en", "koi8-r", ""])
        if self.rng.random() < 0.5:
            payload = base64.b64encode(self.text(self.rng.randrange(0, 40)).encode("utf-8", "surrogatepass")).decode()
            if self.rng.random() < 0.2:
                payload = payload[:-2]  # broken padding
            return f"=?{charset}?b?{payload}?="
        payload = self.rng.choice(["A", "=E2=80", "=0D=0ABcc:_evil@attacker.test", "x=0Ay", "Germany_=F0=9F",
                                   "lepanto_France_S1901M", "=00", "_" * 10])
        return f"=?{charset}?q?{payload}?="

    def gen_encoded_words(self) -> tuple[bytes, str]:
        words = " ".join(self.encoded_word() for _ in range(self.rng.randrange(1, 30)))
        name = " ".join(self.encoded_word() for _ in range(self.rng.randrange(1, 4)))
        message = (f"From: {name} <{self.sender()}>\r\nTo: {common.GM}\r\nSubject: {words}\r\n"
                   f"Message-ID: {self.new_id()}\r\n\r\nA PAR - BUR\r\n")
        return message.encode("utf-8", "surrogateescape"), ""

    def gen_multipart(self) -> tuple[bytes, str]:
        depth = self.rng.choice([1, 2, 3, 5, 10, 50, 200]) if self.rng.random() < 0.95 else 1000
        head = (f"From: {self.sender()}\r\nTo: {common.GM}\r\nSubject: {self.subject()}\r\n"
                f"Message-ID: {self.new_id()}\r\nMIME-Version: 1.0\r\n")
        parts, tails = [], []
        for level in range(depth):
            parts.append(f"Content-Type: multipart/{self.rng.choice(['mixed', 'alternative', 'related'])}; "
                         f"boundary=\"b{level}\"\r\n\r\n--b{level}\r\n")
            tails.append(f"\r\n--b{level}--\r\n" if self.rng.random() < 0.8 else "")
        inner = self.rng.choice(["Content-Type: text/plain\r\n\r\nA PAR - BUR\r\n",
                                 "Content-Type: text/html\r\n\r\n<p>A Par-Bur</p>\r\n",
                                 "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                                 + base64.b64encode(b"F Bre - MAO\n").decode() + "\r\n",
                                 "Content-Type: message/rfc822\r\n\r\nFrom: x@y\r\n\r\nA PAR H\r\n"])
        return (head + "".join(parts) + inner + "".join(reversed(tails))).encode(), ""

    def gen_oversized(self) -> tuple[bytes, str]:
        size = self.rng.randrange(1, self.bomb_kb + 1) * 1024
        style = self.rng.choice(["encoded-word bomb", "long subject", "many headers", "long line"])
        head = f"From: {self.sender()}\r\nTo: {common.GM}\r\nMessage-ID: {self.new_id()}\r\n"
        if style == "encoded-word bomb":
            line = " ".join(["=?utf-8?q?A?="] * 60)
            head += "Subject: " + "\r\n ".join([line] * max(size // len(line), 1)) + "\r\n"
        elif style == "long subject":
            head += "Subject: " + ("lepanto France S1901M " * (size // 22)) + "\r\n"
        elif style == "many headers":
            head += "".join(f"X-Filler-{n}: {'x' * 40}\r\n" for n in range(size // 54)) + f"Subject: {self.subject()}\r\n"
        else:
            head += f"Subject: {self.subject()}\r\n"
            return (head + "\r\n" + "A PAR - BUR " * (size // 12) + "\r\n").encode(), ""
        return (head + "\r\nA PAR - BUR\r\n").encode(), ""

    def gen_forged(self) -> tuple[bytes, str]:
        """A player's address forged by a stranger, about the game whose senders are verified."""
        from gmserver.rules.subject import format_subject

        power = self.rng.choice(POWERS)
        form = self.rng.choice([f"{player(power)} <evil@attacker.test>", f"\"{player(power)}\" <evil@attacker.test>",
                                f"{power.title()} <{player(power)}>", f"{player(power)}, evil@attacker.test",
                                f"=?utf-8?q?{power}=0D=0ABcc:_x@attacker.test?= <{player(power)}>",
                                f"{power.title()} \u2039", f"<{player(power)}>\r\n\tX-Injected: yes"])
        message = EmailMessage()
        message["Message-ID"] = self.new_id()
        message["To"] = common.GM
        message["Subject"] = format_subject(template="standard", game_name=VERIFIED, power=power, phase="S1901M",
                                            purpose="orders")
        message["Return-Path"] = "<evil@attacker.test>"
        message["Authentication-Results"] = "mx.gm.test; dkim=fail; spf=fail; dmarc=fail header.from=players.test"
        message.set_content("A PAR - BUR\nF BRE - MAO\n")
        raw = message.as_bytes()
        return f"From: {form}\r\n".encode("utf-8", "surrogateescape") + raw, ""

    def gen_auto_reply(self) -> tuple[bytes, str]:
        from gmserver.rules.subject import format_subject

        message = EmailMessage()
        message["From"] = self.sender()
        message["To"] = common.GM
        message["Message-ID"] = self.new_id()
        original = format_subject(template="standard", game_name=self.rng.choice(GAMES),
                                  power=self.rng.choice(POWERS), phase="S1901M", purpose="report")
        mark = self.rng.choice(["Auto-Submitted", "X-Autoreply", "X-Autorespond", "Precedence", "Return-Path",
                                "X-Auto-Response-Suppress", "subject"])
        prefix = self.rng.choice(["Out of Office: ", "Automatic reply: ", "Auto: ", "Abwesenheitsnotiz: "])
        message["Subject"] = prefix + "Re: " + original
        if mark == "Auto-Submitted":
            message["Auto-Submitted"] = self.rng.choice(["auto-replied", "auto-generated", "auto-notified"])
        elif mark == "Precedence":
            message["Precedence"] = self.rng.choice(["bulk", "junk", "list"])
        elif mark == "Return-Path":
            message["Return-Path"] = "<>"
        elif mark == "X-Auto-Response-Suppress":
            message["X-Auto-Response-Suppress"] = "All"
        elif mark != "subject":
            message[mark] = "yes"
        if self.our_ids and (mark == "subject" or self.rng.random() < 0.5):
            message["In-Reply-To"] = self.rng.choice(self.our_ids)
        elif mark == "subject":
            mark = "unmarked"  # an "Out of Office" subject that answers none of our mail is not proof
        message.set_content("I am away until Monday and will read your mail when I return.\n"
                            + ("A PAR - BUR\n" if self.rng.random() < 0.3 else ""))
        return message.as_bytes(), "" if mark == "unmarked" else mark

    # -- byte-level mutation -----------------------------------------------------------------

    def mutate(self, raw: bytes) -> bytes:
        data = bytearray(raw)
        for _ in range(self.rng.randrange(1, 6)):
            op = self.rng.randrange(6)
            at = self.rng.randrange(len(data) + 1)
            if op == 0 and data:
                data[min(at, len(data) - 1)] = self.rng.randrange(256)
            elif op == 1:
                data[at:at + self.rng.randrange(1, 40)] = b""
            elif op == 2:
                data[at:at] = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 20)))
            elif op == 3:
                end = min(len(data), at + self.rng.randrange(1, 200))
                data[at:at] = data[at:end] * self.rng.randrange(1, 5)
            elif op == 4:
                data[at:at] = self.rng.choice([b"\r\n", b"\n", b"\r", b"\r\n\r\n", b"=?utf-8?q?", b"?=", b"--",
                                               b"\r\nContent-Type: multipart/mixed; boundary=x\r\n", b"\x00"])
            else:
                data = data[:at]
        return bytes(data)


# -- checking what was queued ----------------------------------------------------------------

def reply_problems(raw: bytes) -> list[str]:
    problems = []
    head = raw.split(b"\r\n\r\n", 1)[0]
    for line in head.split(b"\r\n"):
        if b"\r" in line or b"\n" in line:
            problems.append("a stray CR or LF in a header")
        elif line and line[:1] not in (b" ", b"\t") and b":" not in line:
            problems.append(f"a header line that is no header: {line[:60]!r}")
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        for name in ("To", "From", "Message-ID", "Subject", "Auto-Submitted"):
            count = len(message.get_all(name) or [])
            if count != 1:
                problems.append(f"{count} {name} headers")
        if message["To"] is not None and len(message["To"].addresses) != 1:
            problems.append(f"To names {len(message['To'].addresses)} addresses")
        for name in ("Cc", "Bcc"):
            if message[name] is not None:
                problems.append(f"a {name} header")
        # a turn report is multipart (text, HTML, the map): its text/plain part is the body, and
        # every part must decode
        body = message.get_body(("plain",))
        if body is None or not body.get_content().strip():
            problems.append("an empty body")
        for part in message.walk():
            if not part.is_multipart():
                part.get_content()
    except Exception as error:  # noqa: BLE001  a reply that does not parse is the finding
        problems.append(f"does not parse: {type(error).__name__}: {error}")
    return problems


def worker(index: int, count: int, seed: int, url: str, args: dict) -> dict:
    import logging

    from sqlalchemy import select

    from gmserver.config import Config
    from gmserver.daemon import build_services
    from gmserver.db.migrate import upgrade
    from gmserver.db.models import InboundMessage, OutboxMessage
    from gmserver.db.session import transaction
    from gmserver.rules.ruleset import load_ruleset
    from gmserver.services.base.outbox import message_bytes
    from gmserver.services.base.reply_limits import NOTICE_KIND, NOTICES_PER_HOUR
    from gmserver.services.game.games import GameSpec, PlayerSpec, create_game
    from gmserver.services.inbox import runner as intake
    from gmserver.services.turn import turns
    from tests.integration.test_hostile_mail import HOSTILE

    logging.basicConfig(level=logging.CRITICAL)  # parked messages log errors by design: counted below
    upgrade(url)
    services = build_services(Config(database_url=url, gm_address=common.GM))
    with transaction(services.sessions) as session:
        for name, ruleset in zip(GAMES, ("standard", "mhr", "standard"), strict=False):
            game = create_game(session, GameSpec(
                name=name, ruleset=load_ruleset(ruleset),
                players=[PlayerSpec(p, player(p), f"{p.lower()}.backup@players.test") for p in POWERS],
                movement=timedelta(hours=24), retreat=timedelta(hours=12), adjustment=timedelta(hours=12),
                reminder=timedelta(hours=0), enforce_minimums=False), START)
            game.sender_check = "verified" if name == VERIFIED else "from"  # one game verifies senders
    rng = random.Random(seed * 1000 + index)
    generator = Generator(rng, sorted(HOSTILE.items()), args["bomb_kb"])
    limit = args["message_timeout"]

    def on_alarm(*_):  # type: ignore[no-untyped-def]
        raise MessageTimeout(f"a message took more than {limit} s")

    signal.signal(signal.SIGALRM, on_alarm)
    now = START
    kinds: Counter[str] = Counter()
    by_kind: Counter[tuple[str, str]] = Counter()
    automated: list[tuple[str, str]] = []  # (Message-ID, mark)
    escapes: list[str] = []
    slowest = (0.0, -1, "")
    started = time.perf_counter()
    deadline = started + args["max_seconds"]
    done = 0
    for number in range(count):
        if time.perf_counter() > deadline:
            break
        kind, raw, marked = generator.make()
        kinds[kind] += 1
        if marked:
            automated.append((_message_id(raw), marked))
        now += timedelta(seconds=rng.uniform(1, 60))
        begun = time.perf_counter()
        signal.alarm(limit)
        try:
            stored = intake.store(services.sessions, raw, source="smtp", now=now)
            outcome = intake.process_one(services, stored.id, now) if not stored.duplicate else "duplicate"
            by_kind[(kind, outcome or "taken")] += 1
        except Exception as error:  # noqa: BLE001  an escape is the finding: keep going, report it
            escapes.append(printable(f"worker {index} message {number} ({kind}): {type(error).__name__}: {error}"))
            if args["dir"]:
                Path(args["dir"], f"escape-{index}-{number}.eml").write_bytes(raw)
                Path(args["dir"], f"escape-{index}-{number}.txt").write_text(printable(traceback.format_exc()))
        finally:
            signal.alarm(0)
        took = time.perf_counter() - begun
        if took > slowest[0]:
            slowest = (took, number, kind)
        done += 1
        if number % 500 == 499:
            turns.adjudicate_due(services, now)
        if number % 100 == 99:
            with transaction(services.sessions) as session:
                generator.our_ids = list(session.scalars(
                    select(OutboxMessage.message_id).order_by(OutboxMessage.id.desc()).limit(50)))
    try:  # what a message's escape left pending: the daemon's inbound job does just this
        intake.process_pending(services, now)
    except Exception as error:  # noqa: BLE001  the finding: one message stops the whole queue
        escapes.append(printable(f"worker {index} process_pending at the end: {type(error).__name__}: {error}"))
    elapsed = time.perf_counter() - started

    with transaction(services.sessions) as session:
        rows = session.execute(select(InboundMessage.status, InboundMessage.outcome, InboundMessage.error,
                                      InboundMessage.message_id)).all()
        # message_bytes: a player's copy of a stored report is written as the sender would write it
        outbox_rows = [(row.kind, row.recipient, message_bytes(row), row.created_at)
                       for row in session.scalars(select(OutboxMessage))]
    services.sessions.kw["bind"].dispose()
    bad_replies = Counter()
    replied_to = Counter()
    sent_to: dict[str, list[tuple[datetime, str]]] = {}
    for kind, recipient, raw, created in outbox_rows:
        for problem in reply_problems(raw):
            bad_replies[problem] += 1
        message = email.message_from_bytes(raw, policy=email.policy.compat32)
        replied_to[" ".join(str(message.get("In-Reply-To", "")).split())] += 1
        sent_to.setdefault(recipient.lower(), []).append((created, kind))
    players = {player(p) for p in POWERS} | {f"{p.lower()}.backup@players.test" for p in POWERS}
    over_limit = []
    for recipient, sent in sent_to.items():
        limits: list[tuple[list[datetime], timedelta, int]] = []
        notices = sorted(created for created, kind in sent if kind == NOTICE_KIND)
        if recipient in players or recipient == common.GM:
            # the GM's own address plays no power: its mail is a command, answered by a notice
            limits.append((notices, timedelta(hours=1), NOTICES_PER_HOUR))
        if recipient in players:
            refusals = sorted(created for created, kind in sent if kind == "rejection")
            limits.append((refusals, timedelta(hours=1), args["player_refusals_per_hour"]))
        elif recipient != common.GM:
            # any mail at all to a stranger counts
            limits.append((sorted(created for created, _ in sent), timedelta(days=1), args["stranger_replies_per_day"]))
        for moments, window, most in limits:
            for position, moment in enumerate(moments):
                inside = sum(1 for other in moments[position:] if other - moment < window)
                if inside > most:
                    over_limit.append(f"{recipient}: {inside} within {window}")
                    break
    parked = [(error or "").splitlines()[0][:100] if error else "(no error)" for status, _, error, _ in rows
              if status == "failed"]
    return {
        "worker": index, "messages": done, "by_kind": {f"{k} {o}": n for (k, o), n in by_kind.items()},
        "seconds": elapsed, "kinds": dict(kinds),
        "outcomes": dict(Counter(outcome or status for status, outcome, _, _ in rows)),
        "stored": len(rows), "pending": sum(1 for status, *_ in rows if status == "pending"),
        "parked": dict(Counter(parked)), "parked_without_error": sum(1 for p in parked if p == "(no error)"),
        "escapes": escapes, "replies": len(outbox_rows), "replies_by_kind": dict(Counter(k for k, *_ in outbox_rows)),
        "bad_replies": dict(bad_replies), "automated": len(automated),
        "automated_answered": [f"{mid} ({mark})" for mid, mark in automated if mid and replied_to[mid]],
        "automated_marks": dict(Counter(mark for _, mark in automated)),
        "automated_answered_marks": dict(Counter(mark for mid, mark in automated if mid and replied_to[mid])),
        "over_limit": over_limit, "slowest": slowest, "rss_mb": common.peak_rss_mb(),
    }


def printable(text: str) -> str:
    """Text with the undecodable bytes of hostile mail (lone surrogates) written as escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _message_id(raw: bytes) -> str:
    from email.parser import BytesHeaderParser

    value = BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw).get("Message-ID")
    return " ".join(str(value).split()) if value is not None else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000, help="messages in all (default 100,000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes, a database each (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--bomb-kb", type=int, default=32, help="largest oversized header, in KB (default 32)")
    parser.add_argument("--message-timeout", type=int, default=60,
                        help="seconds one message may take before it counts as a hang (default 60)")
    parser.add_argument("--max-seconds", type=float, default=3600, help="each worker stops after this (default 3600)")
    parser.add_argument("--player-refusals-per-hour", type=int, default=5)
    parser.add_argument("--stranger-replies-per-day", type=int, default=1)
    parser.add_argument("--dir", help="keep the databases here, with every message that escaped")
    parser.add_argument("--json", help="also write the figures and checks to this JSON file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="gmfuzz") as tmp:
        work = Path(args.dir) if args.dir else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        shares = [args.count // args.workers + (1 if n < args.count % args.workers else 0) for n in range(args.workers)]
        databases = []
        for n in range(args.workers):
            folder = work / f"worker{n}"
            folder.mkdir(exist_ok=True)
            databases.append(common.Database(args.database, folder, keep=bool(args.dir), prefix="gmfuzz").__enter__())
        options = {"bomb_kb": args.bomb_kb, "message_timeout": args.message_timeout, "max_seconds": args.max_seconds,
                   "player_refusals_per_hour": args.player_refusals_per_hour,
                   "stranger_replies_per_day": args.stranger_replies_per_day, "dir": str(work) if args.dir else None}
        started = time.perf_counter()
        try:
            if args.workers == 1:
                results = [worker(0, shares[0], args.seed, databases[0].url, options)]
            else:
                with multiprocessing.get_context("fork").Pool(args.workers) as pool:
                    results = pool.starmap(worker, [(n, shares[n], args.seed, databases[n].url, options)
                                                    for n in range(args.workers)])
        finally:
            for database in databases:
                database.__exit__()
        wall = time.perf_counter() - started
    return summarise(args, results, wall)


def summarise(args: argparse.Namespace, results: list[dict], wall: float) -> int:
    report = common.Report(f"fuzz run on {args.database}, {args.workers} worker(s), seed {args.seed}")
    total = sum(r["messages"] for r in results)

    def add(key: str) -> dict:
        merged: Counter = Counter()
        for r in results:
            merged.update(r[key])
        return dict(sorted(merged.items()))

    report.figure("messages", total)
    report.figure("by generator", add("kinds"))
    forged = {key.split(" ", 1)[1]: n for key, n in add("by_kind").items() if key.startswith("forged ")}
    report.figure("forged senders (a player's address, game with verified senders), by outcome", forged)
    report.figure("stored (distinct fingerprints)", sum(r["stored"] for r in results))
    report.figure("outcomes", add("outcomes"))
    report.figure("parked", sum(sum(r["parked"].values()) for r in results))
    if any(r["parked"] for r in results):
        report.figure("parked errors", add("parked"))
    report.figure("replies queued", add("replies_by_kind"))
    report.figure("automated messages, by mark", add("automated_marks"))
    report.figure("automated messages answered, by mark", add("automated_answered_marks"))
    report.figure("wall seconds", f"{wall:.1f}")
    report.figure("messages/s", f"{total / wall:.0f}")
    report.figure("messages/s per worker", [f"{r['messages'] / r['seconds']:.0f}" for r in results])
    slowest = max((r["slowest"] + (r["worker"],) for r in results), key=lambda s: s[0])
    report.figure("slowest message", f"{slowest[0]:.2f} s (worker {slowest[3]}, message {slowest[1]}, {slowest[2]})")
    report.figure("peak RSS per worker, MB", [f"{r['rss_mb']:.0f}" for r in results])
    escapes = [e for r in results for e in r["escapes"]]
    report.check("all messages generated", total == args.count, f"{total} of {args.count} within --max-seconds")
    timeouts = [e for e in escapes if "MessageTimeout" in e]
    report.check("no exception escapes store or process", not [e for e in escapes if "MessageTimeout" not in e],
                 common.sample([e for e in escapes if "MessageTimeout" not in e], 3))
    report.check(f"no message takes more than {args.message_timeout} s", not timeouts, common.sample(timeouts, 3))
    report.check("nothing left pending", sum(r["pending"] for r in results) == 0,
                 f"{sum(r['pending'] for r in results)} pending")
    report.check("every parked message has its error", sum(r["parked_without_error"] for r in results) == 0)
    report.check("no forged sender accepted in a game whose senders are verified", not forged.get("accepted"),
                 f"{forged.get('accepted')} accepted")
    bad = add("bad_replies")
    report.check("every queued mail well-formed", not bad, str(bad))
    answered = [m for r in results for m in r["automated_answered"]]
    report.check("no reply to a message marked automated", not answered,
                 f"{len(answered)} answered: {common.sample(answered, 3)}")
    over = [o for r in results for o in r["over_limit"]]
    report.check("replies to strangers and refusals to players within the rate limits", not over,
                 f"{len(over)} over: {common.sample(over, 3)}")
    return report.print(args.json)


if __name__ == "__main__":
    sys.exit(main())
