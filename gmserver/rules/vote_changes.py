"""Votes that change the game rather than end it (2.8): a permanent deadline
change (003 [18] ¶2), the turn-length vote at the start (003 [23]) and a house-rule change
(000 IX(3), 001 VIII(3), 003 [18] ¶3). Pure: reading the line and the result; the tally of a
change proposal is rules/votes.tally (unanimity, with the GM as an elector where
`vote.rule_change.gm_must_agree`).

Grammar, a proposal [P practice] as for draws (the seeds name the votes, not a syntax):

    DEADLINE 21               movement turns of 21 days from now on (deadline_change)
    DEADLINE 3 weeks NO       a vote against that change (YES, NO or ABSTAIN last; YES if none)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from gmserver.rules.subject import name_words

_CHOICE_WORDS = {"yes": "yes", "y": "yes", "aye": "yes", "no": "no", "n": "no", "nay": "no",
                 "abstain": "abstain", "abstention": "abstain", "abstaining": "abstain"}
_UNITS = {"day": 1, "days": 1, "d": 1, "week": 7, "weeks": 7, "w": 7}
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4}


@dataclass(frozen=True)
class DeadlineLine:
    days: int  # the movement turn length proposed, in days
    choice: str  # yes, no or abstain


def read_deadline(argument: str) -> DeadlineLine | str:
    """"21", "21 days", "3 weeks", "three weeks", then YES/NO/ABSTAIN. A readable error instead."""
    words = name_words(argument)
    choice = "yes"
    if words and words[-1] in _CHOICE_WORDS:
        choice = _CHOICE_WORDS[words.pop()]
    words = [w for w in words if w not in ("of", "a", "turns", "turn", "deadlines", "deadline")]
    if not words or len(words) > 2:
        return "write the turn length you propose, for example \"DEADLINE 14 days\" or \"DEADLINE 2 weeks NO\""
    number = int(words[0]) if words[0].isdigit() else _NUMBERS.get(words[0])
    unit = _UNITS.get(words[1]) if len(words) == 2 else 1
    if number is None or unit is None or number * unit < 1:
        return f"\"{' '.join(words)}\" is not a turn length: write days or weeks, for example \"DEADLINE 14 days\""
    return DeadlineLine(number * unit, choice)


def deadline_problem(days: int, min_hours_movement: int, choices: tuple[int, ...] | None) -> str | None:
    """Why a deadline change cannot be proposed: shorter than the profile's minimum
    (min_hours_movement), or not one of the lengths the house rules offer (003 [23] 7/14/21 days)."""
    if days * 24 < min_hours_movement:
        return f"a movement turn under this game's house rules lasts at least {min_hours_movement} hours"
    if choices and days not in choices:
        return f"the house rules offer turns of {_listed(choices)} days (003 [23])"
    return None


def describe_deadline(days: int) -> str:
    """"a change of the movement deadline to 14 days" (for a proposal and its announcement)."""
    weeks = f" ({days // 7} week{'s' if days // 7 > 1 else ''})" if days % 7 == 0 else ""
    return f"a change of the movement turns to {days} days{weeks}"


def _listed(choices: tuple[int, ...]) -> str:
    return ", ".join(str(c) for c in choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else str(choices[0])


def turn_length_invitation(choices: tuple[int, ...]) -> str:
    """The start mail's point on turn_length_vote (003 [23]), in words, without its clause."""
    return (f"At the start the players vote on the length of a movement turn: {_listed(choices)} days. Send a "
            f"message whose first line is TURN LENGTH and the days (for example \"TURN LENGTH {choices[-1]}\") "
            "before the first deadline. The length with the most votes is used from then on, a tie going to the "
            "longer one; a player who does not vote is not counted, and the GM does not vote")


def turn_length_problem(days: int, choices: tuple[int, ...] | None, choice: str) -> str | None:
    """Why a TURN LENGTH ballot cannot be counted (003 [23]), or None."""
    if not choices:
        return "this game's house rules have no vote on the turn length: the GM sets it"
    if choice != "yes":
        return f"vote for the length you want, for example \"TURN LENGTH {choices[-1]}\"; there is nothing to vote against"
    if days not in choices:
        return f"the house rules offer turns of {_listed(choices)} days (003 [23])"
    return None


def turn_length_announcement(days: int | None, current_days: float) -> str:
    """The result of the start-of-game vote (003 [23]) for the players, in words."""
    if days is None:
        return (f"No player voted on the length of a movement turn: it stays at {current_days:g} days "
                "(house rules 003 [23]).")
    weeks = f" ({days // 7} week{'s' if days // 7 > 1 else ''})" if days % 7 == 0 else ""
    return (f"The players voted on the length of a movement turn: from now on it lasts {days} days{weeks}, "
            "the length with the most votes (house rules 003 [23]).")


def turn_length_result(ballots: Mapping[str, int], choices: tuple[int, ...]) -> int | None:
    """turn_length_vote (003 [23] "the players vote for one, two or three week deadlines", the
    GM not voting): the most-voted length wins; the rule is silent on a tie, which goes to the
    longer deadline [P]. Ballots for a length not offered are not counted; None if none counts."""
    counts: dict[int, int] = {}
    for days in ballots.values():
        if days in choices:
            counts[days] = counts.get(days, 0) + 1
    if not counts:
        return None
    return max(counts, key=lambda days: (counts[days], days))


# --- proposals written in words: a rule change (000 IX(3), 001 VIII(3), 003 [18] ¶3) and an end of
# the game on any terms (003 [18] ¶1). The grammar [P practice], the seeds giving none:
#
#     RULE CHANGE: press may be sent in retreat seasons    proposes it (the author votes Yes)
#     RULE CHANGE 12 NO                                     a ballot on proposal 12 (YES if none)
#     END GAME: Austria and England share a draw            proposes an end on these terms
#     END GAME 12 ABSTAIN                                   a ballot on proposal 12

TERMS_LIMIT = 500  # characters of proposed words kept: a proposal is a sentence, not a letter


@dataclass(frozen=True)
class TermsLine:
    terms: str  # the words proposed; "" for a ballot on a proposal by its number
    number: int | None  # the proposal voted on, for a ballot
    choice: str  # yes, no or abstain


def read_terms(argument: str, example: str) -> TermsLine | str:
    """A proposal in words or a ballot by number ("12 NO"); `example` the keyword line that
    makes one, for the error ("RULE CHANGE: press may be sent in retreat seasons")."""
    words = argument.strip().lstrip(":-– ").split()
    if words and words[0].lstrip("#").rstrip(":.,").isdigit():
        rest = name_words(" ".join(words[1:]))
        if len(rest) > 1 or (rest and rest[0] not in _CHOICE_WORDS):
            return f"after the proposal's number write YES, NO or ABSTAIN (for example \"{example.split(':')[0]} 12 NO\")"
        return TermsLine("", int(words[0].lstrip("#").rstrip(":.,")), _CHOICE_WORDS[rest[0]] if rest else "yes")
    if len(name_words(" ".join(words))) < 2:
        return f"write what you propose in words, for example \"{example}\""
    return TermsLine(" ".join(words)[:TERMS_LIMIT], None, "yes")


def terms_key(terms: str) -> str:
    """The same words, in any case or spacing, are the same proposal (a second author's line is a
    Yes vote on it); the key fits the proposals table's `members` column."""
    return "#" + hashlib.sha1(" ".join(name_words(terms)).encode()).hexdigest()[:24]
