"""Order grammar: the tokens of one line -> zero or more `Parsed` orders, syntax only.

Nothing here looks at the position. A `Parsed` order keeps what was written (unit type or not,
nationality or not, each place as resolved by the name table) so that the interpretation policy
can apply the profile's rules to omissions and mistakes. The grammar accepts the forms players
use: engine notation, `A Par-Bur`, `army paris moves to burgundy`, `F ENG S GERMAN F NTH -> Bel`,
`F NTH C A Lon - Bel`, `A Lon - Nwy via convoy`, `A Lon - NTH - Nwy` (route), `Build F StP/NC`,
`Remove F Tri`, `F Tri disband`, `Waive`, several orders on one line, combined orders
(002 FORMAT 10: `F MAO and A Gas S A Par - Bre`), parenthesised orders (002 FORMAT 6) and
conditions (000 III(7): `A Par - Gas unless German A Mun - Bur, in which case A Par - Bur`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from gmserver.rules.reading.provinces import KEYWORDS, NameTable, Place, Policy, match_place

HOLD = frozenset("H HOLD HOLDS HOLDING STAND STANDS STAY STAYS STANDING".split())
MOVE = frozenset("- TO MOVE MOVES MOVING M GO GOES INTO ATTACK ATTACKS ENTER ENTERS ADVANCE ADVANCES "
                 "MARCH MARCHES SAIL SAILS INVADE INVADES HEAD HEADS".split())
SUPPORT = frozenset("S SUP SUPP SUPPORT SUPPORTS SUPPORTING SUPPORTED SA SH SUPORT SUPORTS".split())
CONVOY = frozenset("C CONVOY CONVOYS CONVOYING CA CONV CONVOI".split())
RETREAT = frozenset("R RETREAT RETREATS RETREATING".split())
DISBAND = frozenset("D DISBAND DISBANDS DISBANDED REMOVE REMOVES REMOVED REMOVAL DESTROY DESTROYS "
                    "DELETE".split())
BUILD = frozenset("B BUILD BUILDS BUILT".split())
WAIVE = frozenset("WAIVE WAIVES WAIVED WAIVER".split())
ARMY = frozenset("A ARMY ARMIES ARMEE".split())
FLEET = frozenset("F FLEET FLEETS FLOTTE".split())
FILLERS = frozenset("THE MY OUR IN AT ON UNIT WILL SHALL SHOULD PLEASE TO FROM".split())
CONDITION = frozenset("IF UNLESS OTHERWISE EXCEPT PROVIDED WHEN ELSE".split())
POLITE = frozenset("PLEASE THANKS THANK YOU NOW ASAP".split())
SEPARATORS = frozenset({",", ";", "AND", "&", "THEN", ":", "ALSO", "PLUS"})
PREFIX_VERBS = BUILD | DISBAND | RETREAT | WAIVE | frozenset({"MOVE", "HOLD", "SUPPORT", "CONVOY"})
# Verbs of movement written as words ("goes", "sails"): followed by no place they are prose, not a
# move ("Fleet Barents Sea goes fishing" is a misorder not implying movement, 003 [10 b]).
WORD_MOVES = MOVE - frozenset({"-", "TO", "INTO", "MOVE", "MOVES", "MOVING", "M"})
AUXILIARIES = frozenset({"IS", "ORDERED", "WILL", "SHALL", "SHOULD"})

Kind = str  # hold move support convoy retreat disband build waive nonsense


@dataclass(frozen=True)
class UnitRef:
    type: str | None  # "A" / "F" as written
    power: str | None  # nationality as written
    place: Place
    strong: bool = True  # written with a unit type or an exact name (not a guess)


@dataclass(frozen=True)
class Parsed:
    kind: Kind | None  # None: a unit was named but no action followed (a combined order's head)
    unit: UnitRef | None
    dest: Place | None = None  # move, retreat; support-move and convoy destination
    target: UnitRef | None = None  # supported or convoyed unit
    via: bool = False
    route: tuple[Place, ...] = ()
    extra: tuple[str, ...] = ()  # words left over
    error: str | None = None  # why the syntax is not an order
    parenthetical: bool = False
    combined: bool = False
    conditional: str | None = None  # the condition dropped (000 III(7)), as written
    count: int = 1  # "waive 2"

    @property
    def complete(self) -> bool:
        return self.kind is not None and self.error is None


@dataclass
class _Cursor:
    tokens: list[str]
    table: NameTable
    policy: Policy
    powers: dict[str, str]
    i: int = 0
    notes: list[str] = field(default_factory=list)

    def peek(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def at_end(self) -> bool:
        return self.i >= len(self.tokens)

    def take(self) -> str:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def skip(self, words: frozenset[str]) -> None:
        while self.peek() in words:
            self.i += 1

# Word sets the grammar skips or tests, built once here rather than at every token it reads.
UNIT_WORDS = ARMY | FLEET
_POSSESSIVES = frozenset({"THE", "MY", "OUR", "YOUR"})
_UNIT_NOUNS = UNIT_WORDS - {"A", "F"}
_BEFORE_UNIT_PLACE = frozenset({"IN", "AT", "OF", "FROM", "THE"})
_IN_AT = frozenset({"IN", "AT"})
_SUPPORT_OR_CONVOY = SUPPORT | CONVOY
_TURN_ACTIONS = MOVE | HOLD | SUPPORT | CONVOY
_UNIT_ACTIONS = _TURN_ACTIONS | RETREAT | DISBAND
_ACTIONS_BUT_WAIVE = _UNIT_ACTIONS | BUILD
_BEFORE_DESTINATION = frozenset({"TO", "INTO", "THE", "IN", "ON", "-"})
_CONVOY_FILLER = frozenset({"A", "CONVOY", "CONVOYS", "SEA", "C", "CONVOYED"})
_CONVOY_LIST_JOINERS = frozenset({",", "AND", "&", "-"})
_THE_TO = frozenset({"THE", "TO"})
_THE = frozenset({"THE"})
_STARTING_VERBS = PREFIX_VERBS - {"HOLD", "SUPPORT", "CONVOY"}
_POLITE_OPENERS = frozenset({"PLEASE", "I", "ORDER", "ORDERS"})
_BUILD_OPENERS = frozenset({"BUILD", "BUILDS", "ONE", "A", "THE"})
_BEFORE_NEW_UNIT = frozenset({"NEW", "THE", "MY", "AN"})
_SEPARATORS_OR_DASH = SEPARATORS | frozenset({"-"})
_NOTHING: frozenset[str] = frozenset()


def _power_word(token: str | None, powers: dict[str, str]) -> str | None:
    if token is None:
        return None
    return powers.get(token)


def _unit_ref(c: _Cursor, require_strong: bool = False) -> UnitRef | None:
    start = c.i
    c.skip(_POSSESSIVES)
    power = _power_word(c.peek(), c.powers)
    if power is not None:
        c.take()
    kind: str | None = None
    if c.peek() in ("A", "AN") and c.peek(1) in _UNIT_NOUNS:
        c.take()  # "build a fleet in Kiel": the article
    if c.peek() in ARMY:
        kind = "A"
    elif c.peek() in FLEET:
        kind = "F"
    if kind is not None:
        # "A" is also an article: only a unit type when a place follows
        c.take()
        c.skip(_BEFORE_UNIT_PLACE)
        place, after = match_place(c.tokens, c.i, c.table, c.policy)
        if place is None:
            # "A Bu - Ser", "F Ki - Den": the same fragment with the unit type written
            fragment = _fragment(c)
            if fragment is None:
                c.i = start
                return None
            return UnitRef(kind, power, fragment, strong=False)
        c.i = after
        return UnitRef(kind, power, place, strong=True)
    c.skip(_IN_AT)
    place, after = match_place(c.tokens, c.i, c.table, c.policy)
    if place is None:
        fragment = _fragment(c)
        if fragment is None:
            c.i = start
            return None
        return UnitRef(None, power, fragment, strong=False)
    strong = place.exact or power is not None
    if require_strong and not strong:
        c.i = start
        return None
    c.i = after
    return UnitRef(None, power, place, strong=strong)


def _fragment(c: _Cursor) -> Place | None:
    """"I-GRE" (002 FORMAT 7), "Bu - Ser", "Bu S A Ser", "A Bu H": up to three letters that name no
    province, then an order -- a fragment standing for one of the player's units, resolved by
    units._own_unit (unit_location_matching). Taken from the cursor when found. Two letters are too
    short for a prefix or a typo (provinces.py needs three), so without this such a line was no
    order at all."""
    token = c.peek()
    if token is None or not token.isalpha() or len(token) > 3 or token in KEYWORDS or not _fragment_order_follows(c):
        return None
    c.take()
    return Place(token, (), None, "unknown")


def _fragment_order_follows(c: _Cursor) -> bool:
    """After the fragment: a move to a place ("Bu - Ser"), a support or convoy of a unit
    ("Bu S A Ser - Rum"), or a hold that ends the order ("A Bu H")."""
    action, after = c.peek(1), c.peek(2)
    if action == "-" or action in _SUPPORT_OR_CONVOY:
        if after is None:
            return False
        if action in _SUPPORT_OR_CONVOY and (after in UNIT_WORDS or _power_word(after, c.powers)):
            return True
        return match_place(c.tokens, c.i + 2, c.table, c.policy)[0] is not None
    return action in HOLD and (after is None or after in SEPARATORS | POLITE)


def _destination(c: _Cursor) -> Place | None:
    c.skip(_BEFORE_DESTINATION)
    place, after = match_place(c.tokens, c.i, c.table, c.policy)
    if place is None:
        if c.peek() is not None and c.peek()[0].isalpha() and c.peek() not in KEYWORDS:
            # an unknown name: keep the words up to the next keyword for the message
            words = []
            while c.peek() is not None and c.peek()[0].isalpha() and c.peek() not in KEYWORDS \
                    and c.peek() not in CONDITION and len(words) < 4:
                words.append(c.take())
            return Place(" ".join(words), (), None, "unknown")
        return None
    c.i = after
    return place


def _move_tail(c: _Cursor) -> tuple[bool, tuple[Place, ...], Place | None]:
    """After `X - Y`: a route `- Z - W` and `via convoy` / `by convoy` / `via NTH`."""
    via = False
    route: list[Place] = []
    dest: Place | None = None
    while c.peek() == "-":
        saved = c.i
        c.take()
        place, after = match_place(c.tokens, c.i, c.table, c.policy)
        if place is None:
            c.i = saved
            break
        route.append(place)
        c.i = after
    if route:
        dest = route.pop()
        via = True
    if c.peek() == "(" and c.peek(1) in ("VIA", "BY"):
        c.take()
    if c.peek() in ("VIA", "BY") or (c.peek() == "USING" and c.peek(1) in ("CONVOY", "A")):
        c.take()
        if c.peek() in ("CONVOY", "CONVOYS", "SEA", "C", "CONVOYED", "A"):
            c.skip(_CONVOY_FILLER)
            via = True
        else:
            while True:
                place, after = match_place(c.tokens, c.i, c.table, c.policy)
                if place is None:
                    break
                route.append(place)
                c.i = after
                c.skip(_CONVOY_LIST_JOINERS)
            via = True
    elif c.peek() in ("CONVOYED", "CONVOY"):
        c.take()
        via = True
    if c.peek() == ")":
        c.take()
    return via, tuple(route), dest


def _skip_auxiliaries(c: _Cursor) -> None:
    """"Fleet Barents Sea ordered to move to Tahiti" (003 [10 b]), "A Par will move to Bur": the
    auxiliary words are skipped only when an order's verb follows them."""
    if c.peek() in AUXILIARIES:
        start = c.i
        c.skip(AUXILIARIES)
        if c.peek() == "TO" and c.peek(1) in _TURN_ACTIONS:
            c.take()
        if c.peek() not in _UNIT_ACTIONS:
            c.i = start


