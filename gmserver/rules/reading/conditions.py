"""Conditions on retreat and adjustment orders (`conditional_adjustment_orders`, 003 [5 a];
the lines themselves are contingent orders, 000 II(5), 001 II(6)).

`objective_only` (000 II(5), 001 III(10), 003 [5 a]): a condition may test only adjudicated
facts -- whether a named unit was dislodged, which centres the player owns, how many builds or
removals are due, whether a province is occupied. Lines are evaluated top to bottom; an
"otherwise" line applies when no earlier condition held; a condition that cannot be read, or that
is subjective ("If Austria attacked Italy", 003 [5 a]; other players' actions, 000 III(7)), is
false and reported.

Pure, in three steps: `split_conditional` cuts a line's tokens into clauses (condition + order),
`parse_condition` reads one condition into a `Check` (or an `Unreadable` saying why not), and
`evaluate` decides a `Check` against the `Facts` of the turn the orders are used in. `TurnFacts`
carries what that turn's position cannot show: the centres owned before the moves (for "if I gain
a centre") and the units dislodged by them (for "if dislodged" in the Winter turn).
The third step (`evaluate`, `Facts`, `TurnFacts`) is in condition_facts.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from gmserver.rules.reading.provinces import NameTable, Policy, match_place

# ------------------------------------------------------------------------------------------
# Clauses: "If <condition>: <order>", "<order> if <condition>", "Otherwise <order>"

LEADING = frozenset({"IF", "WHEN", "PROVIDED", "UNLESS", "EXCEPT"})
ELSE = frozenset({"OTHERWISE", "ELSE"})
NEGATING = frozenset({"UNLESS", "EXCEPT"})
CUTS = frozenset({",", ":", ";", "THEN"})


@dataclass(frozen=True)
class Clause:
    kind: str  # "if": the order applies when the condition holds; "otherwise"; "always": no condition
    condition: tuple[str, ...]  # the condition's tokens, without IF / UNLESS
    negated: bool  # written with UNLESS or EXCEPT
    order: tuple[str, ...]  # the order's tokens

    @property
    def written(self) -> str:
        """The condition as the player wrote it, for messages: "if i gain a centre"."""
        if self.kind == "otherwise":
            return "otherwise"
        word = "unless" if self.negated else "if"
        return " ".join((word, *self.condition)).lower().replace(" ,", ",")


def _trim(words: Sequence[str]) -> tuple[str, ...]:
    words = list(words)
    while words and words[0] in CUTS:
        words.pop(0)
    while words and words[-1] in CUTS:
        words.pop()
    return tuple(words)


def split_conditional(words: Sequence[str], starts_order: Callable[[Sequence[str]], bool]) -> list[Clause]:
    """The clauses of a line that contains a condition word (grammar.CONDITION).

    `starts_order(tokens)` says whether an order begins at the start of `tokens`; it finds the end
    of a condition written without a comma or colon ("If dislodged A Mun R Boh").
    """
    words = list(words)
    if not words:
        return []
    head = words[0]
    if head in ELSE or words[:2] == ["OR", "ELSE"] or (
            head == "IF" and words[1:2] in (["NOT"], ["NONE"]) and (len(words) == 2 or words[2] in CUTS)):
        # "Otherwise, waive" / "Else build F Bre" / "If not: remove A Mar"
        skip = 1 if head in ELSE else 2
        return [Clause("otherwise", (), False, _trim(words[skip:]))]
    if head in LEADING:
        negated = head in NEGATING
        start = 1
        if words[1:2] in (["IF"], ["THAT"]):  # "except if", "provided that"
            start = 2
        cut = next((i for i in range(start, len(words)) if words[i] in CUTS), None)
        if cut is None:
            cut = next((i for i in range(start + 1, len(words)) if starts_order(words[i:])), len(words))
            condition, rest = words[start:cut], words[cut:]
        else:
            condition, rest = words[start:cut], words[cut + 1:]
        return _with_otherwise(Clause("if", _trim(condition), negated, ()), rest)
    k = next((i for i, w in enumerate(words) if w in LEADING | ELSE), None)
    if k is None:
        return [Clause("always", (), False, _trim(words))]
    order = _trim(words[:k])
    if words[k] in ELSE:
        # "A Mun R Boh, otherwise A Mun R Sil": no condition precedes, so both are read and the
        # multiple-order rule chooses (multiple_retreat_orders; a priority list under 003 [5])
        return [Clause("always", (), False, order), Clause("otherwise", (), False, _trim(words[k + 1:]))]
    negated = words[k] in NEGATING
    start = k + 2 if words[k + 1:k + 2] in (["IF"], ["THAT"]) else k + 1
    tail = words[start:]
    e = next((i for i, w in enumerate(tail) if w in ELSE), None)
    condition = tail if e is None else tail[:e]
    clauses = [Clause("if", _trim(condition), negated, order)]
    if e is not None:
        clauses.append(Clause("otherwise", (), False, _trim(tail[e + 1:])))
    return clauses


def _with_otherwise(clause: Clause, rest: Sequence[str]) -> list[Clause]:
    """"If C: X otherwise Y" -> (C, X) and (otherwise, Y)."""
    rest = list(rest)
    e = next((i for i, w in enumerate(rest) if w in ELSE), None)
    first = Clause(clause.kind, clause.condition, clause.negated, _trim(rest if e is None else rest[:e]))
    if e is None:
        return [first]
    return [first, Clause("otherwise", (), False, _trim(rest[e + 1:]))]


# ------------------------------------------------------------------------------------------
# Conditions: the tokens of one condition -> a Check of an adjudicated fact


@dataclass(frozen=True)
class Check:
    """One objective test (`objective_only`: a fact the adjudication decided)."""

    fact: str  # dislodged, occupied, owns, gains, loses, centres, gained, lost, builds, removals
    places: tuple[str, ...] = ()  # provinces named; empty with "dislodged": the ordered unit
    any_of: bool = False  # "Bel or Hol" (else every place named)
    count: int | None = None  # a number written ("two builds"); None: "a", "any", no number
    at_least: bool = True  # False: exactly `count` ("if I have 2 builds")
    negated: bool = False


@dataclass(frozen=True)
class Unreadable:
    reason: str


WHAT_CAN_BE_TESTED = ("only adjudicated facts can be tested: a unit of yours dislodged, centres you own, gain or "
                      "lose, builds or removals due, a province occupied or empty")

_NEGATIONS = frozenset({"NOT", "NO", "NEVER", "NOR", "NEITHER", "CANNOT"})
_DISLODGED = frozenset({"DISLODGED", "DISLODGE", "DISLODGES", "RETREAT", "RETREATS", "FORCED", "OUT"})
_OCCUPIED = frozenset({"OCCUPIED", "FILLED"})
_EMPTY = frozenset({"EMPTY", "VACANT", "UNOCCUPIED", "FREE", "OPEN", "UNGUARDED"})
_NOBODY = frozenset({"NOBODY", "NOTHING", "NOONE"})
_UNIT = frozenset({"UNIT", "UNITS", "ARMY", "FLEET", "ARMIES", "FLEETS", "F"})
_CENTRE = frozenset({"CENTRE", "CENTER", "CENTRES", "CENTERS", "SC", "SCS", "DOT", "DOTS"})
_GAIN = frozenset({"GAIN", "GAINS", "GAINED", "GET", "GETS", "GOT", "TAKE", "TAKES", "TOOK", "CAPTURE", "CAPTURES",
                   "CAPTURED", "WIN", "WINS", "WON", "CONQUER", "CONQUERS", "CONQUERED", "ACQUIRE", "ACQUIRED"})
_LOSE = frozenset({"LOSE", "LOSES", "LOST"})
_OWN = frozenset({"OWN", "OWNS", "OWNED", "HOLD", "HOLDS", "HELD", "CONTROL", "CONTROLS", "CONTROLLED", "KEEP", "KEEPS",
                  "KEPT", "RETAIN", "RETAINS", "RETAINED", "POSSESS", "POSSESSES", "MINE", "OURS"})
_HAVE = frozenset({"HAVE", "HAS", "HAD"})
_BUILDS = frozenset({"BUILD", "BUILDS", "BUILDING", "BUILT"})
_REMOVALS = frozenset({"REMOVAL", "REMOVALS", "REMOVE", "REMOVES", "DISBAND", "DISBANDS", "DISBANDMENT", "DESTROY"})
_NUMBERS = {"ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9,
            "TEN": 10, "ELEVEN": 11, "TWELVE": 12, "EIGHTEEN": 18}
# "if I have a second build": the second exists when there are at least two
_ORDINALS = {"SECOND": 2, "THIRD": 3, "FOURTH": 4, "FIFTH": 5, "SIXTH": 6, "2ND": 2, "3RD": 3, "4TH": 4, "5TH": 5}
_AT_LEAST = frozenset({"LEAST", "MORE", "MINIMUM"})  # "at least two", "two or more"
_EXACT = frozenset({"ONLY", "EXACTLY", "JUST"})
_ARTICLES = frozenset({"A", "AN", "ANY", "SOME"})
_LISTS = frozenset({"AND", "OR", ",", "&", "BOTH", "EITHER"})
_FILLERS = frozenset(
    "I WE ME MY OUR IT ITS THE IS ARE WAS WERE BE BEEN BEING AM DO DOES DID CA WO WILL WOULD SHALL SHOULD "
    "STILL THERE IN AT OF ON TO MUST CAN MAY MIGHT NEED NEEDS THAT THIS THESE AFTER TURN YEAR SEASON FALL "
    "AUTUMN SPRING WINTER NOW ALSO UP SUPPLY THAN ALL PROVINCE PROVINCES SPACE IN INTO ANYMORE ANY".split()
)


@dataclass
class _Words:
    """What a condition's words have said so far, read left to right."""

    negations: int
    facts: set[str] = field(default_factory=set)
    verbs: set[str] = field(default_factory=set)
    more_than: bool = False
    places: list[str] = field(default_factory=list)
    any_of: bool = False
    count: int | None = None
    at_least: bool | None = None
    saw_unit: bool = False
    saw_centre: bool = False


