"""SIGKILL soak: `gmserver run` killed at random moments while players mail it and turns fall due.

gmserver runs as a GM runs it (`gmserver run`: the built-in SMTP listener on a free loopback port,
outgoing mail through an SMTP relay that records every message it accepts) on SQLite or PostgreSQL,
with games whose turns last seconds. A
sender thread mails order sets, late sets, strangers' mail, auto-replies, hostile messages
(tests/integration/test_hostile_mail.py) and deliberate duplicates, and records every 250. The
daemon is SIGKILLed at seeded random moments, --kills times, and restarted each time. Then the
sender stops, every message it could not get acknowledged is re-sent (same bytes, same
Message-ID: a re-send, as a mail server retries), the daemon drains and is stopped with SIGTERM,
and what is left due is finished in-process (`intake.process_pending`, `turns.adjudicate_due`,
`outbox.deliver_due` once the 5-minute lease of a send a kill interrupted has run out).

Checked: every acknowledged message stored exactly once (none lost), none left pending, each
message answered at most once, each phase whose deadline passed adjudicated exactly once and never
early, one report per player per adjudicated phase, every mail marked sent accepted by the relay, at
most one extra copy at the relay per kill, each the same bytes as the first (SMTP delivery is
at-least-once: a kill between the relay's 250 and the outbox's commit sends that message again,
and no protocol step closes that window), `gmserver inbox list --status failed` works. The relay
counts every delivery: a Maildir keeps one file per Message-ID and could not show a copy.
Exit status 1 when an invariant broke. The interleaving of kills with the sender's mail depends
on timing; the seed fixes the kill schedule and every message's content.

    python scripts/reliability/soak.py --database sqlite --kills 200 --seed 1
"""

from __future__ import annotations

import argparse
import random
import shutil
import smtplib
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict, deque
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import common
from sqlalchemy import select
from sqlalchemy.orm import Session

from gmserver.db.models import OutboxMessage
from tests.support.smtp_relay import SmtpRelay

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
KINDS = {"orders": 62, "late": 5, "stranger": 6, "autoreply": 7, "hostile": 10, "duplicate": 10}


def player_address(power: str, game: str) -> str:
    return f"{power.lower()}.{game}@players.test"