def _action(c: _Cursor, unit: UnitRef, verb: str | None) -> Parsed:
    _skip_auxiliaries(c)
    token = c.peek()
    if verb in BUILD:
        return Parsed("build", unit)
    if verb in DISBAND:
        return Parsed("disband", unit)
    if verb in WAIVE:
        return Parsed("waive", None)
    if verb in RETREAT or (verb is None and token in RETREAT):
        if verb is None:
            c.take()
        dest = _destination(c)
        if dest is None:
            return Parsed("retreat", unit, error="no destination given for the retreat")
        return Parsed("retreat", unit, dest=dest)
    if verb == "HOLD":
        return Parsed("hold", unit)
    if token is None:
        if verb == "MOVE":
            return Parsed("move", unit, error="no destination given for the move")
        return Parsed(None, unit)
    if token in HOLD:
        c.take()
        return Parsed("hold", unit)
    if token in SUPPORT:
        c.take()
        return _support(c, unit)
    if token in CONVOY:
        c.take()
        return _convoy(c, unit)
    if token in DISBAND:
        c.take()
        return Parsed("disband", unit)
    if token in BUILD:
        c.take()
        return Parsed("build", unit)
    if token == "-" and c.peek(1) in HOLD and (c.peek(2) is None or c.peek(2) in SEPARATORS | POLITE):
        # "A LON-H" (002 Q&A 5): the judges' hold
        c.i += 2
        return Parsed("hold", unit)
    if token in WORD_MOVES and c.peek(1) not in ("TO", "INTO") \
            and match_place(c.tokens, c.i + 1, c.table, c.policy)[0] is None:
        # "goes fishing": a verb of movement and no place -- prose, not a move
        return Parsed(None, unit)
    if token in MOVE or verb == "MOVE":
        return _move(c, unit, token)
    return Parsed(None, unit)


