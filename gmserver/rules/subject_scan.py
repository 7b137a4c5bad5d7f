"""Reading a subject's words (steps 1-4 of subject.py): normalise, strip prefixes and list tags, find
and mask the game name and the version marker, classify each remaining word, settle the turn."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from gmserver.rules.position import PHASE_TYPE_NAMES, SEASON_NAMES
from gmserver.rules.subject_templates import (
    MARKER_WORDS,
    PHASE_TYPE_WORDS,
    POWER_WORDS,
    VALID_KINDS,
    Marker,
    TemplateSpec,
    dc_parts,
)

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
_SHORT_CODE = re.compile(r"([sfw])(\d{2})([mra])")  # "S02R": an engine code with 000 II(2) b's two-digit year
_COMPACT = re.compile(r"([a-z]+)(\d{2}|\d{4})")
_YEAR4 = re.compile(r"(?:1[89]|2\d)\d\d")

_Word = tuple[int, str]  # (offset in the normalised text, lower-case word)


def _normalise(text: str) -> str:
    # NFKD turns full-width and accented letters into ASCII plus marks; the marks are dropped,
    # so "Café" and "Cafe" are the same game. Offsets are taken in this text only. ASCII text
    # (most subjects) is its own NFKD form and holds no mark: it is returned as it is, without
    # a generator step for each character.
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _words(text: str) -> list[_Word]:
    return [(m.start(), m.group().lower()) for m in _WORD.finditer(text)]


def name_words(text: str) -> list[str]:
    """The words of a subject or a game name as every matcher compares them: accents dropped
    ("Café" is "cafe"), lower case, split at anything but ASCII letters and digits. One function,
    so that the quick look for the games a subject may name (services.inbox.runner) and the exact
    reading here never disagree about a word."""
    return [word for _, word in _words(_normalise(text))]


def _key(text: str) -> str:
    """What game names are compared by: words joined, case, spaces and punctuation ignored."""
    return "".join(name_words(text))


def _game_keys(spec: TemplateSpec, game_name: str) -> frozenset[str]:
    keys = {_key(game_name)}
    if spec.dc_numbers:
        number, name = dc_parts(_normalise(game_name))
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


def collapse_turn(spec: TemplateSpec, season_kind: str) -> str:
    """Under scorpion a season names the whole turn (003 [5]): its movement phase."""
    if not spec.whole_turns:
        return season_kind
    return "SM" if season_kind[0] == "S" else "FM"


def parse_phase(phase: str) -> tuple[str, int] | None:
    """"F1901R" -> ("FR", 1901); None if not an engine phase code."""
    match = _CODE.fullmatch(phase.strip().lower())
    if not match or match[3].upper() not in VALID_KINDS[match[1].upper()]:
        return None
    return match[1].upper() + match[3].upper(), int(match[2])


def _year(digits: str) -> int | None:
    if len(digits) == 2:
        return 1900 + int(digits)  # 000 II(2) b "S01": two digits mean 19xx
    return int(digits) if _YEAR4.fullmatch(digits) else None


def describe_turn(spec: TemplateSpec, season_kind: str | None, year: int | None) -> str:
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
class Found:
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


def scan_subject(spec: TemplateSpec, subject: str, game_name: str) -> Found:
    """Steps 1 to 4 of the module docstring."""
    keys = _game_keys(spec, game_name)
    text = _strip_prefixes(_normalise(subject), keys)
    found = Found()

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


def _classify(spec: TemplateSpec, words: list[_Word], found: Found) -> None:
    is_season = [len(w) > 1 and w in spec.seasons for _, w in words]
    for n, (at, word) in enumerate(words):
        code, compact = _CODE.fullmatch(word) or _SHORT_CODE.fullmatch(word), _COMPACT.fullmatch(word)
        if code and code[3].upper() in VALID_KINDS[code[1].upper()]:
            # Engine codes are understood under every template [P]: they cannot mean anything else.
            found.seasons.append((at, (code[1] + code[3]).upper()))
            found.years.append((at, int(code[2]) if len(code[2]) == 4 else 1900 + int(code[2])))
            found.kinds.append((at, code[3].upper()))
        elif compact and compact[1] in spec.seasons and _year(compact[2]):
            found.seasons.append((at, spec.seasons[compact[1]]))
            found.years.append((at, _year(compact[2]) or 0))
        elif is_season[n]:
            found.seasons.append((at, spec.seasons[word]))
        elif word in PHASE_TYPE_WORDS:
            found.kinds.append((at, PHASE_TYPE_WORDS[word]))
        elif word in POWER_WORDS:
            found.powers.append((at, POWER_WORDS[word]))
        elif word in MARKER_WORDS:
            found.markers.append(MARKER_WORDS[word])
        elif word == "results":
            found.results = True
        elif _YEAR4.fullmatch(word):
            found.years.append((at, int(word)))
        elif len(word) == 2 and word.isdigit() and (
            (n > 0 and is_season[n - 1]) or (n + 1 < len(words) and is_season[n + 1])
        ):
            found.years.append((at, 1900 + int(word)))  # "Spring 01": two digits next to a season


def settle_turn(spec: TemplateSpec, found: Found) -> tuple[str | None, int | None, str | None]:
    """(season letter + phase type, year, problem) named by the subject."""
    kinds = {kind for _, kind in found.kinds}
    years = {year for _, year in found.years}
    # A season word gives its profile's phase type unless the subject names one (001 "Spring,
    # Retreats"; 002 "Autumn" alone is the Fall retreats, 2.14).
    explicit = next(iter(kinds)) if len(kinds) == 1 else None
    seasons = {collapse_turn(spec, season[0] + (explicit or season[1])) for _, season in found.seasons}
    if len(seasons) > 1 or len(years) > 1 or (len(kinds) > 1 and not spec.whole_turns):
        return None, None, "The subject names more than one turn."
    season = next(iter(seasons), None)
    year = next(iter(years), None)
    if season is not None and season[1] not in VALID_KINDS[season[0]]:
        return None, year, (f"The subject names {SEASON_NAMES[season[0]]} "
                            f"{PHASE_TYPE_NAMES[season[1]]}, which is not a turn of the game.")
    return season, year, None