class Sender(threading.Thread):
    """A population of correspondents mailing the listener at about `rate` messages a second."""

    def __init__(self, port: int, reader, games: list[str], seed: int, rate: float) -> None:  # type: ignore[no-untyped-def]
        super().__init__(name="sender", daemon=True)
        from tests.integration.test_hostile_mail import HOSTILE

        self.port, self.reader, self.games, self.rate = port, reader, games, rate
        self.rng = random.Random(seed)
        self.seed = seed
        self.hostile = sorted(HOSTILE.items())
        self.acked: dict[str, bytes] = {}  # Message-ID -> raw, every message that got its 250
        self.kind_of: dict[str, str] = {}
        self.refused: Counter[str] = Counter()  # permanent SMTP refusals, by kind
        self.retry: deque[tuple[str, str, bytes, str]] = deque()  # (mid, envelope sender, raw, kind)
        self.first_sends = 0
        self.resends = 0  # attempts after one that reached the server and got no answer
        self.reconnects = 0  # attempts after the listener was down (nothing reached it)
        self.duplicates_sent = 0  # deliberate: an acknowledged message sent again, same bytes
        self.generating = threading.Event()
        self.generating.set()
        self.finished = threading.Event()
        self._counter = 0
        self._state: dict[str, tuple[str, str, dict]] = {}  # game -> (status, phase, state)
        self._state_read = 0.0
        self._previous_phase: dict[str, str] = {}
        # players write to their own reply address gm+TOKEN@ (the games' senders are verified)
        self._secrets: dict[tuple[str, str], str] = {}

    # -- what to send --------------------------------------------------------------------------

    def _refresh(self) -> None:
        from sqlalchemy import select
        from sqlalchemy.orm import Session

        from gmserver.db.models import Game, PhaseRecord, Player

        if time.monotonic() - self._state_read < 0.5:
            return
        with Session(self.reader) as session:
            if not self._secrets:
                self._secrets = {(game, power): secret for game, power, secret in session.execute(
                    select(Game.name, Player.power, Player.secret).join(Player.game))}
            for game in session.scalars(select(Game)):
                old = self._state.get(game.name)
                if old is not None and old[1] == game.phase:
                    self._state[game.name] = (game.status, game.phase, old[2])
                    continue
                state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.game_id == game.id,
                                                                       PhaseRecord.phase == game.phase))
                if old is not None:
                    self._previous_phase[game.name] = old[1]
                self._state[game.name] = (game.status, game.phase, state)
        self._state_read = time.monotonic()

    def _new_id(self) -> str:
        self._counter += 1
        return f"<soak-{self.seed}-{self._counter}@players.test>"

    def _mail(self, sender: str, subject: str, body: str, mid: str, headers: dict[str, str] | None = None,
              to: str = common.GM) -> bytes:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = mid
        for key, value in (headers or {}).items():
            message[key] = value
        message.set_content(body)
        return message.as_bytes()

    def _orders(self, game: str, power: str, phase: str, state: dict) -> str:
        from gmserver import engine
        from gmserver.demo import bot_orders

        position = engine.position_from_state(state)
        homes = engine.map_info().home_centres(power)
        orders = bot_orders(position, engine.legal_orders(state), power, homes, self.rng)
        return "Orders:\n" + "\n".join(orders or ["WAIVE"]) + "\n"

    def make(self) -> tuple[str, str, bytes, str]:
        """(Message-ID, envelope sender, raw message, kind)."""
        from gmserver.rules.authenticity import reply_address, reply_token
        from gmserver.rules.subject import format_subject

        self._refresh()
        kind = self.rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
        if kind == "duplicate":
            if not self.acked:
                kind = "orders"
            else:
                mid = self.rng.choice(sorted(self.acked))
                self.duplicates_sent += 1
                return mid, "someone@players.test", self.acked[mid], "duplicate"
        mid = self._new_id()
        game = self.rng.choice(self.games)
        status, phase, state = self._state[game]
        power = self.rng.choice(POWERS)
        address = player_address(power, game)
        # the reply address of a mail sent this turn: its token is derived from the password and the phase
        reply_to = reply_address(common.GM, reply_token(self._secrets[(game, power)], phase))
        if kind == "orders" and status == "active":
            subject = format_subject(template="standard", game_name=game, power=power, phase=phase, purpose="orders")
            body = self._orders(game, power, phase, state)
            return mid, address, self._mail(address, subject, body, mid, to=reply_to), kind
        if kind in ("orders", "late"):
            late = self._previous_phase.get(game, "F1899M")
            subject = format_subject(template="standard", game_name=game, power=power, phase=late, purpose="orders")
            return mid, address, self._mail(address, subject, "A PAR - BUR\n", mid, to=reply_to), "late"
        if kind == "stranger":
            who = f"stranger{self.rng.randrange(20)}@elsewhere.test"
            return mid, who, self._mail(who, f"{game} France orders", "A PAR - BUR\n", mid), kind
        if kind == "autoreply":
            subject = "Out of Office: Re: " + format_subject(template="standard", game_name=game, power=power,
                                                             phase=phase, purpose="report")
            raw = self._mail(address, subject, "I am away until Monday.\n", mid,
                             {"Auto-Submitted": "auto-replied", "X-Autoreply": "yes"})
            return mid, self.rng.choice([address, ""]), raw, kind
        name, raw = self.rng.choice(self.hostile)
        # our own Message-ID on top, so that the message can be found in the database
        return mid, address, f"Message-ID: {mid}\r\n".encode() + raw, f"hostile:{name}"

    # -- sending -------------------------------------------------------------------------------

    def _send(self, mid: str, envelope_from: str, raw: bytes, kind: str) -> str:
        """'acked', 'refused' (5xx: final), 'down' (nothing reached the listener), 'unknown'."""
        reached = False
        try:
            with smtplib.SMTP("127.0.0.1", self.port, timeout=15) as client:
                reached = True
                client.sendmail(envelope_from, [common.GM], raw)
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as error:
            code = getattr(error, "smtp_code", None) or 0
            if not code and isinstance(error, smtplib.SMTPRecipientsRefused):
                code = min(c for c, _ in error.recipients.values())
            if 500 <= code < 600:
                self.refused[kind] += 1
                return "refused"
            return "unknown"
        except (OSError, smtplib.SMTPException):
            return "unknown" if reached else "down"
        if kind != "duplicate":
            self.acked[mid] = raw
            self.kind_of[mid] = kind
        return "acked"

    def run(self) -> None:
        pause = 1.0 / self.rate
        while not self.finished.is_set():
            if self.retry:
                mid, envelope_from, raw, kind = self.retry[0]
                outcome = self._send(mid, envelope_from, raw, kind)
                if outcome in ("down", "unknown"):
                    time.sleep(0.1)
                    continue
                self.retry.popleft()
                continue
            if not self.generating.is_set():
                time.sleep(0.05)
                continue
            made = self.make()
            mid, envelope_from, raw, kind = made
            if kind != "duplicate":
                self.first_sends += 1
            outcome = self._send(mid, envelope_from, raw, kind)
            if outcome in ("down", "unknown"):
                self.retry.append(made)
                self._note_retry(outcome)
            time.sleep(pause * self.rng.uniform(0.5, 1.5))

    def _note_retry(self, outcome: str) -> None:
        if outcome == "unknown":
            self.resends += 1
        else:
            self.reconnects += 1


