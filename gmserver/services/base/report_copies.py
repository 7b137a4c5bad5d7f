"""A turn report stored once per game at the deadline; each player's copy written from it when
the outbox sends it.

Why: a deadline that composed, serialised and checked seven multipart mails, and drew the map,
spent more than 90 % of its time on mail (docs/performance.md). Now the deadline's transaction
stores the report's values once (`StoredReport`: the report contexts already built, the outcome
the map is drawn from, the centre chart's points, the date) and one light outbox row per player
with its Message-ID fixed there and then. The sender writes the player's copy at its first
attempt (`write_copy`) and keeps the bytes in the row, so a retry sends the same bytes.

The writing is deterministic, so that the bytes do not depend on when or how often they are
written: the Date is the deadline's `now`, the Message-ID the row's, the MIME boundaries and the
images' Content-IDs are derived from the report, the map and chart are drawn from stored values.
Each player's copy differs from the others only in To, Reply-To (the player's own secret),
Subject, Message-ID and the subject line the player gives the next orders: nothing
else in a report is private.

The payload is JSON (`{"version": 2, "report": {...}}`, reports/codec.py), not a pickle: a report
stored before an upgrade is sent after it, so the payload must stay readable by a later gmserver
that knows its version, whatever became of the classes it was written from; reading it runs no
code, whoever could write to the database; and a GM can read it with a database tool
(`SELECT payload FROM reports`). A payload of another version, or not JSON (version 1 was a
pickle), fails that row visibly (the GM sees it with `gmserver outbox list`), never silently.
"""

from __future__ import annotations

import dataclasses
import email.generator
import email.policy
import functools
import hashlib
import io
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any

from gmserver import centrechart, mapboard, mapimage
from gmserver.db.models import OutboxMessage
from gmserver.mail.compose import WRITE_ONLY_POLICY, Composer, TextRewriter, add_html, with_text_edited
from gmserver.reports.codec import from_json, to_json_text
from gmserver.reports.extras import centre_history, deadline_calendar, machine_header
from gmserver.reports.links import with_page_links
from gmserver.reports.turn import TurnReport, with_orders_subject, with_reader_deadline
from gmserver.rules.authenticity import reply_address
from gmserver.rules.position import PhaseOutcome

log = logging.getLogger(__name__)

# bump when ReportParts, or a dataclass it holds, changes shape: a payload of another version is
# refused with a clear error (version 1 was a pickle)
VERSION = 2


@dataclass(frozen=True)
class ReportParts:
    """What every player's copy of one turn report is written from."""

    key: str  # the report's key, "report:12:S1901M:" (+ "r1:" after a rollback)
    game_name: str
    contexts: tuple[TurnReport, ...]  # the phases reported, built at the deadline
    outcome: PhaseOutcome  # the first phase's outcome, for the map (its engine state left out)
    centre_points: tuple[tuple[str, Mapping[str, int]], ...]  # for the centre chart
    deadline: datetime | None  # the next deadline (the .ics)
    now: datetime  # the deadline's time: the Date of every copy
    templates_dir: str
    gm_name: str
    gm_address: str
    # the game's reminder lead, when the .ics alarms (None or 0: an hour before). Added with a
    # default, so a report stored before it reads back (as an hour): no new VERSION
    alarm_seconds: int | None = None


def parts_for(composer: Composer, *, key: str, game_name: str, contexts: Sequence[TurnReport],
              outcome: PhaseOutcome, centre_points: Sequence[tuple[str, Mapping[str, int]]],
              deadline: datetime | None, now: datetime, alarm_seconds: int | None = None) -> ReportParts:
    return ReportParts(key=key, game_name=game_name, contexts=tuple(contexts),
                       outcome=dataclasses.replace(outcome, state_after={}),
                       centre_points=tuple((phase, dict(counts)) for phase, counts in centre_points),
                       deadline=deadline, now=now, templates_dir=str(composer.templates_dir),
                       gm_name=composer.gm_name, gm_address=composer.gm_address, alarm_seconds=alarm_seconds)