def _support(c: _Cursor, unit: UnitRef) -> Parsed:
    """What follows "S": the supported unit, then its hold or its move."""
    c.skip(_THE_TO)
    target = _unit_ref(c)
    if target is None:
        return Parsed("support", unit, error="the supported unit is not a unit I can read")
    if c.peek() in HOLD:
        c.take()
        return Parsed("support", unit, target=target)
    if c.peek() in MOVE:
        c.take()
        dest = _destination(c)
        if dest is None:
            return Parsed("support", unit, target=target, error="the supported move has no destination")
        _move_tail(c)
        return Parsed("support", unit, target=target, dest=dest)
    return Parsed("support", unit, target=target)


def _convoy(c: _Cursor, unit: UnitRef) -> Parsed:
    """What follows "C": the convoyed army and its destination."""
    c.skip(_THE)
    target = _unit_ref(c)
    if target is None:
        return Parsed("convoy", unit, error="the convoyed army is not a unit I can read")
    if c.peek() in MOVE:
        c.take()
        dest = _destination(c)
        if dest is not None:
            return Parsed("convoy", unit, target=target, dest=dest)
    return Parsed("convoy", unit, target=target, error="a convoy order needs the army's destination")


def _move(c: _Cursor, unit: UnitRef, token: str | None) -> Parsed:
    """A move, its verb written (`token`, not yet taken) or not: the destination, then a convoy
    route ("via") or a chained move."""
    if token in MOVE:
        c.take()
        if token in ("MOVE", "MOVES", "GO", "GOES", "HEAD", "HEADS") and c.peek() in ("TO", "INTO"):
            c.take()
    dest = _destination(c)
    if dest is None:
        return Parsed("move", unit, error="no destination given for the move")
    via, route, chained = _move_tail(c)
    if chained is not None:
        route = (dest,) + route
        dest = chained
    return Parsed("move", unit, dest=dest, via=via, route=route)