def parse_condition(tokens: Sequence[str], *, table: NameTable, policy: Policy, powers: Mapping[str, str],
                    power: str, negated: bool = False) -> Check | Unreadable:
    """Read one condition. Strict on purpose: every word must belong to one of the tests, so a
    subjective condition never passes for an objective one by accident (003 [5 a])."""
    tokens = [t for t in tokens if t not in ("(", ")", "?", "!", "-")]
    if not tokens:
        return Unreadable("the condition is empty")
    words = _Words(negations=1 if negated else 0)
    i = 0
    while i < len(tokens):
        w = tokens[i]
        if w in powers:
            if powers[w] != power:
                return Unreadable(f"it is about {powers[w].title()}, and {WHAT_CAN_BE_TESTED}")
        elif _test_word(w, words):
            pass
        elif w == "MORE" and tokens[i + 1:i + 2] == ["THAN"]:
            words.more_than = True
            i += 1
        elif _quantity_word(w, words):
            pass
        else:
            place, after = match_place(list(tokens), i, table, policy)
            if place is None or not place.provinces or place.forbidden:
                return Unreadable(f"'{w.lower()}' is not something I can test; {WHAT_CAN_BE_TESTED}")
            if place.province is None:
                return Unreadable(f"'{place.written.lower()}' could be several provinces")
            words.places.append(place.province)
            i = after
            continue
        i += 1
    return _check(words)