def classify(log_text: str) -> str:
    """What the daemon was last doing before the kill, from its last log line of its own."""
    for line in reversed(log_text.splitlines()):
        if " gmserver" not in line:
            continue
        if "adjudicated" in line or "gmserver.services.turn.turns" in line:
            return "adjudication"
        if "gmserver.services.base.outbox" in line:
            return "delivery"
        if "gmserver.services.inbox.runner" in line or "gmserver.mail.listener: could not" in line:
            return "intake"
        if "listening for" in line or "running;" in line:
            return "start-up"
    return "start-up"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--kills", type=int, default=200, help="SIGKILLs of the daemon (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=2, help="games played at once (default 2)")
    parser.add_argument("--turn-seconds", type=float, default=12.0,
                        help="movement turn length; retreats and adjustments last half (default 12)")
    parser.add_argument("--rate", type=float, default=8.0, help="messages a second the sender aims at (default 8)")
    parser.add_argument("--min-uptime", type=float, default=0.0,
                        help="least seconds between the listener coming up and the kill (default 0)")
    parser.add_argument("--max-uptime", type=float, default=4.0,
                        help="most seconds between the listener coming up and the kill (default 4)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop killing after this long whatever the count (default: 10 s a kill + 120)")
    parser.add_argument("--dir", help="keep the files here (default: a temporary directory, removed)")
    parser.add_argument("--json", help="also write the figures and checks to this JSON file")
    args = parser.parse_args(argv)
    budget = args.max_seconds if args.max_seconds is not None else 10 * args.kills + 120

    with tempfile.TemporaryDirectory(prefix="gmsoak") as tmp:
        work = Path(args.dir) if args.dir else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        with common.Database(args.database, work, prefix="gmsoak") as database, SmtpRelay() as relay:
            return soak(args, work, database, relay, budget)


