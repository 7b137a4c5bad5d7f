"""The subject templates (2.1 `subject_template` and its kin): each a `TemplateSpec` of data, its season
vocabulary (2.14's second table), how it spells each part and the order of the parts, and the word
tables the reading and the writing of subjects share (see subject.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from gmserver.rules.geography import POWERS

Purpose = Literal["orders", "confirmation", "rejection", "reminder", "report", "proposal"]
Marker = Literal["final", "preliminary"]

FIELDS = frozenset({"game", "year", "season", "phase", "power", "version"})  # 2.1

ADJECTIVES = MappingProxyType(dict(zip(
    POWERS, ("Austrian", "English", "French", "German", "Italian", "Russian", "Turkish"), strict=True)))

# Every word read as a power: names, adjectives, and the short forms 003 [9] reserves for the
# players ("A-H" is left out: its "A" and "H" are ordinary letters in a subject).
POWER_WORDS = MappingProxyType({
    **{power.lower(): power for power in POWERS},
    **{adjective.lower(): power for power, adjective in ADJECTIVES.items()},
    "aus": "AUSTRIA", "aut": "AUSTRIA", "eng": "ENGLAND", "gb": "ENGLAND", "uk": "ENGLAND",
    "fra": "FRANCE", "ger": "GERMANY", "ita": "ITALY", "rus": "RUSSIA", "tur": "TURKEY",
})

# Phase-type words, understood in every profile: 001 II(4) names Movement, Retreat(s),
# Adjustment(s) or Build(s); 002 ORDERS 4 speaks of "winter removals".
PHASE_TYPE_WORDS = MappingProxyType({
    "movement": "M", "moves": "M", "move": "M",
    "retreat": "R", "retreats": "R",
    "adjustment": "A", "adjustments": "A", "build": "A", "builds": "A",
    "removal": "A", "removals": "A",
})

# 2.4: "Final" (000 II(1)) and "Preliminary" (001 II(3)) are understood in every profile;
# "provisional" is 003 [11]'s word.
MARKER_WORDS: Mapping[str, Marker] = MappingProxyType({
    "final": "final", "preliminary": "preliminary", "prelim": "preliminary",
    "provisional": "preliminary",
})

PURPOSE_WORDS: Mapping[str, str] = MappingProxyType({
    "orders": "", "confirmation": "confirmation", "rejection": "not accepted",
    "reminder": "reminder", "report": "results",  # "results": 2.14's last paragraph
    "proposal": "proposal",  # a proposal to vote on (services/features/votes.announce_proposal): no order set
})
# the purposes of mail that is no order set: no "Orders" word and no version in their subjects
NOT_ORDER_SETS = frozenset({"report", "proposal"})

VALID_KINDS = MappingProxyType({"S": "MR", "F": "MR", "W": "A"})  # season letter -> phase types


@dataclass(frozen=True)
class TemplateSpec:
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


def dc_parts(game_name: str) -> tuple[str | None, str]:
    """"Dc179 [BlackMarch]" -> ("179", "BlackMarch"); a name without "Dc<n>" -> (None, name)."""
    match = _DC.search(game_name)
    if not match:
        return None, game_name.strip()
    rest = re.sub(r"[\[\]()]", " ", game_name[: match.start()] + " " + game_name[match.end():])
    return match.group(1), " ".join(rest.split()).strip(" -:;,")


def _mhr_game(game_name: str) -> str:
    # 000 II(2) b: "Dc" and the number and/or the name in square brackets.
    number, name = dc_parts(game_name)
    return " ".join(([f"Dc{number}"] if number else []) + ([f"[{name}]"] if name else []))


_GAME_TURN_POWER = ("game", "turn", "power", "orders", "version", "purpose")
_GAME_POWER_TURN = ("game", "power", "turn", "orders", "version", "purpose")

_SPECS: Mapping[str, TemplateSpec] = MappingProxyType({
    # 000 II(2) b: "Dc179 [BlackMarch] S01: English Orders [1]"; seasons per 000 VII(2) and [P] A.
    "mhr": TemplateSpec(
        template="Dc<number> [<game name>] <season><yy>: <power adjective> Orders [<version>]",
        seasons=_frozen(s="SM", spring="SM", su="SR", summer="SR", f="FM", fall="FM",
                        a="FR", autumn="FR", w="WA", winter="WA"),
        spell_season=_frozen(SM="S", SR="Su", FM="F", FR="A", WA="W"),
        turn="{season}{yy}:", power="{adjective}", version="[{v}]",
        slots=_GAME_TURN_POWER, separator=" ", orders_word="Orders", game=_mhr_game,
        version_always=True, dc_numbers=True,
    ),
    # 001 II(4): "Game Name; Turn Year, season, phase; Country name"; sequence marker II(7) ¶1.
    "danivon": TemplateSpec(
        template="<Game Name>; <Year>, <Season>, <Phase>; <Country name>",
        seasons=_frozen(spring="SM", fall="FM", autumn="FM", winter="WA"),
        spell_season=_frozen(SM="Spring", SR="Spring", FM="Fall", FR="Fall", WA="Winter"),
        turn="{year}, {season}, {kind}", power="{name}", version="v{v}",
        slots=_GAME_TURN_POWER, separator="; ", parts_in_order=True,
    ),
    # 002 is silent [P]; "autumn retreats" and "winter removals" (ORDERS 4), "Fall" (DRAWS 3).
    "email_rules": TemplateSpec(
        template="<game> [<power>] [#<n>]",
        seasons=_frozen(spring="SM", summer="SR", fall="FM", autumn="FR", winter="WA"),
        spell_season=_frozen(SM="Spring", SR="Summer", FM="Fall", FR="Autumn", WA="Winter"),
        turn="{season} {year}", power="{name}", version="#{v}",
        slots=_GAME_POWER_TURN, separator=" ",
        orders_word="orders",
    ),
    # 003 [10]: "DARK SIDE - RUSSIA - s1901"; a = Autumn per [5], f and full words [P].
    "scorpion": TemplateSpec(
        template="<GAME NAME> - <COUNTRY> - <season letter><yyyy>",
        seasons=_frozen(s="SM", spring="SM", a="FM", autumn="FM", f="FM", fall="FM"),
        spell_season=_frozen(SM="s", FM="a"),
        turn="{season}{year}", power="{NAME}", version="#{v}",
        slots=_GAME_POWER_TURN, separator=" - ",
        game=lambda name: name.strip().upper(), whole_turns=True,
    ),
    # Default and gwm (silent) [P]: "lepanto France S1901M".
    "standard": TemplateSpec(
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


def template_spec(template: str) -> TemplateSpec:
    spec = _SPECS.get(_ALIASES.get(template, template))
    if spec is None:
        raise ValueError(f"unknown subject template {template!r}; known: {sorted(TEMPLATES)}")
    return spec
