"""Subject lines of order mail: reading players' subjects, writing the server's (000 II(2) b, 001 II(4),
003 [10]: the subject options subject_required_fields, subject_template and their kin).

A player names the game, the power and the turn in the subject of an order set, in the form the
game's house rules ask for (the profile's `subject_template`). `read_subject` says what a subject
names and writes one sentence per missing required field or mismatch, ready for the reply;
`format_subject` writes the subjects of the server's own mail from the same tables, so that a
reply to a reminder conforms and a reply to a results report is caught naming the wrong turn.

One tokenizer serves every template; a template is a `TemplateSpec` of data: its season vocabulary
(2.14's second table), how it spells each part, and the order of the parts. Reading goes:
1. normalise (accents dropped), strip reply/forward prefixes and mailing-list tags;
2. find the game name and mask it, so that a game called "France 1901" names no power or year;
3. find the version marker (000 II(2), 001 II(7), 002 ORDERS 2) and mask it;
4. classify each remaining word: engine phase code, season with year ("S01", "s1901"), season
   word, year, phase-type word, power, Final/Preliminary, "results".

The templates are in subject_templates.py, steps 1-4 in subject_scan.py; the three modules share
their underscore names, which no caller outside them uses.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from gmserver.rules.position import PHASE_TYPE_NAMES
from gmserver.rules.subject_scan import Found, collapse_turn, describe_turn, name_words, parse_phase, scan_subject, settle_turn
from gmserver.rules.subject_templates import (
    ADJECTIVES,
    FIELDS,
    NOT_ORDER_SETS,
    POWER_WORDS,
    PURPOSE_WORDS,
    TEMPLATES,
    Marker,
    Purpose,
    TemplateSpec,
    template_spec,
)

# what callers import from here; name_words and the tables live in the modules beside this one
__all__ = ["FIELDS", "TEMPLATES", "Marker", "Purpose", "SubjectReading", "format_subject", "name_words",
           "read_subject"]


@dataclass(frozen=True)
class SubjectReading:
    names_game: bool
    power: str | None  # engine power name
    phase: str | None  # engine phase code; under scorpion the movement phase of the turn
    version: tuple[int, ...] | None  # version marker (000 II(2), 001 II(7))
    marker: Marker | None
    is_reply_to_report: bool  # contains "results", like the server's report subjects
    problems: tuple[str, ...]  # one sentence per missing required field or mismatch
    expected: str  # a conforming subject for this game and turn, for the rejection reply
    # A problem names the wrong turn: `season_mismatch_policy` applies rather than
    # `nonconforming_subject_policy` (2.1). Compare turns through this, not through `phase`:
    # under scorpion "a1901" is right during F1901R and W1901A too.
    wrong_turn: bool = False
    # subject_or_body (003 [10]): the first lines of the message read with the subject, when they
    # gave what it lacked; the reply says so of each instead of "Not an order."
    from_body: tuple[str, ...] = ()


def read_subject(
    subject: str,
    *,
    template: str,
    game_name: str,
    current_phase: str,
    required_fields: frozenset[str],
) -> SubjectReading:
    """What `subject` names, under the house-rule `template`, for a game now at `current_phase`.

    Never raises on any subject text; raises ValueError for an unknown template or field (a
    configuration error). Works as well on the first lines of a body (`subject_or_body`, 003 [10]).
    The subject's power is not checked against the sender: the caller knows the registration."""
    spec = template_spec(template)
    if unknown := set(required_fields) - FIELDS:
        raise ValueError(f"unknown subject fields: {sorted(unknown)}")
    found = scan_subject(spec, subject, game_name)
    season, year, turn_problem = settle_turn(spec, found)
    powers = {power for _, power in found.powers}
    power = next(iter(powers)) if len(powers) == 1 else None

    problems = _missing(found, required_fields, game_name, turn_problem, season, year, powers, power)

    current = parse_phase(current_phase)
    if current is not None:
        current = (collapse_turn(spec, current[0]), current[1])
    wrong_turn = current is not None and (
        (season is not None and season != current[0]) or (year is not None and year != current[1])
    )
    if wrong_turn and current is not None:
        # 003 [10]: a reply to an adjudication "would have the wrong season in the subject line".
        problems.append(f"The subject names {describe_turn(spec, season, year)} "
                        f"but the game is at {describe_turn(spec, *current)}.")
    if spec.parts_in_order and not _in_order(found):
        problems.append(f"The parts of the subject are out of order: the house rules ask for "
                        f"{spec.template}.")

    phase = f"{season[0]}{year}{season[1]}" if season is not None and year is not None else None
    if power is not None:
        example_power: str | None = _spell_power(spec, power)
    else:
        example_power = "<your power>" if "power" in required_fields else None
    expected = _render(spec, game_name, example_power,
                       _phase_code(*current) if current else None, found.version, "orders")
    return SubjectReading(
        names_game=found.game_at is not None,
        power=power,
        phase=phase,
        version=found.version,
        marker=found.markers[-1] if found.markers else None,
        is_reply_to_report=found.results,
        problems=tuple(problems),
        expected=expected,
        wrong_turn=wrong_turn,
    )