def payload_of(parts: ReportParts) -> str:
    """The stored report: JSON text, ASCII (what is not ASCII is escaped) so that it stores alike in
    a database of any encoding; its keys in the dataclasses' order, so the same parts give the same
    text (the MIME boundaries are derived from it). The text `json.dumps({"version": VERSION,
    "report": to_json(parts, ReportParts)})` gives, written in one pass (codec.to_json_text)."""
    return f'{{"version": {VERSION}, "report": {to_json_text(parts, ReportParts)}}}'


def parts_of(payload: str) -> ReportParts:
    """The stored report read back; ValueError saying why it cannot be, in words the GM can act on."""
    try:
        data = json.loads(payload)
    except ValueError:
        raise ValueError("the stored report is not JSON: damaged, or written by a gmserver before report "
                         f"version {VERSION} (a pickle); this copy cannot be written") from None
    version = data.get("version") if isinstance(data, dict) else None
    if version != VERSION:
        raise ValueError(f"stored report of version {version}; this gmserver reads version {VERSION}")
    return from_json(data.get("report"), ReportParts, "report")


def text_body(composer: Composer, contexts: Sequence[TurnReport], deadline: datetime | None) -> str:
    """The text part: the `::` lines mail filters read, then each phase's report."""
    first, last = contexts[0], contexts[-1]
    header = machine_header(first.game_name, first.phase, last.next_phase, deadline)
    return header + "\n" + "\n".join(composer.render(c.template, c) for c in contexts)


def write_copy(payload: str, *, to: str, subject: str, reply_secret: str | None, message_id: str,
               power: str | None = None, page_links: tuple[str, ...] = (),
               deadline: tuple[str, str] | None = None) -> bytes:
    """One player's copy of the stored report, as sent: the same bytes whenever it is written.
    `power`: the player's, whose own subject line for the next orders the copy shows (
    reports.with_orders_subject); None shows the GM's wording. `page_links`: the phase's web page
    and the player's own (reports.links), when `[web] base_url` is set. `deadline`: the next
    deadline as the player reads it (SET ZONE: reports.turn.with_reader_deadline)."""
    base, composer, parts = _base_message(payload)
    last = parts.contexts[-1]
    # the player's own reply address, for the offer to write to it (never the bare GM address)
    address = reply_address(parts.gm_address, reply_secret) if reply_secret else None
    own = with_text_edited(base, lambda subtype, text: with_reader_deadline(with_page_links(
        with_orders_subject(text, last, power, html=subtype == "html", address=address), page_links,
        html=subtype == "html"), last, deadline, html=subtype == "html"), _rewriters(payload))
    # its own headers kept as the text they are written as, where the email package writes them so
    # (compose.plain_header): the copy is only written
    copy = composer.readdress(own, to=to, subject=subject, reply_secret=reply_secret, message_id=message_id,
                              policy=WRITE_ONLY_POLICY)
    # what copy.as_bytes writes (email.generator.BytesGenerator), with every part the copy shares
    # with the report's mail (the map, the chart, the .ics: all but the player's own text and HTML)
    # written from its bytes, serialised once per report
    policy = smtp_policy(to)
    out = io.BytesIO()
    SharedPartsGenerator(out, policy=policy, written=_written_parts(payload, policy.utf8)).flatten(copy)
    return out.getvalue()


def write_row(row: OutboxMessage) -> bytes:
    """A player's copy not yet sent, as the sender will write it (services/base/outbox.message_bytes)."""
    assert row.report is not None and row.addressing is not None
    return write_copy(row.report.payload, to=row.recipient, subject=row.addressing["subject"],
                      reply_secret=row.addressing.get("reply_secret"), message_id=row.message_id,
                      power=row.addressing.get("power"), page_links=tuple(row.addressing.get("page_links") or ()),
                      deadline=reader_deadline(row.addressing))


def reader_deadline(addressing: dict[str, Any]) -> tuple[str, str] | None:
    """The next deadline as the player reads it (SET ZONE), kept in the copy's outbox row."""
    shown = addressing.get("deadline")
    return (str(shown[0]), str(shown[1])) if shown else None


def smtp_policy(recipient: str) -> email.policy.EmailPolicy:
    """The policy a mail to `recipient` is written with, as services.base.outbox writes every
    message: CRLF; UTF-8 headers for a non-ASCII address."""
    return email.policy.SMTP if recipient.isascii() else email.policy.SMTPUTF8