def soak(args: argparse.Namespace, work: Path, database: common.Database, relay: SmtpRelay, budget: float) -> int:
    report = common.Report(f"SIGKILL soak on {args.database}, seed {args.seed}")
    port = common.free_port()
    config = common.write_config(work / "gm.toml", url=database.url, port=port, maildir=work / "maildir",
                                 relay_port=relay.port)
    common.gmserver_ok(config, "db", "upgrade")
    hours = args.turn_seconds / 3600
    games = [f"soak{n}" for n in range(1, args.games + 1)]
    for game in games:
        common.gmserver_ok(config, "game", "create", game, *[f"--player={p}={player_address(p, game)}" for p in POWERS],
                           f"--movement-hours={hours}", f"--retreat-hours={hours / 2}",
                           f"--adjustment-hours={hours / 2}", f"--reminder-hours={hours / 3}",
                           "--short-turns-for-testing")
    reader = database.reader()
    rng = random.Random(args.seed)
    sender = Sender(port, reader, games, args.seed, args.rate)
    daemon = common.Daemon(config, port, work / "daemon.log")
    kills: Counter[str] = Counter()
    started = time.monotonic()
    start_up: list[float] = []
    daemon_failed = None
    try:
        start_up.append(daemon.start())
        sender.start()
        for number in range(args.kills):
            if time.monotonic() - started > budget:
                print(f"soak: time budget of {budget:.0f} s spent after {number} kills", file=sys.stderr)
                break
            time.sleep(rng.uniform(args.min_uptime, args.max_uptime))
            daemon.kill()
            kills[classify(daemon.log_since_start())] += 1
            start_up.append(daemon.start())
            if (number + 1) % 25 == 0:
                print(f"soak: {number + 1} kills, {len(sender.acked)} messages acknowledged", flush=True)
        # drain: no new mail, every unacknowledged message re-sent until it gets its 250
        sender.generating.clear()
        drain_until = time.monotonic() + 180
        while sender.retry and time.monotonic() < drain_until:
            time.sleep(0.2)
        sender.finished.set()
        sender.join(timeout=30)
        _wait_processed(reader, until=time.monotonic() + 120)
        stopped = daemon.stop()
        report.check("daemon stops cleanly on SIGTERM", stopped == 0, f"exit status {stopped}")
    except RuntimeError as error:
        daemon_failed = str(error)
        sender.finished.set()
        if daemon.alive():
            daemon.kill()
    elapsed = time.monotonic() - started
    report.check("daemon always started again", daemon_failed is None, daemon_failed or "")
    end = _finish_in_process(config)
    report.figure("kills", sum(kills.values()))
    report.figure("kills by what the daemon was last doing", dict(sorted(kills.items())))
    report.figure("daemon start-up to listening, median s", f"{sorted(start_up)[len(start_up) // 2]:.2f}")
    report.figure("soak seconds", f"{elapsed:.0f}")
    _check(report, sender, reader, end)
    with Session(reader) as session:
        outbox_rows = session.execute(select(OutboxMessage.message_id, OutboxMessage.kind,
                                             OutboxMessage.status)).all()
    delivery_checks(report, outbox_rows, [m.raw for m in relay.messages], kills=sum(kills.values()))
    failed_list = common.gmserver(config, "inbox", "list", "--status", "failed")
    report.check("`gmserver inbox list --status failed` works", failed_list.returncode == 0,
                 f"exit {failed_list.returncode}: {failed_list.stderr.strip().splitlines()[-1:]}"
                 if failed_list.returncode else f"{len(failed_list.stdout.splitlines())} lines")
    reader.dispose()
    if args.dir:
        print(f"files kept in {work}")
    elif report.broken:
        kept = Path(tempfile.gettempdir()) / f"gmsoak-{args.database}-seed{args.seed}-daemon.log"
        shutil.copyfile(daemon.log, kept)
        print(f"the daemon's log is kept in {kept}")
    return report.print(args.json)


def _wait_processed(reader, until: float) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from gmserver.db.models import InboundMessage

    while time.monotonic() < until:
        with Session(reader) as session:
            if not session.scalar(select(func.count()).where(InboundMessage.status == "pending")):
                return
        time.sleep(0.3)


def _finish_in_process(config: Path) -> datetime:
    """What a stopped daemon left due: stored mail, a deadline passed in the last second, and
    mail whose send a kill interrupted (its lease runs 5 minutes: deliver as if they had passed)."""
    from gmserver.config import load_config
    from gmserver.daemon import build_services, build_transport
    from gmserver.services.base import outbox
    from gmserver.services.inbox import runner as intake
    from gmserver.services.turn import turns

    loaded = load_config(config)
    services = build_services(loaded)
    transport = build_transport(loaded)
    end = datetime.now(UTC)
    intake.process_pending(services, end)
    turns.adjudicate_due(services, end)
    later = end + outbox.LEASE + timedelta(minutes=1)
    while outbox.deliver_due(services.sessions, transport, later, limit=10_000).attempted:
        pass
    services.sessions.kw["bind"].dispose()
    return end