def _test_word(w: str, words: _Words) -> bool:
    """Notes a word that names a test, a verb or a number; False if `w` is none of them."""
    if w in _NEGATIONS:
        words.negations += 1
    elif w in _DISLODGED:
        words.facts.add("dislodged")
    elif w in _OCCUPIED:
        words.facts.add("occupied")
    elif w in _EMPTY:
        words.facts.add("occupied")
        words.negations += 1
    elif w in _NOBODY:
        words.saw_unit = True
        words.negations += 1
    elif w in _UNIT:
        words.saw_unit = True
    elif w in _CENTRE:
        words.saw_centre = True
    elif w in _BUILDS:
        words.facts.add("builds")
    elif w in _REMOVALS:
        words.facts.add("removals")
    elif w in _GAIN:
        words.verbs.add("gain")
    elif w in _LOSE:
        words.verbs.add("lose")
    elif w in _HAVE:
        words.verbs.add("have")  # "if I have Bel", but also "if I have gained a centre"
    elif w in _OWN:
        words.verbs.add("own")
    elif w.isdigit():
        words.count = int(w)
    elif w in _NUMBERS:
        words.count = _NUMBERS[w]
    elif w in _ORDINALS:
        words.count, words.at_least = _ORDINALS[w], True
    else:
        return False
    return True


def _quantity_word(w: str, words: _Words) -> bool:
    """Notes "at least", "exactly", "or" and the words that say nothing; False for any other word."""
    if w in _AT_LEAST:
        words.at_least = True
    elif w in _EXACT:
        words.at_least = False
    elif w in _LISTS:
        words.any_of = words.any_of or w in ("OR", "EITHER")
    elif w in _ARTICLES or w in _FILLERS:
        pass
    else:
        return False
    return True


def _check(words: _Words) -> Check | Unreadable:
    """The one test the words make, or why they make none (or several)."""
    negated = words.negations % 2 == 1
    count, at_least, places, facts = words.count, words.at_least, words.places, words.facts
    if words.more_than and count is not None:
        count, at_least = count + 1, True
    strong = words.verbs - {"have"}
    if len(strong) > 1:
        return Unreadable(f"{' and '.join(sorted(strong))} in one condition; write one test per line")
    verb = next(iter(strong), "own" if words.verbs else None)
    if len(facts) > 1:
        return Unreadable("several tests in one condition; write one test per line")
    common = {"places": tuple(dict.fromkeys(places)), "any_of": words.any_of, "negated": negated}
    counted = {"count": count, "at_least": at_least if at_least is not None else count is None, "negated": negated}
    if facts == {"dislodged"}:
        return Check("dislodged", **common)
    if facts == {"occupied"} or (not facts and words.saw_unit and verb is None and places):
        if not places:
            return Unreadable("it does not say which province")
        return Check("occupied", **common)
    if facts & {"builds", "removals"}:
        if places:
            return Unreadable("builds and removals are tested by number only ('if I have two builds')")
        return Check(next(iter(facts)), **counted)
    if words.saw_unit:
        return Unreadable(f"a test of units is not one I can make; {WHAT_CAN_BE_TESTED}")
    if words.saw_centre and not places:
        fact = {"gain": "gained", "lose": "lost"}.get(verb or "own", "centres")
        return Check(fact, **counted)
    if places and verb is not None:
        return Check({"gain": "gains", "lose": "loses", "own": "owns"}[verb], **common)
    if places:
        return Unreadable(f"it names {', '.join(places)} but not what to test about it; {WHAT_CAN_BE_TESTED}")
    return Unreadable(f"nothing in it I can test; {WHAT_CAN_BE_TESTED}")