@functools.lru_cache(maxsize=4)
def _composer(templates_dir: str, gm_name: str, gm_address: str) -> Composer:
    return Composer(Path(templates_dir), gm_name=gm_name, gm_address=gm_address)


class WrittenParts:
    """What a report's copies share, written once per report and policy: the bytes of each part of
    the report's mail (by the part's id, with the part itself), and the folded header lines of each
    header value the copies share (by the value's id, with its name and the value itself). (Also the
    parts of a confirmation whose bytes are known: services/base/orders_map.py.)"""

    def __init__(self) -> None:
        self.parts: dict[int, tuple[Message, bytes]] = {}
        self.headers: dict[int, tuple[str, object, bytes]] = {}


class SharedPartsGenerator(email.generator.BytesGenerator):
    """A BytesGenerator that writes a part, or a header, of the report's mail from the bytes it was
    written as once, instead of serialising it again for each copy (or any part whose bytes
    `written` holds: the confirmation's text and map, services/base/orders_map.py).

    A part is written by a generator `clone` makes, with the same policy and line ends, into a
    buffer of its own: its bytes do not depend on the message around it, and a copy that shares
    the part object with the report's mail gets the bytes the generator would write. A header line
    is folded from its name and value alone (the policy's fold_binary); the header lines of every
    part are kept (a copy's own parts share their header values with the report's mail, or with
    one another: compose.TextRewriter), not those of a copy's own header block. `record`: keep
    the bytes of every part written (the report's mail, once). Overrides two of the generator's protected
    methods (`_write_headers`, `_write_lines`) with what they do, faster;
    tests/integration/test_report_copies.py compares the bytes with EmailMessage.as_bytes."""

    def __init__(self, fp: io.BytesIO, *, policy: email.policy.Policy, written: WrittenParts,
                 record: bool = False, part: bool = False) -> None:
        super().__init__(fp, mangle_from_=False, policy=policy)
        self._written = written
        self._record = record
        self._part = part  # made by clone for one part, into its own buffer

    def clone(self, fp: io.BytesIO) -> SharedPartsGenerator:
        return SharedPartsGenerator(fp, policy=self.policy, written=self._written, record=self._record, part=True)

    def flatten(self, msg: Message, unixfrom: bool = False, linesep: str | None = None) -> None:
        known = self._written.parts.get(id(msg))
        if self._part and known is not None and known[0] is msg:
            self._fp.write(known[1])
            return
        super().flatten(msg, unixfrom, linesep)
        if self._part and self._record:
            self._written.parts[id(msg)] = (msg, self._fp.getvalue())

    def _write_headers(self, msg: Message) -> None:
        headers = self._written.headers
        for name, value in msg.raw_items():
            known = headers.get(id(value))
            if known is not None and known[0] == name and known[1] is value:
                self._fp.write(known[2])
                continue
            folded = self.policy.fold_binary(name, value)
            if self._record or self._part:  # not a copy's own headers (To, Subject...): each is new
                headers[id(value)] = (name, value, folded)
            self._fp.write(folded)
        self.write(self._NL)

    def _write_lines(self, lines: str) -> None:
        # the generator's own writes line by line (some 400 writes for a report's HTML)
        if lines:
            self.write(with_line_ends(lines, self._NL))