def _check(report: common.Report, sender: Sender, reader, end: datetime) -> None:  # type: ignore[no-untyped-def]
    import email
    import email.policy

    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from gmserver.db.models import Game, InboundMessage, OrderSet, OutboxMessage, PhaseRecord, Player

    with Session(reader) as session:
        inbound = session.execute(select(InboundMessage.id, InboundMessage.message_id, InboundMessage.status,
                                         InboundMessage.outcome, InboundMessage.error)).all()
        sets_per_inbound = Counter(session.scalars(select(OrderSet.inbound_id)))
        outbox_rows = session.scalars(select(OutboxMessage)).all()
        phases = session.scalars(select(PhaseRecord).order_by(PhaseRecord.id)).all()
        players = session.execute(select(Player.game_id, Player.address)).all()
        games = {g.id: g for g in session.scalars(select(Game))}

    # -- intake ---------------------------------------------------------------------------------
    stored = Counter(row.message_id for row in inbound)
    acked = sender.acked
    lost = [mid for mid in acked if stored[mid] == 0]
    twice = [mid for mid in acked if stored[mid] > 1]
    report.figure("messages sent (first attempts)", sender.first_sends)
    report.figure("messages acknowledged (250)", len(acked))
    report.figure("acknowledged by kind", dict(sorted(Counter(k.split(":")[0] for k in sender.kind_of.values()).items())))
    report.figure("re-sends (same Message-ID, after an attempt the kill cut short)", sender.resends)
    report.figure("retries while the listener was down", sender.reconnects)
    report.figure("deliberate duplicates sent", sender.duplicates_sent)
    report.figure("refused by the listener (5xx)", dict(sender.refused))
    report.check("every message sent was acknowledged in the end", not sender.retry,
                 f"{len(sender.retry)} never acknowledged")
    report.check("no acknowledged message lost", not lost, f"{len(lost)} lost: {common.sample(lost)}")
    report.check("each acknowledged message stored once", not twice, f"{len(twice)} stored twice: {common.sample(twice)}")
    statuses = Counter(row.status for row in inbound)
    report.figure("stored", len(inbound))
    report.figure("outcomes", dict(sorted(Counter(row.outcome or row.status for row in inbound).items())))
    report.check("nothing left pending", statuses["pending"] == 0, f"{statuses['pending']} pending")
    parked = [row for row in inbound if row.status == "failed"]
    report.figure("parked (failed, for the GM)", len(parked))
    if parked:
        report.figure("parked errors", dict(Counter((r.error or "").splitlines()[0][:80] for r in parked)))
    report.check("each message read into at most one order set", max(sets_per_inbound.values(), default=0) <= 1)
    outcome_of = {row.message_id: row.outcome for row in inbound}
    unverified = [mid for mid, kind in sender.kind_of.items()
                  if kind in ("orders", "late") and outcome_of.get(mid) == "unverified"]
    report.check("players writing to their reply address are verified", not unverified,
                 f"{len(unverified)} refused as unverified: {common.sample(unverified)}")

    # -- replies ----------------------------------------------------------------------------------
    replies_to: Counter[str] = Counter()
    for row in outbox_rows:
        if row.kind in ("confirmation", "rejection", "stranger-refusal", "orders-unchanged"):
            message = email.message_from_bytes(row.raw, policy=email.policy.compat32)
            replies_to[" ".join(str(message.get("In-Reply-To", "")).split())] += 1
    answered_twice = [mid for mid, count in replies_to.items() if count > 1 and mid]
    report.check("each message answered at most once", not answered_twice,
                 f"{len(answered_twice)} answered twice: {common.sample(answered_twice)}")
    autoreplies = [mid for mid, kind in sender.kind_of.items() if kind == "autoreply"]
    answered_auto = [mid for mid in autoreplies if replies_to[mid]]
    report.check("no auto-reply answered", not answered_auto, f"{len(answered_auto)} answered")

    # -- adjudication -------------------------------------------------------------------------------
    by_game: dict[int, list] = defaultdict(list)
    for record in phases:
        by_game[record.game_id].append(record)
    adjudicated = sum(1 for r in phases if r.adjudicated_at is not None)
    passed = [r for r in phases if r.deadline is not None and r.deadline <= end]
    left_due = [f"{games[r.game_id].name} {r.phase}" for r in passed if r.adjudicated_at is None]
    early = [f"{games[r.game_id].name} {r.phase}" for r in phases
             if r.adjudicated_at is not None and r.deadline is not None and r.adjudicated_at < r.deadline]
    twice_phase = [key for key, n in Counter((r.game_id, r.phase) for r in phases).items() if n > 1]
    report.figure("phases adjudicated", adjudicated)
    report.figure("deadlines passed", len(passed))
    report.check("every phase whose deadline passed adjudicated", not left_due, common.sample(left_due))
    report.check("no phase adjudicated twice", not twice_phase, common.sample(twice_phase))
    report.check("no phase adjudicated before its deadline", not early, common.sample(early))
    unlinked = [games[g].name for g, records in by_game.items()
                if games[g].status == "active" and sum(r.adjudicated_at is None for r in records) != 1]
    report.check("each active game has exactly one open phase", not unlinked, common.sample(unlinked))

    # -- reports ---------------------------------------------------------------------------------------
    per_player = Counter((row.game_id, row.recipient) for row in outbox_rows if row.kind == "report")
    wrong = [f"{games[g].name} {address}: {per_player[(g, address)]} reports for "
             f"{sum(r.adjudicated_at is not None for r in by_game[g])} phases"
             for g, address in players
             if per_player[(g, address)] != sum(r.adjudicated_at is not None for r in by_game[g])]
    report.check("one report per player per adjudicated phase queued", not wrong, common.sample(wrong))


