"""Mail for the human GM: mail that was parked, mail that could not be delivered, and an outage
that lasts (the IMAP server, the SMTP relay or the database out of reach).

Alerts go through the outbox like any mail (kind "alert", to `[gm] alert_address`), each under a
dedupe key that makes it exactly once: `alert:parked:{inbound id}`, `alert:undeliverable:{outbox
id}`, `alert:outage:{component}:{start}`. They are found by a sweep (`queue_alerts`), so they
do not depend on what parked a message or failed a delivery. The GM's own mailbox may well be
where they land: they are marked Auto-Submitted, and intake ignores automated mail.

A stranger who finds a message that parks could send it ten thousand times; so per-message
alerts are limited to `ALERTS_PER_DAY` in any 24 hours, and past that one summary a day says
so. Rows parked or failed more than a day ago are not mailed one by one any more.

`OutageTracker` is the pure bookkeeping for outages: fed (component, ok or not, now), it says
when an outage has lasted `OUTAGE_ALERT_AFTER` (once per outage) and when it ended.
"""

from __future__ import annotations

import email.policy
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser
from typing import NamedTuple

from sqlalchemy.exc import IntegrityError

from gmserver.db.models import InboundMessage, OutboxMessage
from gmserver.db.queries.inbound import parked_to_alert
from gmserver.db.queries.outbox import per_message_alerts_since, undeliverable_to_alert
from gmserver.db.session import transaction
from gmserver.rules.safetext import safe_text
from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.gm_notices import describe_notice
from gmserver.services.base.outbox import queue

log = logging.getLogger(__name__)

OUTAGE_ALERT_AFTER = timedelta(minutes=15)
ALERTS_PER_DAY = 20
DAY = timedelta(days=1)

# What each component is called in alerts and log lines, and what its outage means for the game
COMPONENTS: Mapping[str, tuple[str, str]] = {
    "imap": ("The IMAP server", "Orders and press are not being read: they wait in the mailbox and are read "
             "when it is back, judged by the time they reached it. Check [inbound.imap]."),
    "relay": ("The SMTP relay", "Outgoing mail (confirmations, reports, reminders) waits in the outbox and goes "
              "out when the relay is back; so did this alert, which is why it may reach you late. "
              "Check [outbound.smtp]."),
    "database": ("The database", "Nothing could be stored or processed meanwhile: incoming mail waits at "
                 "the mail server, and deadlines that passed are processed when the database is back. This "
                 "alert was stored when the database was back. Check [database] url and the database server."),
}
_KIND_WORDS = {"report": "turn report", "confirmation": "confirmation", "rejection": "refusal",
               "reminder": "reminder"}


# -- outages: pure ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outage:
    component: str  # a key of COMPONENTS
    since: datetime  # the first failure seen
    error: str  # the latest failure
    noticed: datetime  # when it had lasted long enough to alert (or the latest failure)

    @property
    def dedupe_key(self) -> str:
        return f"alert:outage:{self.component}:{self.since:%Y-%m-%dT%H:%M:%S%z}"


class Observed(NamedTuple):
    tracker: "OutageTracker"
    alert: Outage | None  # this outage has just lasted long enough: tell the GM (once)
    ended: Outage | None  # an outage has just ended


@dataclass(frozen=True)
class OutageTracker:
    """Per component, the outage going on (if any) and whether the GM was told."""

    threshold: timedelta = OUTAGE_ALERT_AFTER
    down: Mapping[str, tuple[Outage, bool]] = field(default_factory=dict)

    def observe(self, component: str, ok: bool, now: datetime, error: str = "") -> Observed:
        current = self.down.get(component)
        if ok:
            if current is None:
                return Observed(self, None, None)
            rest = {name: value for name, value in self.down.items() if name != component}
            return Observed(replace(self, down=rest), None, current[0])
        outage, alerted = current if current else (Outage(component, now, error, now), False)
        outage = replace(outage, error=error or outage.error, noticed=now)
        alert = not alerted and now - outage.since >= self.threshold
        return Observed(replace(self, down={**self.down, component: (outage, alerted or alert)}),
                        outage if alert else None, None)


# -- alerts as outbox rows -------------------------------------------------------------------