def with_line_ends(text: str, line_end: str) -> str:
    """`text` with every CRLF, CR and LF made `line_end`, as email.generator's
    `NLCRE.sub(line_end, text)` (r"\r\n|\r|\n", matched left to right) gives it: str.replace
    takes a fifth of re.sub's time on a report's text (tests/unit/test_report_copy_lines.py)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", line_end)


@functools.lru_cache(maxsize=8)
def _written_parts(payload: str, utf8: bool) -> WrittenParts:
    """Every part of the report's mail (at every depth) with its bytes as the SMTP policy writes
    it, and its header lines folded: each player's copy shares the parts the player's own text
    leaves unchanged, and most header values."""
    base, _, _ = _base_message(payload)
    written = WrittenParts()
    policy = email.policy.SMTPUTF8 if utf8 else email.policy.SMTP
    SharedPartsGenerator(io.BytesIO(), policy=policy, written=written, record=True).flatten(base)
    return written


@functools.lru_cache(maxsize=8)
def _rewriters(payload: str) -> dict[int, TextRewriter]:
    """The report's text and HTML parts, each with what writes the players' own copies of it (the
    part's text decoded once, its lines encoded once)."""
    base, _, _ = _base_message(payload)
    return {id(part): TextRewriter(part) for part in base.walk()
            if part.get_content_maintype() == "text" and not part.is_attachment()}


@functools.lru_cache(maxsize=8)
def _base_message(payload: str) -> tuple[EmailMessage, Composer, ReportParts]:
    """The report as one mail, before it is addressed: built once per report and process (the
    seven copies of a game are sent one after the other), drawn and rendered once."""
    parts = parts_of(payload)
    composer = _composer(parts.templates_dir, parts.gm_name, parts.gm_address)
    return report_message(composer, parts, hashlib.sha256(payload.encode()).hexdigest()), composer, parts


def report_message(composer: Composer, parts: ReportParts, digest: str) -> EmailMessage:
    """The report's mail from its parts, with the MIME boundaries derived from `digest`."""
    message = composer.compose(to=parts.gm_address, subject="", body=text_body(composer, parts.contexts,
                                                                                 parts.deadline),
                               auto_submitted="auto-generated", date=parts.now, message_id="<report@invalid>")
    message = _with_html(composer, parts, message)
    _fix_boundaries(message, digest)
    return message


def _with_html(composer: Composer, parts: ReportParts, message: EmailMessage) -> EmailMessage:
    """The HTML part with the map and the centre chart inline, and the next deadline as an .ics.
    A map that cannot be drawn costs the image, never the report."""
    digest = hashlib.sha256(parts.key.encode()).hexdigest()[:24]
    history = centre_history(parts.centre_points)
    images: list[tuple[str, bytes]] = []
    map_cid = chart_cid = None
    try:
        map_cid = f"map.{digest}@{composer.domain}"
        images.append((map_cid, mapimage.map_png(parts.outcome)))
        if len(history[0]) > 1:
            chart_cid = f"chart.{digest}@{composer.domain}"
            images.append((chart_cid, centrechart.centre_chart(*history)))
    except Exception as error:  # noqa: BLE001  (a missing libcairo or a drawing bug must not hold the turn's mail)
        _images_failed(parts.game_name, error)
        images, map_cid, chart_cid = [], None, None
    last = parts.contexts[-1]
    attachments = []
    if parts.deadline is not None and last.next_phase and last.next_phase_name:
        attachments.append(("deadline.ics", "text/calendar", deadline_calendar(
            game_name=parts.game_name, phase=last.next_phase, phase_name=last.next_phase_name,
            deadline=parts.deadline, now=parts.now, domain=composer.domain,
            subject_hint="Send your orders to the GM by mail before then.",
            alarm_before=timedelta(seconds=parts.alarm_seconds) if parts.alarm_seconds else None)))
    html = composer.render("player/report.html.j2", {
        "reports": list(parts.contexts), "map_cid": map_cid, "chart_cid": chart_cid, "history": history,
        "calendar": bool(attachments), "colours": mapboard.power_colours() if chart_cid else {}})
    return add_html(message, html, images=images, attachments=attachments)


def _fix_boundaries(message: EmailMessage, digest: str) -> None:
    """MIME boundaries from the payload's digest, not from the global `random` (which the engine
    reseeds): every writing of a copy gives the same bytes. No text in the report (press a player
    wrote included) can contain its own payload's digest, so no part can hold a boundary."""
    for number, part in enumerate(message.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_gm{number}_{digest[:48]}")


_IMAGE_FAILURES: set[str] = set()


def _images_failed(game_name: str, error: Exception) -> None:
    """Say once per process and kind of failure why reports go without their map (typically
    Debian's libcairo2 missing: `scripts/install-test-services.sh` installs it), not once a report."""
    kind = f"{type(error).__name__}: {error}"
    if kind in _IMAGE_FAILURES:
        log.debug("%s: report images not drawn (%s)", game_name, kind)
        return
    _IMAGE_FAILURES.add(kind)
    log.warning("%s: the report's map and chart could not be drawn, so reports go without them (%s); "
                "is libcairo2 installed?", game_name, kind, exc_info=error)


def forget_written() -> None:
    """Empty this process's caches of written reports (a test, or a benchmark timing the writing)."""
    _base_message.cache_clear()
    _written_parts.cache_clear()
    _rewriters.cache_clear()