def delivery_checks(report: common.Report, outbox_rows, relayed: list[bytes], *, kills: int) -> None:  # type: ignore[no-untyped-def]
    """What the relay accepted against the outbox: `outbox_rows` (message_id, kind, status),
    `relayed` the raw messages in the order the relay accepted them."""
    delivered = common.relay_messages(relayed)
    at_relay = Counter(d.message_id for d in delivered)
    kinds = {row.message_id: row.kind for row in outbox_rows}
    doubles = common.doubled([d.message_id for d in delivered])
    extra_by_kind: Counter[str] = Counter()
    for mid, count in doubles.items():
        extra_by_kind[kinds.get(mid, "unknown")] += count - 1
    extra = sum(extra_by_kind.values())
    copies: dict[str, set[bytes]] = defaultdict(set)
    for d, raw in zip(delivered, relayed, strict=False):
        if d.message_id in doubles:
            copies[d.message_id].add(raw)
    differing = [mid for mid, raws in copies.items() if len(raws) > 1]
    unsent = Counter(row.status for row in outbox_rows if row.status != "sent")
    missing = [row.message_id for row in outbox_rows if row.status == "sent" and not at_relay[row.message_id]]
    report.figure("outbox", dict(sorted(Counter(row.kind for row in outbox_rows).items())))
    report.figure("deliveries at the relay", len(delivered))
    report.figure("delivered twice at the relay (same Message-ID), extra copies", extra)
    report.figure("extra copies by kind", dict(sorted(extra_by_kind.items())))
    report.check("every queued mail delivered", not unsent, str(dict(unsent)))
    report.check("every mail marked sent accepted by the relay", not missing, common.sample(missing))
    report.check("at most one extra copy at the relay per kill", extra <= kills,
                 f"{extra} extra copies for {kills} kills: {dict(extra_by_kind)}")
    report.check("an extra copy is the same message, byte for byte", not differing, common.sample(differing))


if __name__ == "__main__":
    sys.exit(main())
