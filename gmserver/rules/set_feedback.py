"""What the confirmation of an order set says about its invalid lines (
`invalid_set_feedback`, `clarification_min_hours`, `confirm_each_set`).

000 III(1): "No presumption that a player wants a complete set of valid orders. GM may ask for
clarification of an invalid set if (a) such sets are unusual from this player, (b) time remains
before the deadline, (c) the player has not said the orders are meant as written."

Under `conditional_mhr` a set with an invalid line (a line the reader rejected: void, or not
understood) gets the line-by-line reading and an explicit question ("Did you mean something
else? Send a corrected set before ...") only when all three conditions hold; otherwise a receipt
only, which says which condition failed. (a) is the GM's judgement, per player: the
GM switches clarifications off for a player (`gmserver game clarify NAME POWER off`), seeing how
often the player's sets had invalid lines (`invalid_record`, shown by `gmserver game show`).
`echo_always` states the reading and asks nothing. `receipt_only` confirms receipt of every set
and says nothing of how its lines were read.

`confirm_each_set = false` (no profile sets it; 001 IV(1) ¶2 "a missing confirmation does not
mean the set was not received"): a set read exactly as written (every line accepted or ignored,
at least one order, no remark on the set) is filed without a reply; any other set is confirmed,
so that a line not used or read differently is never left unsaid.

Pure: standard library only; the caller passes the GM's switch and the clock.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from gmserver.rules.reading.model import LineReading
from gmserver.rules.reading.rule_words import rule_in_words
from gmserver.rules.ruleset import Ruleset

# (a) "such sets are unusual from this player" is the GM's to judge; to help, the GM
# is shown, besides the count over the whole game, how many of the player's last RECENT_SETS sets
# had an invalid line
RECENT_SETS = 3

INVALID = "rejected"  # the reader's status for a void or unreadable line
CLAUSE = "000 III(1)"

ECHO = "echo"  # state how each line was read, ask nothing
ASK = "ask"  # state the reading and ask about the invalid lines
SILENT = "silent"  # no confirmation (confirm_each_set = false, set read as written)
RECEIPT = "receipt"  # invalid_set_feedback = receipt_only: a receipt, no reading

# (c) the words that say the orders are meant as written [P: 000 III(1) names no form]
_AS_WRITTEN = re.compile(r"\b(?:as\s+written|as\s+intended|intentional(?:ly)?|deliberate(?:ly)?|on\s+purpose)\b",
                         re.IGNORECASE)


@dataclass(frozen=True)
class Feedback:
    kind: str  # ECHO, ASK or SILENT
    # ECHO for a set with invalid lines under conditional_mhr: why no question was asked, in words
    not_asked: str | None = None
    rule: str | None = None  # the clause in words, "house rules 000 III(1)"


def has_invalid_line(statuses: Sequence[str]) -> bool:
    return INVALID in statuses


def says_as_written(texts: Sequence[str]) -> bool:
    """(c): a line of the message (or its subject) says the orders are meant as written."""
    return any(_AS_WRITTEN.search(text or "") for text in texts)


def _rule(ruleset: Ruleset) -> str:
    """The clause, as the reader cites it: 000 III(1) in an mhr game, the option in any other."""
    return CLAUSE if getattr(ruleset, "name", None) == "mhr" else "invalid_set_feedback = conditional_mhr"


def with_as_written(ruleset: Ruleset, lines: Sequence[LineReading]) -> tuple[LineReading, ...]:
    """Under conditional_mhr, a line the reader ignored that says the orders are meant as written
    is said to be taken so (the reader itself calls it "Not an order.")."""
    if ruleset.invalid_set_feedback != "conditional_mhr":
        return tuple(lines)
    return tuple(dataclasses.replace(line, message="Taken as saying your orders are meant as written.",
                                     rule=_rule(ruleset))
                 if line.status == "ignored" and says_as_written([line.text]) else line for line in lines)


def set_feedback(ruleset: Ruleset, *, statuses: Sequence[str], texts: Sequence[str], clarify: bool,
                 deadline: datetime | None, now: datetime, has_remarks: bool = False) -> Feedback:
    """The confirmation a new set gets.

    `statuses`/`texts`: the set's lines as read and as written (the subject may be one of the
    texts); `clarify`: the GM's switch for this player, 000 III(1) (a) (on unless the GM found
    invalid sets usual from this player); `has_remarks`: the reply has notes or warnings on the
    whole set.
    """
    invalid = has_invalid_line(statuses)
    if not ruleset.confirm_each_set and _read_as_written(statuses) and not has_remarks:
        return Feedback(SILENT)  # confirm_each_set = false: nothing the player needs to hear
    if ruleset.invalid_set_feedback == "receipt_only":  # receipt, no verdicts
        return Feedback(RECEIPT, rule=rule_in_words("invalid_set_feedback = receipt_only"))
    if not invalid or ruleset.invalid_set_feedback != "conditional_mhr":
        return Feedback(ECHO)
    rule = rule_in_words(_rule(ruleset))
    why = _why_not_ask(ruleset, texts, clarify, deadline, now)
    # the line-by-line verdicts only when (a), (b) and (c) hold; otherwise a receipt
    return Feedback(RECEIPT, not_asked=why, rule=rule) if why else Feedback(ASK, rule=rule)


def _why_not_ask(ruleset: Ruleset, texts: Sequence[str], clarify: bool, deadline: datetime | None,
                 now: datetime) -> str | None:
    """The first of 000 III(1)'s conditions (c), (b), (a) that fails, in words; None if all hold."""
    if says_as_written(texts):  # (c)
        return "you said the orders are meant as written"
    hours = ruleset.clarification_min_hours
    if deadline is not None and deadline - now < timedelta(hours=hours):  # (b)
        return f"less than {hours} hours remain before the deadline"
    if not clarify:  # (a): the GM's switch for this player
        return "the GM has found that sets with lines that cannot be used are not unusual from you"
    return None


@dataclass(frozen=True)
class InvalidRecord:
    """What the GM sees to judge 000 III(1) (a): of the player's sets in this game, how many had
    an invalid line, in all and among the last RECENT_SETS."""

    invalid: int
    sets: int
    recent_invalid: int
    recent: int


def invalid_record(newest_first: Sequence[Sequence[str]]) -> InvalidRecord:
    """The record of a player's sets, each given as its lines' statuses, newest first."""
    flags = [has_invalid_line(statuses) for statuses in newest_first]
    recent = flags[:RECENT_SETS]
    return InvalidRecord(sum(flags), len(flags), sum(recent), len(recent))


def _read_as_written(statuses: Sequence[str]) -> bool:
    return "accepted" in statuses and all(s in ("accepted", "ignored") for s in statuses)