def _missing(found: Found, required_fields: frozenset[str], game_name: str, turn_problem: str | None,
             season: str | None, year: int | None, powers: set[str], power: str | None) -> list[str]:
    """One sentence per required field the subject does not name (or names more than once)."""
    problems: list[str] = []
    if "game" in required_fields and found.game_at is None:
        problems.append(f"The subject does not name the game ({game_name.strip()}).")
    if turn_problem:
        problems.append(turn_problem)
    else:
        if "year" in required_fields and year is None:
            problems.append("The subject does not name the year.")
        if "season" in required_fields and season is None:
            problems.append("The subject does not name the season.")
    if "phase" in required_fields and not found.kinds:
        problems.append("The subject does not name the phase (Movement, Retreats or Adjustments).")
    if "power" in required_fields and len(powers) > 1:
        problems.append(f"The subject names more than one power ({', '.join(sorted(powers))}).")
    elif "power" in required_fields and power is None:
        problems.append("The subject does not name your power.")
    if "version" in required_fields and found.version is None:
        problems.append("The subject has no version number of the set, for example [1].")
    return problems


def _in_order(found: Found) -> bool:
    """The parts come in the template's order. Year, season and phase form one part, the turn, in
    whatever order they come."""
    turn_at = min((at for at, _ in found.seasons + found.years + found.kinds), default=None)
    power_at = found.powers[0][0] if found.powers else None
    parts = (found.game_at, turn_at, power_at, found.version_at)
    offsets = [at for at in parts if at is not None]
    return offsets == sorted(offsets)


# --- writing ---------------------------------------------------------------------------------


def _phase_code(season_kind: str, year: int) -> str:
    return f"{season_kind[0]}{year}{season_kind[1]}"


def _spell_power(spec: TemplateSpec, power: str) -> str:
    return spec.power.format(name=power.title(), adjective=ADJECTIVES[power], NAME=power)


def _two_digit_year(year: int) -> str:
    # Two digits are read back as 19xx (000 II(2) b "S01"); other centuries keep four.
    return f"{year % 100:02d}" if 1900 <= year <= 1999 else str(year)


def _render(spec: TemplateSpec, game_name: str, power: str | None, phase: str | None,
            version: tuple[int, ...] | None, purpose: Purpose) -> str:
    parts = _parts(spec, game_name, power, phase, version, purpose)
    return spec.separator.join(parts[slot] for slot in spec.slots if parts[slot])


