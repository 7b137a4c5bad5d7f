"""The confirmation's small map of a player's orders as read, drawn when the outbox writes the
mail, not in the intake transaction: drawing it costs about half as much again as the rest of
the confirmation (benchmarks/bench_map.py), and on SQLite that transaction holds the write lock.

Intake queues the confirmation without the map and keeps in its outbox row's `addressing` what
the map shows (the power, its orders on file in engine notation, the position); the sender adds
the PNG when it writes the mail (outbox._written), keeps those bytes (a retry sends the same) and
forgets the request. A map that cannot be drawn costs the map, never the confirmation.

The mail with the map is written from the queued bytes (`attached`): parsing the queued mail
and writing it all again cost as much as the rest of sending it (docs/performance.md).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import logging
from collections.abc import Mapping, Sequence
from email.message import EmailMessage, Message
from email.policy import EmailPolicy
from typing import Any

from gmserver import mapimage
from gmserver.rules.mailpolicy import HEADER_FACTORY
from gmserver.rules.order import Order
from gmserver.rules.position import Position
from gmserver.services.base.report_copies import SharedPartsGenerator, WrittenParts, smtp_policy

log = logging.getLogger(__name__)

KEY = "orders_map"  # in an outbox row's `addressing`: the map to add when the mail is written


def request(power: str, orders: Sequence[Order], position: Position, filename: str) -> dict[str, Any] | None:
    """What the outbox row keeps to draw the map later (plain JSON: engine notation at this edge);
    None without an order to draw."""
    if not orders:
        return None
    return {KEY: {"power": power, "orders": [str(order) for order in orders], "position": position.to_json(),
                  "filename": filename}}


def with_map(raw: bytes, addressing: Mapping[str, Any] | None, recipient: str) -> bytes:
    """`raw` (a confirmation as queued) with the map its row asks for attached; `raw` as it is when
    the row asks for none, or the map cannot be drawn."""
    wanted = (addressing or {}).get(KEY)
    if not wanted:
        return raw
    try:
        position = Position.from_json(wanted["position"])
        orders = [Order.parse(text, position.phase_type) for text in wanted["orders"]]
        image = mapimage.own_orders_png(position, wanted["power"], orders)
        if image is None:
            return raw
        # the boundary from what the mail holds, not from the global `random` (which the engine
        # reseeds): the same confirmation is the same bytes; no part can hold its own digest
        return attached(raw, image, maintype="image", subtype="png", filename=str(wanted["filename"]),
                        boundary=f"=_gm0_{hashlib.sha256(raw + image).hexdigest()[:48]}",
                        policy=smtp_policy(recipient))
    except Exception:
        log.exception("the map of %s's orders could not be drawn or attached; the confirmation goes without it",
                      wanted.get("power"))
        return raw


def attached(raw: bytes, data: bytes, *, maintype: str, subtype: str, filename: str, boundary: str,
             policy: EmailPolicy) -> bytes:
    """`raw` (a mail as queued: written with `policy`, one part) as multipart/mixed with `data`
    attached as `filename`, under `boundary`: the bytes the email package gives for `raw` parsed
    with `policy`, then `add_attachment(data, ...)`, `set_boundary(boundary)` and `as_bytes()`
    (tests/unit/test_orders_map_attached.py compares them), without parsing the mail or writing its
    text again. As `add_attachment` does, the mail's Content-* fields and its body become the first
    part, and its other fields stay in its header block, each written as the parser would have
    read it (the policy's fold_binary of the field's source); the parts are written from their
    bytes (SharedPartsGenerator), the header block and the MIME boundaries by the email package."""
    line_end = policy.linesep.encode()
    head, _, body = raw.partition(line_end * 2)
    mixed = EmailMessage(policy=_made_with(policy))
    text_fields = []
    for name, value in _fields(head, policy):
        if name.lower().startswith("content-"):
            text_fields.append(policy.fold_binary(name, value))
        else:
            mixed.set_raw(name, value)
    mixed["Content-Type"] = f'multipart/mixed; boundary="{boundary}"'
    text, attachment = Message(), Message()
    mixed.set_payload([text, attachment])
    written = WrittenParts()
    written.parts[id(text)] = (text, b"".join(text_fields) + line_end + body)
    written.parts[id(attachment)] = (attachment, _attachment_head(maintype, subtype, filename, policy)
                                     + _base64_lines(data, policy))
    out = io.BytesIO()
    SharedPartsGenerator(out, policy=policy, written=written).flatten(mixed)
    return out.getvalue()


def _fields(head: bytes, policy: EmailPolicy) -> list[tuple[str, str]]:
    """(name, value) of each field of a header block, as email's parser reads them: its lines
    decoded as ASCII with surrogateescape, each field's lines (the first and those folded under it)
    read by `policy.header_source_parse`."""
    fields: list[list[str]] = []
    for line in head.decode("ascii", "surrogateescape").split(policy.linesep):
        if fields and line[:1] in (" ", "\t"):
            fields[-1].append(line + policy.linesep)
        else:
            fields.append([line + policy.linesep])
    return [policy.header_source_parse(lines) for lines in fields]


@functools.lru_cache(maxsize=64)
def _attachment_head(maintype: str, subtype: str, filename: str, policy: EmailPolicy) -> bytes:
    """The header block of an attachment as `add_attachment` writes it (it does not depend on the
    data; a player's sets of one phase share a file name)."""
    part = EmailMessage(policy=_made_with(policy))
    part.set_content(b"", maintype=maintype, subtype=subtype, filename=filename)
    return part.as_bytes(policy=policy)


@functools.lru_cache(maxsize=4)
def _made_with(policy: EmailPolicy) -> EmailPolicy:
    """`policy` with the header factory of rules/mailpolicy.py, to make the header objects written
    with `policy` (folding does not depend on what made the object): a header's class made once,
    a header value already made reused, half the cost of an attachment's header block."""
    return policy.clone(header_factory=HEADER_FACTORY)


def _base64_lines(data: bytes, policy: EmailPolicy) -> bytes:
    """`data` in base64 as `set_content` writes it, in lines of `policy.max_line_length // 4 * 3`
    bytes each (76 characters under SMTP's 78)."""
    encoded, width, line_end = base64.b64encode(data), policy.max_line_length // 4 * 4, policy.linesep.encode()
    if not encoded:
        return b""
    return line_end.join([encoded[start:start + width] for start in range(0, len(encoded), width)]) + line_end
