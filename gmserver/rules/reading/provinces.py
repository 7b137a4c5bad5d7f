"""Province names per profile (003 Abbrev., 004 I(1)) and how a name is resolved (000 III(2),
001 II(2), 004 I(1) ¶1: abbreviation_policy, typo_tolerance).

A `NameTable` is built once per (map, abbreviation table, forbidden tokens) and cached. Resolving
a written name tries, in order: the player's own list (004 I(1) ¶2), forbidden tokens (003 [17]),
the profile's table, full names, the engine's variants (dropped where they would hide an
ambiguity: `NOR`, `LIV`), unique prefixes and partial names ("West Med", 004 I(1) ¶1), then typo
tolerance. A name that fits two provinces is *ambiguous* and never guessed.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gmserver.rules.geography import MapInfo, Province
from gmserver.rules.reading.foreign_names import KNOWN, names_in, plain_key

# 002 FORMAT 1 and 003 Abbrev.: the exceptions to "first three letters of the name".
EMAIL_RULES_EXCEPTIONS = {
    "ENG": "ENG", "EMS": "EAS", "GOB": "BOT", "GOL": "LYO", "LPL": "LVP", "LVN": "LVN", "NAF": "NAF",
    "NAO": "NAO", "NWG": "NWG", "NTH": "NTH", "MAO": "MAO", "TYA": "TYR", "TYS": "TYS", "WMS": "WES",
    "STP": "STP",
}
SCORPION_EXCEPTIONS = {
    "LPL": "LVP", "LVN": "LVN", "NAF": "NAF", "NWY": "NWY", "GOB": "BOT", "GOL": "LYO", "MAO": "MAO",
    "NAO": "NAO", "NTH": "NTH", "NWG": "NWG", "TYS": "TYS", "STP": "STP",
}
# Words that are grammar, never part of a multi-word name.
KEYWORDS = frozenset(
    "A F S C H D R B TO HOLD HOLDS SUPPORT SUPPORTS CONVOY CONVOYS MOVE MOVES VIA BY AND OR IF THEN "
    "UNLESS BUILD REMOVE DISBAND RETREAT ARMY FLEET INTO THE IN AT FROM WITH".split()
)
_FILLER_IN_NAMES = frozenset({"OF", "THE"})
_MAY_FOLLOW = frozenset("SEA OCEAN PLEASE THANKS NOW ASAP HOLDS HOLD MOVES SUPPORTS CONVOYS STANDS STAYS "
                        "RETREATS DISBANDS VIA BY AND OR IF UNLESS THEN OTHERWISE ARMY FLEET".split())

How = str  # "player", "table", "name", "variant", "prefix", "partial", "typo", "own_unit", "foreign" (unread)


@dataclass(frozen=True)
class Place:
    """A written place and what it resolved to. One province: resolved."""

    written: str
    provinces: tuple[str, ...]  # candidates; empty: unknown or forbidden
    coast: str | None = None  # "NC" when written
    how: How = "table"
    forbidden: bool = False
    suggestions: tuple[str, ...] = ()  # provinces close to an unknown name

    @property
    def province(self) -> str | None:
        return self.provinces[0] if len(self.provinces) == 1 and not self.forbidden else None

    @property
    def ambiguous(self) -> bool:
        return len(self.provinces) > 1

    @property
    def exact(self) -> bool:
        return self.province is not None and self.how in ("player", "table", "name", "variant")


@dataclass(frozen=True, eq=False)  # hashed by identity: one instance per cached table
class NameTable:
    table_id: str
    table: Mapping[str, frozenset[str]]  # profile list and codes (upper case, letters and spaces)
    names: Mapping[str, str]  # full names and spelled-out variants -> province
    variants: Mapping[str, str]  # engine aliases that stay unambiguous
    forbidden: frozenset[str]
    name_words: Mapping[str, tuple[tuple[str, ...], ...]]  # province -> word lists of its names
    prefix_keys: tuple[tuple[str, str], ...]  # (letters-only name, province) for prefix tests
    typo_keys: tuple[tuple[str, str], ...]  # every valid spelling (letters only) -> province
    foreign: Mapping[str, str] = field(default_factory=dict)  # province_languages' names -> province


def _letters(text: str) -> str:
    return re.sub(r"[^A-Z]", "", text.upper())


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in re.split(r"[^A-Z]+", text.upper()) if w)


def _key(text: str) -> str:
    return " ".join(_words(text))


def build_table(geography: MapInfo, table_id: str, forbidden: Iterable[str] = (),
                languages: Iterable[str] = ()) -> NameTable:
    """The name table of one profile for one map (003 Abbrev., 004 I(1)); `languages`: those of
    `province_languages` whose names are read too."""
    provinces = {code: p for code, p in geography.provinces.items()}
    full_names = _full_names(geography, provinces)
    table = _abbreviations(provinces, table_id)
    prefix_keys = tuple(sorted({(_letters(n), c) for n, c in full_names.items()}))
    variants = _variants(geography, provinces, table_id, prefix_keys, full_names, table)

    name_words: dict[str, list[tuple[str, ...]]] = {}
    for name, code in full_names.items():
        name_words.setdefault(code, []).append(_words(name))
    typo = {(_letters(k), c) for k, cs in table.items() for c in cs}
    typo |= {(_letters(k), c) for k, c in full_names.items()}
    typo |= {(_letters(k), c) for k, c in variants.items()}
    return NameTable(
        table_id=table_id,
        table={k: frozenset(v) for k, v in table.items()},
        names=full_names,
        variants=variants,
        forbidden=frozenset(_key(f) for f in forbidden),
        name_words={k: tuple(v) for k, v in name_words.items()},
        prefix_keys=prefix_keys,
        typo_keys=tuple(sorted(typo)),
        foreign={key: code for key, code in names_in(frozenset(languages)).items() if code in provinces},
    )


def _full_names(geography: MapInfo, provinces: Mapping[str, Province]) -> dict[str, str]:
    """Full province names (and the engine's longer aliases) -> province code."""
    full_names: dict[str, str] = {}
    for code, province in provinces.items():
        full_names[_key(province.name)] = code
    for alias, location in geography.aliases.items():
        if "(" in alias or "/" in alias or "\\" in alias:
            continue
        code = location.split("/")[0]
        words = _words(alias)
        if len(words) > 1 or len(words[0]) > 5:
            full_names.setdefault(_key(alias), code)
    full_names.setdefault("SAINT PETERSBURG", "STP")
    full_names.setdefault("GULF OF LYONS", "LYO")
    return full_names


def _abbreviations(provinces: Mapping[str, Province], table_id: str) -> dict[str, set[str]]:
    """The profile's list of abbreviations -> the provinces each stands for."""
    table: dict[str, set[str]] = {}
    if table_id == "standard":
        for code in provinces:
            table.setdefault(code, set()).add(code)
    else:
        exceptions = EMAIL_RULES_EXCEPTIONS if table_id == "email_rules_list" else SCORPION_EXCEPTIONS
        excepted = set(exceptions.values())
        for token, code in exceptions.items():
            if code in provinces:
                table.setdefault(token, set()).add(code)
        for code, province in provinces.items():
            if code not in excepted:
                table.setdefault(_letters(province.name)[:3], set()).add(code)
    return table


def _variants(geography: MapInfo, provinces: Mapping[str, Province], table_id: str,
              prefix_keys: tuple[tuple[str, str], ...], full_names: Mapping[str, str],
              table: Mapping[str, set[str]]) -> dict[str, str]:
    """The engine's other aliases (and, off the standard list, its codes) that no other name starts
    with. `prefix_keys`: (letters-only name, province), sorted, so the names a token starts are
    one run of it."""

    def prefix_of_other(token: str, code: str) -> bool:
        for letters, other in prefix_keys[bisect.bisect_left(prefix_keys, (token,)):]:
            if not letters.startswith(token):
                break
            if other != code:
                return True
        return token in provinces and token != code

    variants: dict[str, str] = {}
    for alias, location in geography.aliases.items():
        if "(" in alias or "/" in alias or "\\" in alias:
            continue
        code = location.split("/")[0]
        key = _key(alias)
        if not key or key in full_names or key in table:
            continue
        if not prefix_of_other(_letters(key), code):
            variants[key] = code
    if table_id != "standard":
        # engine codes stay usable where the profile's list does not give them another meaning
        for code in provinces:
            if code not in table and not prefix_of_other(code, code):
                variants.setdefault(code, code)
    return variants


_TABLES: dict[tuple[int, str, tuple[str, ...], tuple[str, ...]], tuple[MapInfo, NameTable]] = {}


def table_for(geography: MapInfo, table_id: str, forbidden: Iterable[str] = (),
              languages: Iterable[str] = ()) -> NameTable:
    """Cached `build_table` (one per map, table, forbidden list and languages)."""
    key = (id(geography), table_id, tuple(sorted(_key(f) for f in forbidden)), tuple(sorted(languages)))
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not geography:
        cached = (geography, build_table(geography, table_id, forbidden, languages))
        _TABLES[key] = cached
    return cached[1]


@dataclass(frozen=True)
class Policy:
    """The 2.3 options that govern names, taken from the ruleset once per reading."""

    abbreviation_policy: str = "any_unambiguous"
    partial_names: str = "accept"
    typo_tolerance: str = "unambiguous_only"
    player_list: tuple[tuple[str, str], ...] = ()  # (written key, location) 004 I(1) ¶2


def resolve(words: tuple[str, ...], table: NameTable, policy: Policy) -> Place | None:
    """Resolve exactly these words as one name; None if they are not a name (or a unique part)."""
    key = " ".join(words)
    for written, location in policy.player_list:
        if written == key:
            province, _, coast = location.partition("/")
            return Place(key, (province,), coast or None, "player")
    if key in table.forbidden:
        return Place(key, (), None, "forbidden", forbidden=True)
    if key in table.table:
        return Place(key, tuple(sorted(table.table[key])), None, "table")
    if key in table.names:
        return Place(key, (table.names[key],), None, "name")
    if key in table.variants:
        return Place(key, (table.variants[key],), None, "variant")
    plain = plain_key(key)
    if plain in table.foreign:
        return Place(key, (table.foreign[plain],), None, "name")
    loose = _loose(key, words, table, policy)
    known = KNOWN.get(plain)
    if known is not None and (loose is None or loose.provinces != (known[1],)):
        # "Roma" is Rome in Italian, never Rumania by a letter or a prefix: the reply names it
        return Place(key, (), None, "foreign", suggestions=(known[1],))
    return loose


_GENERIC = frozenset({"SEA", "OCEAN", "GULF", "CHANNEL", "COAST", "NORTH", "SOUTH", "EAST", "WEST"})


@functools.lru_cache(maxsize=4096)
def _loose_cached(key: str, words: tuple[str, ...], table: NameTable, policy: Policy) -> Place | None:
    found: set[str] = set()
    how = "prefix"
    if policy.abbreviation_policy == "any_unambiguous" and len(words) == 1 and len(key) >= 3:
        found = {code for letters, code in table.prefix_keys if letters.startswith(key)}
    if not found and policy.partial_names == "accept" and all(len(w) >= 2 for w in words):
        if len(words) > 1 or len(key) >= 4:
            found = {code for code, names in table.name_words.items()
                     if any(_partial(words, name) for name in names)}
            how = "partial"
        if not found and len(words) == 1 and len(key) >= 5:
            # "Atlantic": a whole later word of a name (Mid-Atlantic, North Atlantic Ocean); the
            # order's unit picks between them (verdict._choose)
            found = {code for code, names in table.name_words.items()
                     if any(key in name[1:] and key not in _GENERIC for name in names)}
    if found:
        return Place(key, tuple(sorted(found)), None, how)
    if policy.typo_tolerance != "none" and len(key) >= 3:
        close = _typo_of(words, table)
        if close:
            return Place(key, close, None, "typo")
    return None


def _typo_of(words: tuple[str, ...], table: NameTable) -> tuple[str, ...]:
    """typo_tolerance: the provinces whose spelling is nearest the words, within one edit for four
    letters or fewer, two above. One word is compared with every spelling ("Ankra": Ankara); several
    words only with names of as many words ("North See": North Sea, as "Black See" is Black Sea)."""
    letters = "".join(words)
    limit = _typo_limit(letters)
    if len(words) == 1:
        scored = [(edit_distance(letters, spelled, limit), code) for spelled, code in table.typo_keys
                  if abs(len(spelled) - len(letters)) <= limit]
    else:
        scored = [(_words_distance(words, name, limit), code) for code, names in table.name_words.items()
                  for name in names if len(name) == len(words)]
    best = min((d for d, _ in scored), default=limit + 1)
    # the nearest spelling wins: "Ankra" is one letter from Ankara, two from anything else
    return tuple(sorted({code for d, code in scored if d == best and d <= limit}))


def _typo_limit(letters: str) -> int:
    return 1 if len(letters) <= 4 else 2


def _words_distance(written: tuple[str, ...], name: tuple[str, ...], limit: int) -> int:
    """Edits from the written words to a name's words, word by word: each word a typo of its own
    ("Nth" is two letters from North, more than a short word may miss; "Norh" is one), the whole
    within `limit`."""
    total = 0
    for word, name_word in zip(written, name, strict=False):
        own = _typo_limit(word)
        distance = edit_distance(word, name_word, own)
        if distance > own:
            return limit + 1
        total += distance
        if total > limit:
            return limit + 1
    return total


def _loose(key: str, words: tuple[str, ...], table: NameTable, policy: Policy) -> Place | None:
    return _loose_cached(key, words, table, policy)


def _partial(written: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Each written word starts a name word, in order, the first one the first name word
    ("WEST MED" -> WESTERN MEDITERRANEAN, "IONIAN" -> IONIAN SEA, "GULF LYON" -> GULF OF LYON)."""
    if len(written) > len(name) or not name[0].startswith(written[0]):
        return False
    j = 1
    for word in written[1:]:
        while j < len(name) and not name[j].startswith(word):
            j += 1
        if j == len(name):
            return False
        j += 1
    return len(written) > 1 or len(name) > 1


def suggestions(key: str, table: NameTable, limit: int = 3) -> tuple[str, ...]:
    """Provinces whose spellings are closest to an unknown name (for "did you mean")."""
    letters = _letters(key)
    if len(letters) < 2:
        return ()  # one letter ("I" of "I-GRE") is close to nothing in particular
    within = 1 if len(letters) <= 3 else 2
    scored = sorted(
        (edit_distance(letters, spelled, 3), code) for spelled, code in table.typo_keys
        if abs(len(spelled) - len(letters)) <= 3
    )
    out: list[str] = []
    for score, code in scored:
        if score <= within and code not in out:
            out.append(code)
        if len(out) == limit:
            break
    return tuple(out)


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (a transposition is one edit), capped at limit + 1."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    # A letter of one word missing from the other costs an edit of its own (a transposition keeps
    # the letters), so more such letters than `limit` settle it without the table: most spellings
    # a typo is compared with fail here.
    letters_a, letters_b = set(a), set(b)
    if len(letters_a - letters_b) > limit or len(letters_b - letters_a) > limit:
        return limit + 1
    previous2: list[int] | None = None
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        best = current[0]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if previous2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        previous2, previous = previous, current
    return min(previous[-1], limit + 1)


_SEA_WORDS = frozenset({"SEA", "OCEAN"})


def _misspelt_sea_word(token: str, place: Place, table: NameTable) -> bool:
    """Whether `token` is "Sea" or "Ocean" misspelt ("See", "Ocaen") after a name that ends in it
    (one edit, as for any short word). Two letters are too few ("SA" is a support)."""
    if place.province is None or len(token) < 3 or token in _SEA_WORDS \
            or token in KEYWORDS or token in table.table or token in table.names or token in table.variants:
        return False  # a word that is itself a name ("Spa") is never a misspelt "Sea"
    return any(name[-1] in _SEA_WORDS and len(name) > 1 and edit_distance(token, name[-1], 1) <= 1
               for name in table.name_words.get(place.province, ()))


def match_place(tokens: list[str], i: int, table: NameTable, policy: Policy,
                max_words: int = 4) -> tuple[Place | None, int]:
    """The longest name starting at tokens[i], with a coast token after it; (None, i) if none.

    Keywords never join a multi-word name, so "F ION S A GRE" is not read as "Ionian Sea".
    """
    end = i
    while end < len(tokens) and end - i < max_words and tokens[end][0].isalpha():
        if end > i and tokens[end] in KEYWORDS and tokens[end] not in _FILLER_IN_NAMES:
            break
        end += 1
    for stop in range(end, i, -1):
        words = tuple(tokens[i:stop])
        if words[-1] in _FILLER_IN_NAMES:
            continue
        if stop - i > 1 and any(w in KEYWORDS for w in words[1:]) and words[0] != "ST":
            continue
        place = resolve(words, table, policy)
        if place is not None and (stop - i == 1 or place.province or place.how in ("table", "name", "foreign")):
            after = stop
            sea_typo = stop - i == 1 and after < len(tokens) and _misspelt_sea_word(tokens[after], place, table)
            if sea_typo and policy.typo_tolerance == "none":
                # "Black See" where no typo is read: refused like "North See", with the name suggested
                return Place(f"{place.written} {tokens[after]}", (), None, "unknown"), after + 1
            if stop - i == 1 and place.how in ("prefix", "partial", "typo") and after < len(tokens) \
                    and tokens[after][0].isalpha() and tokens[after] not in KEYWORDS \
                    and tokens[after] not in _MAY_FOLLOW and not sea_typo:
                # "North Pole": a loose match of the first word of an unknown name is no match
                return Place(" ".join(tokens[i:end]), (), None, "unknown"), end
            if after < len(tokens) and tokens[after] in ("SEA", "OCEAN") and stop - i == 1:
                after += 1
            elif sea_typo:
                # "Black See": the last word of the name misspelt is a typo of the whole name
                place = Place(f"{place.written} {tokens[after]}", place.provinces, None, "typo")
                after += 1
            coast = None
            if after < len(tokens) and tokens[after].startswith("/"):
                coast = tokens[after][1:]
                after += 1
            if coast:
                place = Place(place.written, place.provinces, coast, place.how, place.forbidden,
                              place.suggestions)
            return place, after
    return None, i