def _parts(spec: TemplateSpec, game_name: str, power: str | None, phase: str | None,
           version: tuple[int, ...] | None, purpose: Purpose) -> dict[str, str]:
    """Each part of a subject by its slot; "" for a part the subject leaves out."""
    turn = ""
    if phase is not None:
        parsed = parse_phase(phase)
        assert parsed is not None
        season_kind, year = collapse_turn(spec, parsed[0]), parsed[1]
        turn = spec.turn.format(
            season=spec.spell_season.get(season_kind, ""), yy=_two_digit_year(year), year=year,
            kind=PHASE_TYPE_NAMES[season_kind[1]], code=_phase_code(season_kind, year),
        )
    if version is None and spec.version_always:
        version = (1,)
    return {
        "game": spec.game(game_name),
        "turn": turn,
        "power": power or "",
        # A report or a proposal is not an order set: no "Orders" word and no version.
        "orders": spec.orders_word if purpose not in NOT_ORDER_SETS else "",
        "version": spec.version.format(v=".".join(map(str, version)))
        if version and purpose not in NOT_ORDER_SETS else "",
        "purpose": PURPOSE_WORDS[purpose],
    }


def format_subject(
    *,
    template: str,
    game_name: str,
    power: str | None,
    phase: str,
    purpose: Purpose,
    version: tuple[int, ...] | None = None,
) -> str:
    """The subject of an outgoing message about `phase` (2.14's last paragraph).

    Reminders, confirmations and rejections name the turn now open, so that a reply to one
    conforms; reports name the turn just adjudicated and the word "results", so that a reply to
    a report is read as naming the wrong turn. `power` is an engine name (None: mail to all);
    `version` defaults to 1 under mhr, where it is required (000 II(2) b v).

    Written from what the subjects of one game, turn and purpose share, made once (`_around_power`),
    and the power's words: a deadline writes one subject for each player of each game."""
    around = _around_power(template, game_name, phase, purpose, version)
    spelled = _power_words(template, power) if power is not None else ""
    if around.before is None or not spelled:  # no place for the power, or no words for it: _render leaves it out
        return around.without_power
    return around.before + spelled + around.after


@dataclass(frozen=True)
class _AroundPower:
    without_power: str  # the subject of a mail to all
    before: str | None  # the subject before the power's words, its separator included; None: no place for it
    after: str  # the subject after the power's words, its separator included


@functools.lru_cache(maxsize=4096)
def _around_power(template: str, game_name: str, phase: str, purpose: Purpose,
                  version: tuple[int, ...] | None) -> _AroundPower:
    """What the subjects of a game's turn share, for `format_subject`; ValueError for an unknown
    template, phase or purpose (an error is never kept: it is raised anew)."""
    spec = template_spec(template)
    if parse_phase(phase) is None:
        raise ValueError(f"not an engine phase code: {phase!r}")
    if purpose not in PURPOSE_WORDS:
        raise ValueError(f"unknown purpose {purpose!r}")
    parts = _parts(spec, game_name, None, phase.strip().upper(), version, purpose)
    without = spec.separator.join(parts[slot] for slot in spec.slots if parts[slot])
    if "power" not in spec.slots:
        return _AroundPower(without, None, "")
    at = spec.slots.index("power")
    return _AroundPower(without, "".join(parts[slot] + spec.separator for slot in spec.slots[:at] if parts[slot]),
                        "".join(spec.separator + parts[slot] for slot in spec.slots[at + 1:] if parts[slot]))


@functools.lru_cache(maxsize=256)
def _power_words(template: str, power: str) -> str:
    """`power` (an engine name, any case) as `template` spells it; ValueError for an unknown power."""
    engine_power = POWER_WORDS.get(power.strip().lower())
    if engine_power is None:
        raise ValueError(f"unknown power {power!r}")
    return _spell_power(template_spec(template), engine_power)


def subject_example(*, template: str, game_name: str, phase: str, purpose: Purpose) -> str:
    """format_subject with "<your power>" where a player's power goes: the line as the GM's copy
    of a mail sent to every player shows it."""
    return _render(template_spec(template), game_name, "<your power>", phase.strip().upper(), None, purpose)