def _starts_order(c: _Cursor) -> bool:
    token = c.peek()
    if token is None:
        return False
    if token in _STARTING_VERBS or token in UNIT_WORDS:
        return True
    if _power_word(token, c.powers) and c.peek(1) in UNIT_WORDS:
        return True
    place, after = match_place(c.tokens, c.i, c.table, c.policy)
    if place is not None and after < len(c.tokens):
        nxt = c.tokens[after]
        return nxt in _ACTIONS_BUT_WAIVE
    return False


def _one(c: _Cursor, inherited_verb: str | None) -> Parsed | None:
    """One order at the cursor, or None when nothing order-like starts here."""
    start = c.i
    c.skip(_POLITE_OPENERS if c.peek(1) not in MOVE else _NOTHING)
    verb: str | None = None
    if c.peek() in PREFIX_VERBS:
        verb = c.take()
        if verb in WAIVE or (verb in BUILD and c.peek() in ("NOTHING", "NONE")):
            if verb in BUILD:
                c.take()
            count = 1
            if c.peek() is not None and c.peek().isdigit() and 0 < int(c.peek().split(".")[0]) < 10:
                count = int(c.take().split(".")[0])
            c.skip(_BUILD_OPENERS)
            return Parsed("waive", None, count=count)
        c.skip(_BEFORE_NEW_UNIT)
    elif inherited_verb is not None:
        verb = inherited_verb
    if verb is None and c.peek() == "NO" and c.peek(1) in BUILD:
        c.i += 2
        return Parsed("waive", None)
    unit = _unit_ref(c)
    if unit is None:
        c.i = start
        return None
    parsed = _action(c, unit, verb)
    if verb in ("SUPPORT", "CONVOY") and parsed.kind not in ("support", "convoy"):
        # "Support A Ser - Rum": the order after the word is the one supported, never an order of
        # its own (line_orders._unreadable_supporter says the supporting unit is missing)
        c.i = start
        return None
    if verb in BUILD and parsed.kind is None:
        parsed = replace(parsed, kind="build")
    return parsed


def parse_segment(tokens: list[str], table: NameTable, policy: Policy, powers: dict[str, str]) -> list[Parsed]:
    """Every order in a list of tokens; the last element may carry leftover words."""
    c = _Cursor(tokens, table, policy, powers)
    found: list[Parsed] = []
    verb: str | None = None
    while not c.at_end():
        c.skip(_SEPARATORS_OR_DASH if found else SEPARATORS)
        if c.at_end():
            break
        if c.peek() in PREFIX_VERBS - {"HOLD", "SUPPORT", "CONVOY", "MOVE"}:
            verb = c.peek()
        elif not found:
            verb = None
        parsed = _one(c, verb if found else None)
        if parsed is None:
            break
        found.append(parsed)
        if c.at_end():
            break
        if c.peek() in SEPARATORS or _starts_order(c):
            continue
        break
    leftover = tuple(c.tokens[c.i:])
    if found and leftover:
        found[-1] = replace(found[-1], extra=found[-1].extra + leftover)
    return found


def looks_like_order(tokens: list[str], table: NameTable, policy: Policy, powers: dict[str, str]) -> bool:
    """Whether a line that did not parse was meant as an order (rejected) or is chatter (ignored)."""
    c = _Cursor(tokens, table, policy, powers)
    return _starts_order(c)