def queue_outage_alert(services: Services, outage: Outage, now: datetime, *, to: str) -> bool:
    """Queue the alert for `outage` (once); False if it was queued before."""
    what, consequence = COMPONENTS[outage.component]
    body = services.composer.render("gm/outage.txt.j2", {
        "what": what, "since": _when(outage.since), "noticed": _when(outage.noticed),
        "minutes": int((outage.noticed - outage.since).total_seconds() // 60),
        "error": _short(outage.error, 300), "consequence": consequence})
    subject = f"gmserver: {_lower_first(what)} unreachable since {_when(outage.since)}"
    return _queue_alert(services, outage.dedupe_key, to, subject, body, now)


@dataclass(frozen=True)
class AlertsQueued:
    parked: int = 0
    undeliverable: int = 0
    summaries: int = 0

    @property
    def total(self) -> int:
        return self.parked + self.undeliverable + self.summaries


def queue_alerts(services: Services, now: datetime, *, to: str) -> AlertsQueued:
    """One alert for each inbound message parked (`failed`) and each outgoing message given up
    on (`failed`, alerts themselves aside) in the last day and not alerted yet, oldest first, at
    most ALERTS_PER_DAY in 24 hours; past that one summary a day. Safe to run again and from
    several daemons at once: the dedupe keys make each alert once."""
    with transaction(services.sessions) as session:
        budget = max(ALERTS_PER_DAY - per_message_alerts_since(session, now - DAY), 0)
        parked = parked_to_alert(session, now - DAY, budget + 1)
        undeliverable = undeliverable_to_alert(session, now - DAY, budget + 1)
    waiting: list[tuple[str, InboundMessage | OutboxMessage]] = (
        [("parked", row) for row in parked] + [("undeliverable", row) for row in undeliverable])
    counts = {"parked": 0, "undeliverable": 0}
    for kind, row in waiting[:budget]:
        mail = (_parked_mail(services, row) if isinstance(row, InboundMessage)
                else _undeliverable_mail(services, row))
        counts[kind] += _queue_alert(services, f"alert:{kind}:{row.id}", to, *mail, now)
    summaries = 0
    if len(waiting) > budget:  # more than the day allows: say so, once a day
        summaries = int(_queue_alert(
            services, f"alert:many:{now:%Y-%m-%d}", to,
            f"gmserver: more than {ALERTS_PER_DAY} messages parked or undeliverable today",
            services.composer.render("gm/many.txt.j2", {"limit": ALERTS_PER_DAY}), now))
    queued = AlertsQueued(counts["parked"], counts["undeliverable"], summaries)
    if queued.total:
        log.info("alerts: queued %d for the GM (%d parked, %d undeliverable, %d summary) to %s", queued.total,
                 queued.parked, queued.undeliverable, queued.summaries, to)
    return queued


def _queue_alert(services: Services, key: str, to: str, subject: str, body: str, now: datetime) -> bool:
    message = outgoing.message(services, to=to, subject=subject, body=body, now=now)
    try:
        with transaction(services.sessions) as session:
            return queue(session, message, kind="alert", dedupe_key=key, now=now)
    except IntegrityError:  # another daemon queued the same alert between our check and insert
        return False


def _parked_mail(services: Services, row: InboundMessage) -> tuple[str, str]:
    sender, subject = headline(row.raw)
    error = _short(((row.error or "").strip().splitlines() or ["(no error recorded)"])[0], 200)
    body = services.composer.render("gm/parked.txt.j2", {
        "id": row.id, "sender": sender, "subject": subject, "received": _when(row.received_at), "error": error})
    return f"gmserver: message {row.id} from {_short(sender, 60)} parked", body


def _undeliverable_mail(services: Services, row: OutboxMessage) -> tuple[str, str]:
    # a report's copy that was never written (services/base/report_copies.py) has its subject on record:
    # writing it now could fail again for the reason it failed
    _, subject = (None, row.addressing["subject"]) if not row.stored and row.addressing else headline(row.raw)
    error = _short(((row.last_error or "").strip().splitlines() or ["(no error recorded)"])[0], 300)
    what = _KIND_WORDS.get(row.kind, row.kind)
    body = services.composer.render("gm/undeliverable.txt.j2", {
        "what": what, "recipient": _short(row.recipient, 100), "attempts": row.attempts, "id": row.id,
        "subject": subject, "error": error})
    return f"gmserver: a {what} to {_short(row.recipient, 60)} could not be delivered", body


# -- showing hostile headers safely ----------------------------------------------------------

_HEAD_END = re.compile(rb"\r?\n\r?\n")
_MOST_HEADER_BYTES = 64 * 1024
_MOST_DECODED_CHARACTERS = 300


def headline(raw: bytes) -> tuple[str, str]:
    """(From, Subject) of a stored message, short and printable, for the GM to recognise it.
    The message may be hostile (that may be why it was parked): only the first 64 KB are
    looked at, with the parser that decodes nothing, and at most 300 characters of a header
    are decoded."""
    head = _HEAD_END.split(raw[:_MOST_HEADER_BYTES], maxsplit=1)[0]
    try:
        headers = BytesHeaderParser(policy=email.policy.compat32).parsebytes(head)
        return _decoded(headers.get("From")), _decoded(headers.get("Subject"))
    except Exception:  # noqa: BLE001  an alert about a broken message must not break on it
        return "(unreadable)", "(unreadable)"


def _decoded(value: object) -> str:
    if value is None:
        return "(none)"
    text = " ".join(str(value).split())[:_MOST_DECODED_CHARACTERS]
    try:
        text = str(make_header(decode_header(text)))
    except Exception:  # noqa: BLE001  shown as written, encoded words and all
        pass
    return _short(text, 100) or "(empty)"


def _short(text: str, width: int) -> str:
    text = " ".join(safe_text(text).split())
    return text if len(text) <= width else text[:width - 1] + "\u2026"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _when(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def describe(dedupe_key: str) -> str:
    """What an alert in the outbox is about, for `gmserver outbox list`."""
    kind, _, rest = dedupe_key.removeprefix("alert:").partition(":")
    if kind == "parked":
        return f"inbound message {rest} parked"
    if kind == "undeliverable":
        return f"outbox message {rest} undeliverable"
    if kind == "outage":
        component, _, since = rest.partition(":")
        return f"{_lower_first(COMPONENTS.get(component, (component,))[0])} unreachable since {since}"
    if kind == "early":  # services/game/schedule.queue_early_notices (000 VII(2))
        game_id, _, phase = rest.partition(":")
        return f"game {game_id} {phase} may be adjudicated early"
    if kind == "many":
        return f"more than {ALERTS_PER_DAY} parked or undeliverable on {rest}"
    return describe_notice(dedupe_key) or dedupe_key  # a notice about a game (services/base/gm_notices.py)
