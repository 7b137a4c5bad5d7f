"""Replies to a player's message: the confirmation of an order set, the answer to a message with no
orders while a set is on file, a refusal. (The deadline reminder is reports/reminders.py.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, Protocol

from gmserver.reports.mailto import send_orders_text
from gmserver.reports.words import (
    NamedOrder,
    When,
    canonical_key,
    excerpt,
    format_time,
    name_order,
    order_unit,
    power_name,
    unit_with_code,
)
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order
from gmserver.rules.position import (
    describe_phase,
    phase_type,
    unit_province,
)
from gmserver.rules.reading.chatter import KINDS as CHATTER_KINDS
from gmserver.rules.reading.rule_words import rules_in_words
from gmserver.rules.reading.verdict import CONTINGENT_KEPT, CONTINGENT_KEPT_AT_ONCE
from gmserver.rules.set_feedback import ASK, RECEIPT, Feedback

# ---------------------------------------------------------------------------------------------
# Confirmation


class LineReadingLike(Protocol):
    """What `gmserver.rules.reading.LineReading` gives: one line of a message as read."""

    line: int
    text: str
    status: str  # accepted, corrected, rejected, ignored
    order: Order | None  # the order the line became
    rule: str | None  # the clause applied, "000 IV(1)"
    message: str | None


@dataclass(frozen=True)
class ReadLine:
    number: str  # "3"
    text: str  # the line as written
    status: str
    order: NamedOrder | None
    explanation: str | None  # "unit type omitted [000 IV(1)]"
    chatter: str | None = None  # a greeting, heading, sign-off or signature (rules/reading/chatter.py)


@dataclass(frozen=True)
class Confirmation:
    template: ClassVar[str] = "player/confirmation.txt.j2"

    game_name: str
    power: str
    power_name: str
    phase: str
    phase_name: str
    deadline: When | None
    version: str  # "2", or the player's own marker such as "2.1"
    lines: tuple[ReadLine, ...]
    summary: str  # "3 accepted, 1 corrected, 1 rejected, 2 ignored"
    problems: bool  # any line rejected
    # the lines the player should look at (not used, corrected, read with a remark, kept, or
    # ignored for a reason other than being a greeting, heading, sign-off or signature)
    to_check: tuple[ReadLine, ...]
    # every order line read as written and nothing else to say of a line: the reply is the
    # orders on file, the deadline and how to change them, in a few lines
    clean: bool
    chatter: str  # "4 lines of greeting and signature not read as orders.", or ""
    orders: tuple[NamedOrder, ...]  # the set now on file, by unit province
    unordered: tuple[str, ...]  # "F Brest (BRE)": units the set does not order yet
    if_unordered: str  # "units without an order hold"
    notes: tuple[str, ...]  # remarks on the whole set (Reading.notes): merged, preliminary, ...
    # no line of the message gave an order; the reply then says first what was skipped
    # and why, never "Your orders were received."
    read_none: bool = False
    skipped: tuple[str, ...] = ()  # "line 2: Not an order.", the lines not used, first few
    # invalid_set_feedback = conditional_mhr (000 III(1)): the question about the lines not used
    clarify: Clarification | None = None
    # invalid_set_feedback = receipt_only, or conditional_mhr when a condition of 000 III(1) fails:
    # the receipt, in words (and why), instead of the reading
    receipt_only: str | None = None
    # SET CONFIRM brief: the orders as read and the deadline, not every line (the player chose it);
    # lines that could not be used are still shown
    brief: bool = False
    # the offer to write the next set to the player's own reply address with the exact subject
    # (reports/mailto.py), wrapped; "" where the answer goes to no address of the power's own
    send_orders: str = ""


@dataclass(frozen=True)
class Clarification:
    """000 III(1): the GM asks about an invalid set (set_feedback.ASK)."""

    lines: tuple[str, ...]  # "line 3 (A Par - Xyz)"
    before: str  # the deadline, local time, or "the deadline"
    rule: str  # "house rules 000 III(1)"


# "kept": a retreat or adjustment line of a movement set, kept for the turn that follows
# (contingent_minor_orders; the reader says "ignored" of it, as it gives no order now)
STATUSES = ("accepted", "corrected", "rejected", "ignored", "kept")
_STATUS_WORDS = {"kept": "kept for a later turn"}

_IF_NO_ORDER = {
    "M": "units without an order hold",
    "R": "dislodged units without an order are disbanded",
    "A": "builds not ordered are waived and removals not ordered are chosen by the rules",
}


def if_unordered(phase: str) -> str:
    """What becomes of a unit left without an order in `phase`, in words."""
    return _IF_NO_ORDER.get(phase_type(phase), _IF_NO_ORDER["M"])


def _explanation(message: str | None, rule: str | None) -> str | None:
    """The reading said to the player, the rule after it in words (never an option key)."""
    cited = rules_in_words(rule)
    if message and cited:
        return f"{message} ({cited})"
    return message or (f"({cited})" if cited else None)


def build_confirmation(
    *,
    game_name: str,
    power: str,
    phase: str,
    deadline: datetime | None,
    readings: Sequence[LineReadingLike],
    orders_on_file: Sequence[Order],
    version: int | str,
    geography: MapInfo,
    units: Sequence[str] = (),
    notes: Sequence[str] = (),
    timezone: str = "UTC",
    marker: str | None = None,
    feedback: Feedback | None = None,
    reader_zone: str | None = None,
    brief: bool = False,
    order_address: str | None = None,
    order_subject: str | None = None,
) -> Confirmation:
    """The reply to an accepted order set: each line as read, then the whole set now on file.

    `units` are the power's units that need an order this phase (for movement its units, for
    retreats its dislodged units); those the set leaves unordered are listed. `marker`: the
    version mark the message carried (`[1]`), said when it is not the number the set is filed as.
    `feedback`: what to say about invalid lines (gmserver.rules.set_feedback; None: state the reading).
    `order_address`, `order_subject`: the player's own reply address and the subject of the next
    set, offered besides "reply to this mail" (reports/mailto.py).
    """
    if marker and marker != str(version):
        # a reply quoting "[1]" back is never silently filed as set 2, and it is said
        # once: the reader's note on the number sent again (rules.reading.sets) gives only its rule
        again = f"This set is numbered {marker}, but you already sent a set numbered "
        rule = next((note.partition("; ")[2] for note in notes if note and note.startswith(again)), "")
        notes = (f"Your message is marked [{marker}], but it is set {version} received from you this turn "
                 f"(the mark may be quoted from an earlier mail): it is filed as set {version}."
                 + (f" {rule[:1].upper()}{rule[1:]}" if rule else ""),
                 *(note for note in notes if not (rule and note and note.startswith(again))))
    lines = tuple(_read_line(r, geography) for r in readings)
    to_check = tuple(line for line in lines if _worth_checking(line))
    counts = {s: sum(1 for line in lines if line.status == s) for s in STATUSES}
    others = sum(1 for line in lines if line.status not in STATUSES)
    summary = ", ".join(f"{n} {_STATUS_WORDS.get(s, s)}" for s, n in counts.items() if n)
    summary += f", {others} other" if others else ""
    ordered = {order_unit(o) for o in orders_on_file}
    read_none = not any(line.order is not None and line.status in ("accepted", "corrected") for line in lines)
    return Confirmation(
        game_name=game_name,
        power=power,
        power_name=power_name(power),
        phase=phase,
        phase_name=describe_phase(phase),
        deadline=format_time(deadline, timezone, reader_zone) if deadline else None,
        version=str(version),
        lines=lines,
        summary=summary or "no lines read",
        problems=counts["rejected"] > 0,
        to_check=to_check,
        clean=not (to_check or read_none or feedback is not None and feedback.kind in (ASK, RECEIPT)),
        chatter=chatter_summary([line.chatter for line in lines if line.chatter]),
        orders=tuple(
            name_order(o, geography)
            for o in sorted(orders_on_file, key=canonical_key)
        ),
        unordered=tuple(
            unit_with_code(u, geography)
            for u in sorted(units, key=unit_province) if u not in ordered
        ),
        if_unordered=_IF_NO_ORDER.get(phase_type(phase), _IF_NO_ORDER["M"]),
        notes=tuple(n for n in notes if n),
        read_none=read_none,
        skipped=_skipped(lines) if read_none else (),
        clarify=_clarification(lines, feedback, deadline, timezone),
        receipt_only=_receipt_only(feedback),
        brief=brief,
        send_orders=send_orders_text(order_address, order_subject) if order_address and order_subject else "",
    )


def _clarification(lines: Sequence[ReadLine], feedback: Feedback | None, deadline: datetime | None,
                   timezone: str) -> Clarification | None:
    if feedback is None or feedback.kind != ASK:
        return None
    invalid = tuple(f"line {line.number} ({excerpt(line.text, 40)})" for line in lines if line.status == "rejected")
    before = format_time(deadline, timezone).local if deadline else "the deadline"
    return Clarification(lines=invalid, before=before, rule=feedback.rule or "this game's rules")


def _receipt_only(feedback: Feedback | None) -> str | None:
    """invalid_set_feedback = receipt_only, or conditional_mhr when one of 000 III(1)'s conditions
    fails: no presumption that the player wants a complete set of valid orders."""
    if feedback is None or feedback.kind != RECEIPT:
        return None
    if not feedback.not_asked:
        return f"The GM confirms receipt only and does not say how each line was read ({feedback.rule})."
    return (f"The GM confirms receipt only and does not say how each line was read: the GM does not presume "
            f"that you wanted a complete set of valid orders, and goes through a set with you only when the GM "
            f"finds that unusual for you, time remains and you have not said the orders are meant as written; here "
            f"{feedback.not_asked} ({feedback.rule}).")


def _read_line(reading: LineReadingLike, geography: MapInfo) -> ReadLine:
    kept = reading.status == "ignored" and any(said in (reading.message or "")
                                               for said in (CONTINGENT_KEPT, CONTINGENT_KEPT_AT_ONCE))
    return ReadLine(number=str(reading.line), text=reading.text.strip(), status="kept" if kept else reading.status,
                    order=name_order(reading.order, geography) if reading.order is not None else None,
                    explanation=_explanation(reading.message, reading.rule),
                    chatter=getattr(reading, "chatter", None) if reading.status == "ignored" and not kept else None)


def _worth_checking(line: ReadLine) -> bool:
    """A line the reply lists: anything but an order read as written (the orders on file show it)
    and a greeting, heading, sign-off or signature (counted in one line)."""
    if line.status == "accepted":
        return line.explanation is not None
    return line.chatter is None


def chatter_summary(kinds: Sequence[str]) -> str:
    """One line for the greeting, heading, sign-off and signature lines of a message ("4 lines of
    greeting and signature not read as orders."); "" when there are none."""
    if not kinds:
        return ""
    named = [kind for kind in CHATTER_KINDS if kind in kinds]
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    if len(kinds) == 1:
        return f"1 line of {listed} not read as an order."
    return f"{len(kinds)} lines of {listed} not read as orders."


_SKIPPED_SHOWN = 5  # the first lines skipped, said at the top; every line is listed below anyway


def _skipped(lines: Sequence[ReadLine]) -> tuple[str, ...]:
    """Why each line gave no order, for the top of a reply that read none."""
    out = [f"line {line.number} ({excerpt(line.text, 40)}): {line.explanation or 'not understood'}"
           for line in lines if line.status in ("rejected", "ignored", "kept") and line.chatter is None]
    if len(out) > _SKIPPED_SHOWN:
        out = out[:_SKIPPED_SHOWN] + [f"and {len(out) - _SKIPPED_SHOWN} more lines, listed below"]
    return tuple(out)


@dataclass(frozen=True)
class OrdersUnchanged:
    """The reply to a message with no orders in it while a set is on file: nothing was
    replaced (an out-of-office reply read as an empty set wiped a player's orders)."""

    template: ClassVar[str] = "player/orders_unchanged.txt.j2"

    game_name: str
    power: str
    power_name: str
    phase: str
    phase_name: str
    deadline: When | None
    version: str  # of the set on file; "" when only contingent lines stand
    lines: tuple[ReadLine, ...]
    summary: str
    to_check: tuple[ReadLine, ...]  # the lines said one by one (Confirmation.to_check)
    chatter: str  # "2 lines of greeting and sign-off not read as orders.", or ""
    orders: tuple[NamedOrder, ...]  # the set on file, which stands
    kept_lines: tuple[str, ...]  # contingent retreat or adjustment lines that stand, as written
    withdraw_line: str  # the line that would withdraw the set
    if_unordered: str  # what happens to units without an order


def build_orders_unchanged(
    *,
    game_name: str,
    power: str,
    phase: str,
    deadline: datetime | None,
    readings: Sequence[LineReadingLike],
    orders_on_file: Sequence[Order],
    version: int | str | None,
    geography: MapInfo,
    kept_lines: Sequence[str] = (),
    withdraw_line: str,
    timezone: str = "UTC",
) -> OrdersUnchanged:
    confirmation = build_confirmation(game_name=game_name, power=power, phase=phase, deadline=deadline,
                                      readings=readings, orders_on_file=orders_on_file, version=version or "",
                                      geography=geography, timezone=timezone)
    return OrdersUnchanged(
        game_name=game_name, power=power, power_name=confirmation.power_name, phase=phase,
        phase_name=confirmation.phase_name, deadline=confirmation.deadline, version=confirmation.version,
        lines=confirmation.lines, summary=confirmation.summary, to_check=confirmation.to_check,
        chatter=confirmation.chatter, orders=confirmation.orders,
        kept_lines=tuple(kept_lines), withdraw_line=withdraw_line, if_unordered=confirmation.if_unordered,
    )


# ---------------------------------------------------------------------------------------------
# Rejection


@dataclass(frozen=True)
class Rejection:
    template: ClassVar[str] = "player/rejection.txt.j2"

    game_name: str | None
    reasons: tuple[str, ...]
    expected_subject: str | None  # a subject that would have been accepted
    rules: tuple[str, ...]  # what else would have been accepted, e.g. the address rule
    original_subject: str
    original_date: str | None
    game_over: bool = False  # nothing can be sent again: the game has ended
    # a player in several games: "lepanto: lepanto France S1901M", the subject line of each game
    subjects: tuple[str, ...] = ()


def build_rejection(
    reasons: Sequence[str],
    expected_subject: str | None,
    *,
    original_subject: str,
    original_date: datetime | str | None,
    game_name: str | None = None,
    rules: Sequence[str] = (),
    timezone: str = "UTC",
    game_over: bool = False,
    subjects: Sequence[tuple[str, str]] = (),
) -> Rejection:
    """The reply to a message that was not accepted. `original_date` is the message's Date
    header as received (shown as written) or a parsed datetime."""
    if isinstance(original_date, datetime):
        date_text: str | None = str(format_time(original_date, timezone))
    else:
        date_text = " ".join(original_date.split()) if original_date else None
    return Rejection(
        game_name=game_name,
        reasons=tuple(r for r in reasons if r) or ("the message could not be read as orders",),
        expected_subject=expected_subject,
        rules=tuple(rules),
        original_subject=" ".join(original_subject.split()) or "(no subject)",
        original_date=date_text,
        game_over=game_over,
        subjects=tuple(f"{game}: {subject}" for game, subject in subjects),
    )
