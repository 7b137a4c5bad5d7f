"""Subject lines of order mail: reading players' subjects, writing the server's (000 II(2) b, 001 II(4),
003 [10]: the subject options subject_required_fields, subject_template and their kin).

A player names the game, the power and the turn in the subject of an order set, in the form the
game's house rules ask for (the profile's `subject_template`). `read_subject` says what a subject
names and writes one sentence per missing required field or mismatch, ready for the reply;
`format_subject` writes the subjects of the server's own mail from the same tables, so that a
reply to a reminder conforms and a reply to a results report is caught naming the wrong turn.

One tokenizer serves every template; a template is a `_Spec` of data: its season vocabulary
(2.14's second table), how it spells each part, and the order of the parts. Reading goes:
1. normalise (accents dropped), strip reply/forward prefixes and mailing-list tags;
2. find the game name and mask it, so that a game called "France 1901" names no power or year;
3. find the version marker (000 II(2), 001 II(7), 002 ORDERS 2) and mask it;
4. classify each remaining word: engine phase code, season with year ("S01", "s1901"), season
   word, year, phase-type word, power, Final/Preliminary, "results".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from gmserver.rules.geography import POWERS
from gmserver.rules.position import PHASE_TYPE_NAMES, SEASON_NAMES

Purpose = Literal["orders", "confirmation", "rejection", "reminder", "report"]
Marker = Literal["final", "preliminary"]

FIELDS = frozenset({"game", "year", "season", "phase", "power", "version"})  # 2.1

_ADJECTIVES = MappingProxyType(dict(zip(
    POWERS, ("Austrian", "English", "French", "German", "Italian", "Russian", "Turkish"), strict=True)))

# Every word read as a power: names, adjectives, and the short forms 003 [9] reserves for the
# players ("A-H" is left out: its "A" and "H" are ordinary letters in a subject).
_POWER_WORDS = MappingProxyType({
    **{power.lower(): power for power in POWERS},
    **{adjective.lower(): power for power, adjective in _ADJECTIVES.items()},
    "aus": "AUSTRIA", "aut": "AUSTRIA", "eng": "ENGLAND", "gb": "ENGLAND", "uk": "ENGLAND",
    "fra": "FRANCE", "ger": "GERMANY", "ita": "ITALY", "rus": "RUSSIA", "tur": "TURKEY",
})

# Phase-type words, understood in every profile: 001 II(4) names Movement, Retreat(s),
# Adjustment(s) or Build(s); 002 ORDERS 4 speaks of "winter removals".
_PHASE_TYPE_WORDS = MappingProxyType({
    "movement": "M", "moves": "M", "move": "M",
    "retreat": "R", "retreats": "R",
    "adjustment": "A", "adjustments": "A", "build": "A", "builds": "A",
    "removal": "A", "removals": "A",
})

# 2.4: "Final" (000 II(1)) and "Preliminary" (001 II(3)) are understood in every profile;
# "provisional" is 003 [11]'s word.
_MARKER_WORDS: Mapping[str, Marker] = MappingProxyType({
    "final": "final", "preliminary": "preliminary", "prelim": "preliminary",
    "provisional": "preliminary",
})

_PURPOSE_WORDS: Mapping[str, str] = MappingProxyType({
    "orders": "", "confirmation": "confirmation", "rejection": "not accepted",
    "reminder": "reminder", "report": "results",  # "results": 2.14's last paragraph
})

_VALID_KINDS = MappingProxyType({"S": "MR", "F": "MR", "W": "A"})  # season letter -> phase types


@dataclass(frozen=True)
class _Spec:
    template: str  # quoted in problems
    # word -> season letter + phase type it names ("su" -> "SR"): 2.14's season table, one column.
    # Single letters count only when a year is attached ("S01"): alone they are too common.
    seasons: Mapping[str, str]
    spell_season: Mapping[str, str]  # season letter + phase type -> the word this template writes
    turn: str  # format of the turn; fields {season} {yy} {year} {kind} {code}
    power: str  # format of the power; fields {name} {adjective} {NAME}
    version: str  # format of a version; field {v}
    slots: tuple[str, ...]  # order of the parts
    separator: str
    orders_word: str = ""
    game: Callable[[str], str] = str.strip
    version_always: bool = False  # mhr: the version is a required field (000 II(2) b v)
    whole_turns: bool = False  # scorpion: a season names the whole two-season turn (003 [5])
    dc_numbers: bool = False  # mhr: "Dc179" or the name, either suffices (000 II(2) b)
    parts_in_order: bool = False  # danivon (2.14): "any punctuation ... if the parts come in order"


def _frozen(**words: str) -> Mapping[str, str]:
    return MappingProxyType(words)


_DC = re.compile(r"\bdc\s*-?\s*(\d+)\b", re.IGNORECASE | re.ASCII)


def _dc_parts(game_name: str) -> tuple[str | None, str]:
    """"Dc179 [BlackMarch]" -> ("179", "BlackMarch"); a name without "Dc<n>" -> (None, name)."""
    match = _DC.search(game_name)
    if not match:
        return None, game_name.strip()
    rest = re.sub(r"[\[\]()]", " ", game_name[: match.start()] + " " + game_name[match.end():])
    return match.group(1), " ".join(rest.split()).strip(" -:;,")


def _mhr_game(game_name: str) -> str:
    # 000 II(2) b: "Dc" and the number and/or the name in square brackets.
    number, name = _dc_parts(game_name)
    return " ".join(([f"Dc{number}"] if number else []) + ([f"[{name}]"] if name else []))


_GAME_TURN_POWER = ("game", "turn", "power", "orders", "version", "purpose")
_GAME_POWER_TURN = ("game", "power", "turn", "orders", "version", "purpose")

_SPECS: Mapping[str, _Spec] = MappingProxyType({
    # 000 II(2) b: "Dc179 [BlackMarch] S01: English Orders [1]"; seasons per 000 VII(2) and [P] A.
    "mhr": _Spec(
        template="Dc<number> [<game name>] <season><yy>: <power adjective> Orders [<version>]",
        seasons=_frozen(s="SM", spring="SM", su="SR", summer="SR", f="FM", fall="FM",
                        a="FR", autumn="FR", w="WA", winter="WA"),
        spell_season=_frozen(SM="S", SR="Su", FM="F", FR="A", WA="W"),
        turn="{season}{yy}:", power="{adjective}", version="[{v}]",
        slots=_GAME_TURN_POWER, separator=" ", orders_word="Orders", game=_mhr_game,
        version_always=True, dc_numbers=True,
    ),
    # 001 II(4): "Game Name; Turn Year, season, phase; Country name"; sequence marker II(7) ¶1.
    "danivon": _Spec(
        template="<Game Name>; <Year>, <Season>, <Phase>; <Country name>",
        seasons=_frozen(spring="SM", fall="FM", autumn="FM", winter="WA"),
        spell_season=_frozen(SM="Spring", SR="Spring", FM="Fall", FR="Fall", WA="Winter"),
        turn="{year}, {season}, {kind}", power="{name}", version="v{v}",
        slots=_GAME_TURN_POWER, separator="; ", parts_in_order=True,
    ),
    # 002 is silent [P]; "autumn retreats" and "winter removals" (ORDERS 4), "Fall" (DRAWS 3).
    "email_rules": _Spec(
        template="<game> [<power>] [#<n>]",
        seasons=_frozen(spring="SM", summer="SR", fall="FM", autumn="FR", winter="WA"),
        spell_season=_frozen(SM="Spring", SR="Summer", FM="Fall", FR="Autumn", WA="Winter"),
        turn="{season} {year}", power="{name}", version="#{v}",
        slots=_GAME_POWER_TURN, separator=" ",
        orders_word="orders",
    ),
    # 003 [10]: "DARK SIDE - RUSSIA - s1901"; a = Autumn per [5], f and full words [P].
    "scorpion": _Spec(
        template="<GAME NAME> - <COUNTRY> - <season letter><yyyy>",
        seasons=_frozen(s="SM", spring="SM", a="FM", autumn="FM", f="FM", fall="FM"),
        spell_season=_frozen(SM="s", FM="a"),
        turn="{season}{year}", power="{NAME}", version="#{v}",
        slots=_GAME_POWER_TURN, separator=" - ",
        game=lambda name: name.strip().upper(), whole_turns=True,
    ),
    # Default and gwm (silent) [P]: "lepanto France S1901M".
    "standard": _Spec(
        template="<game> <power> <phase code>",
        seasons=_frozen(spring="SM", summer="SR", fall="FM", autumn="FR", winter="WA"),
        spell_season=_frozen(SM="Spring", SR="Summer", FM="Fall", FR="Autumn", WA="Winter"),
        turn="{code}", power="{name}", version="#{v}",
        slots=_GAME_POWER_TURN, separator=" ",
    ),
})
# The ruleset catalogue (2.1) calls the standard template "default".
_ALIASES = MappingProxyType({"default": "standard"})
TEMPLATES = frozenset(_SPECS) | frozenset(_ALIASES)


def _spec(template: str) -> _Spec:
    spec = _SPECS.get(_ALIASES.get(template, template))
    if spec is None:
        raise ValueError(f"unknown subject template {template!r}; known: {sorted(TEMPLATES)}")
    return spec


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


# --- reading ---------------------------------------------------------------------------------

_PREFIX = re.compile(
    r"\s*(?:(?:re|fwd?|aw|wg|sv)\s*(?:\[\d+\]|\(\d+\))?\s*:|\[(?P<tag>[^\]]*)\])",
    re.IGNORECASE | re.ASCII,
)
_WORD = re.compile(r"[a-z0-9]+", re.IGNORECASE | re.ASCII)
_NUMBER = r"\d{1,3}(?:\.\d{1,3})*(?![\d])"  # version markers compare component by component (001 II(7))
_VERSION = re.compile(
    rf"\[\s*({_NUMBER})\s*\]|\(\s*({_NUMBER})\s*\)|#\s*({_NUMBER})"
    rf"|\b(?:v|version)\.?\s*({_NUMBER})",
    re.IGNORECASE | re.ASCII,
)
_CODE = re.compile(r"([sfw])(\d{4})([mra])")
_COMPACT = re.compile(r"([a-z]+)(\d{2}|\d{4})")
_YEAR4 = re.compile(r"(?:1[89]|2\d)\d\d")

_Word = tuple[int, str]  # (offset in the normalised text, lower-case word)


def _normalise(text: str) -> str:
    # NFKD turns full-width and accented letters into ASCII plus marks; the marks are dropped,
    # so "Café" and "Cafe" are the same game. Offsets are taken in this text only.
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _words(text: str) -> list[_Word]:
    return [(m.start(), m.group().lower()) for m in _WORD.finditer(text)]


def name_words(text: str) -> list[str]:
    """The words of a subject or a game name as every matcher compares them: accents dropped
    ("Café" is "cafe"), lower case, split at anything but ASCII letters and digits. One function,
    so that the quick look for the games a subject may name (services.intake) and the exact
    reading here never disagree about a word."""
    return [word for _, word in _words(_normalise(text))]


def _key(text: str) -> str:
    """What game names are compared by: words joined, case, spaces and punctuation ignored."""
    return "".join(name_words(text))


def _game_keys(spec: _Spec, game_name: str) -> frozenset[str]:
    keys = {_key(game_name)}
    if spec.dc_numbers:
        number, name = _dc_parts(_normalise(game_name))
        if number:
            # "Dc0179" and "Dc179" are the same game; no int(): a name may hold any digits.
            keys |= {f"dc{number.lstrip('0') or '0'}", f"dc{number}", _key(name)}
    return frozenset(k for k in keys if k)


def _strip_prefixes(text: str, game_keys: frozenset[str]) -> str:
    """Drop "Re:", "Fwd:", "AW:", ... and list tags like "[diplomacy]", however many.

    A bracket that holds the game name or part of it ("[BlackMarch] S01: ...", 000) or a number
    (a version) is part of the subject, not a tag."""
    while match := _PREFIX.match(text):
        tag = match.group("tag")
        if tag is not None and (re.fullmatch(rf"\s*{_NUMBER}\s*", tag)
                                or any(_key(tag) and _key(tag) in key for key in game_keys)):
            break
        text = text[match.end():]
    return text


def _game_spans(words: list[_Word], keys: frozenset[str]) -> list[tuple[int, int]]:
    """Word index ranges [i, j) whose joined words equal a game key, leftmost and longest.

    Each key is taken once: in "France 1901 - FRANCE - s1901" (game "France 1901") the second
    "France" is the power. Under mhr "Dc179" and "[BlackMarch]" are two keys and may stand apart."""
    spans: list[tuple[int, int]] = []
    unused, i = set(keys), 0
    while i < len(words) and unused:
        joined, end = "", None
        for j in range(i, len(words)):
            joined += words[j][1]
            if not any(key.startswith(joined) for key in unused):
                break
            if joined in unused:
                end, key = j + 1, joined
        if end is None:
            i += 1
        else:
            spans.append((i, end))
            unused -= {k for k in unused if k in key}  # "dc179blackmarch" covers "dc179"
            i = end
    return spans


def _mask(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _collapse(spec: _Spec, season_kind: str) -> str:
    """Under scorpion a season names the whole turn (003 [5]): its movement phase."""
    if not spec.whole_turns:
        return season_kind
    return "SM" if season_kind[0] == "S" else "FM"


def _parse_phase(phase: str) -> tuple[str, int] | None:
    """"F1901R" -> ("FR", 1901); None if not an engine phase code."""
    match = _CODE.fullmatch(phase.strip().lower())
    if not match or match[3].upper() not in _VALID_KINDS[match[1].upper()]:
        return None
    return match[1].upper() + match[3].upper(), int(match[2])


def _year(digits: str) -> int | None:
    if len(digits) == 2:
        return 1900 + int(digits)  # 000 II(2) b "S01": two digits mean 19xx
    return int(digits) if _YEAR4.fullmatch(digits) else None


def _describe(spec: _Spec, season_kind: str | None, year: int | None) -> str:
    if season_kind is None:
        return str(year)
    if spec.whole_turns:
        words = ["Spring" if season_kind[0] == "S" else "Autumn"]
    else:
        words = [SEASON_NAMES[season_kind[0]], PHASE_TYPE_NAMES[season_kind[1]]]
    if year is not None:
        words.insert(1, str(year))
    return " ".join(words)


@dataclass
class _Found:
    """What a subject names, with the offsets where the parts appear (for danivon's order)."""

    game_at: int | None = None
    version: tuple[int, ...] | None = None
    version_at: int | None = None
    seasons: list[tuple[int, str]] = field(default_factory=list)  # season letter + default type
    years: list[tuple[int, int]] = field(default_factory=list)
    kinds: list[tuple[int, str]] = field(default_factory=list)  # explicit phase types
    powers: list[tuple[int, str]] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    results: bool = False


def _scan(spec: _Spec, subject: str, game_name: str) -> _Found:
    """Steps 1 to 4 of the module docstring."""
    keys = _game_keys(spec, game_name)
    text = _strip_prefixes(_normalise(subject), keys)
    found = _Found()

    words = _words(text)
    spans = _game_spans(words, keys)
    if spans:
        found.game_at = words[spans[0][0]][0]
    for i, j in spans:
        text = _mask(text, words[i][0], words[j - 1][0] + len(words[j - 1][1]))

    versions = list(_VERSION.finditer(text))
    if versions:  # the last marker: every template writes it at the end
        last = versions[-1]
        found.version = tuple(int(c) for c in next(g for g in last.groups() if g).split("."))
        found.version_at = last.start()
        for match in versions:
            text = _mask(text, match.start(), match.end())

    _classify(spec, _words(text), found)
    return found


def _classify(spec: _Spec, words: list[_Word], found: _Found) -> None:
    is_season = [len(w) > 1 and w in spec.seasons for _, w in words]
    for n, (at, word) in enumerate(words):
        code, compact = _CODE.fullmatch(word), _COMPACT.fullmatch(word)
        if code and code[3].upper() in _VALID_KINDS[code[1].upper()]:
            # Engine codes are understood under every template [P]: they cannot mean anything else.
            found.seasons.append((at, (code[1] + code[3]).upper()))
            found.years.append((at, int(code[2])))
            found.kinds.append((at, code[3].upper()))
        elif compact and compact[1] in spec.seasons and _year(compact[2]):
            found.seasons.append((at, spec.seasons[compact[1]]))
            found.years.append((at, _year(compact[2]) or 0))
        elif is_season[n]:
            found.seasons.append((at, spec.seasons[word]))
        elif word in _PHASE_TYPE_WORDS:
            found.kinds.append((at, _PHASE_TYPE_WORDS[word]))
        elif word in _POWER_WORDS:
            found.powers.append((at, _POWER_WORDS[word]))
        elif word in _MARKER_WORDS:
            found.markers.append(_MARKER_WORDS[word])
        elif word == "results":
            found.results = True
        elif _YEAR4.fullmatch(word):
            found.years.append((at, int(word)))
        elif len(word) == 2 and word.isdigit() and (
            (n > 0 and is_season[n - 1]) or (n + 1 < len(words) and is_season[n + 1])
        ):
            found.years.append((at, 1900 + int(word)))  # "Spring 01": two digits next to a season


def _turn(spec: _Spec, found: _Found) -> tuple[str | None, int | None, str | None]:
    """(season letter + phase type, year, problem) named by the subject."""
    kinds = {kind for _, kind in found.kinds}
    years = {year for _, year in found.years}
    # A season word gives its profile's phase type unless the subject names one (001 "Spring,
    # Retreats"; 002 "Autumn" alone is the Fall retreats, 2.14).
    explicit = next(iter(kinds)) if len(kinds) == 1 else None
    seasons = {_collapse(spec, season[0] + (explicit or season[1])) for _, season in found.seasons}
    if len(seasons) > 1 or len(years) > 1 or (len(kinds) > 1 and not spec.whole_turns):
        return None, None, "The subject names more than one turn."
    season = next(iter(seasons), None)
    year = next(iter(years), None)
    if season is not None and season[1] not in _VALID_KINDS[season[0]]:
        return None, year, (f"The subject names {SEASON_NAMES[season[0]]} "
                            f"{PHASE_TYPE_NAMES[season[1]]}, which is not a turn of the game.")
    return season, year, None


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
    spec = _spec(template)
    if unknown := set(required_fields) - FIELDS:
        raise ValueError(f"unknown subject fields: {sorted(unknown)}")
    found = _scan(spec, subject, game_name)
    season, year, turn_problem = _turn(spec, found)
    powers = {power for _, power in found.powers}
    power = next(iter(powers)) if len(powers) == 1 else None

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

    current = _parse_phase(current_phase)
    if current is not None:
        current = (_collapse(spec, current[0]), current[1])
    wrong_turn = current is not None and (
        (season is not None and season != current[0]) or (year is not None and year != current[1])
    )
    if wrong_turn and current is not None:
        # 003 [10]: a reply to an adjudication "would have the wrong season in the subject line".
        problems.append(f"The subject names {_describe(spec, season, year)} "
                        f"but the game is at {_describe(spec, *current)}.")

    if spec.parts_in_order:
        # Year, season and phase form one part, the turn, in whatever order they come.
        turn_at = min((at for at, _ in found.seasons + found.years + found.kinds), default=None)
        power_at = found.powers[0][0] if found.powers else None
        parts = (found.game_at, turn_at, power_at, found.version_at)
        offsets = [at for at in parts if at is not None]
        if offsets != sorted(offsets):
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


# --- writing ---------------------------------------------------------------------------------


def _phase_code(season_kind: str, year: int) -> str:
    return f"{season_kind[0]}{year}{season_kind[1]}"


def _spell_power(spec: _Spec, power: str) -> str:
    return spec.power.format(name=power.title(), adjective=_ADJECTIVES[power], NAME=power)


def _two_digit_year(year: int) -> str:
    # Two digits are read back as 19xx (000 II(2) b "S01"); other centuries keep four.
    return f"{year % 100:02d}" if 1900 <= year <= 1999 else str(year)


def _render(spec: _Spec, game_name: str, power: str | None, phase: str | None,
            version: tuple[int, ...] | None, purpose: Purpose) -> str:
    turn = ""
    if phase is not None:
        parsed = _parse_phase(phase)
        assert parsed is not None
        season_kind, year = _collapse(spec, parsed[0]), parsed[1]
        turn = spec.turn.format(
            season=spec.spell_season.get(season_kind, ""), yy=_two_digit_year(year), year=year,
            kind=PHASE_TYPE_NAMES[season_kind[1]], code=_phase_code(season_kind, year),
        )
    if version is None and spec.version_always:
        version = (1,)
    parts = {
        "game": spec.game(game_name),
        "turn": turn,
        "power": power or "",
        # A report is not an order set: no "Orders" word and no version.
        "orders": spec.orders_word if purpose != "report" else "",
        "version": spec.version.format(v=".".join(map(str, version)))
        if version and purpose != "report" else "",
        "purpose": _PURPOSE_WORDS[purpose],
    }
    return spec.separator.join(parts[slot] for slot in spec.slots if parts[slot])


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
    `version` defaults to 1 under mhr, where it is required (000 II(2) b v)."""
    spec = _spec(template)
    if _parse_phase(phase) is None:
        raise ValueError(f"not an engine phase code: {phase!r}")
    if purpose not in _PURPOSE_WORDS:
        raise ValueError(f"unknown purpose {purpose!r}")
    spelled = None
    if power is not None:
        engine_power = _POWER_WORDS.get(power.strip().lower())
        if engine_power is None:
            raise ValueError(f"unknown power {power!r}")
        spelled = _spell_power(spec, engine_power)
    return _render(spec, game_name, spelled, phase.strip().upper(), version, purpose)
