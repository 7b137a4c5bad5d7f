"""The orders on one line of a set, its condition (if any) already dealt with: several orders on a line,
combined ones, a parenthesised order (`parenthetical_order`), run-together words, extra words."""

from __future__ import annotations

from dataclasses import replace

from gmserver.rules.mailkind import KEYWORDS, PHRASES
from gmserver.rules.reading.chatter import GREETINGS, NOT_AN_ORDER
from gmserver.rules.reading.grammar import (
    ARMY,
    BUILD,
    CONVOY,
    DISBAND,
    FLEET,
    HOLD,
    MOVE,
    POLITE,
    PREFIX_VERBS,
    RETREAT,
    SUPPORT,
    UNIT_WORDS,
    WAIVE,
    Parsed,
    looks_like_order,
    parse_segment,
)
from gmserver.rules.reading.interpret import Context, Verdict, read_order
from gmserver.rules.reading.options import option, profile_of
from gmserver.rules.reading.provinces import match_place, resolve
from gmserver.rules.reading.sentences import orders_in_sentence


def _ignored(message: str, rule: str | None = None) -> list[Verdict]:
    return [Verdict("ignored", None, None, "hold", rule, message)]


def _not_an_order(words: list[str], message: str) -> list[Verdict]:
    """A line that is no order; one that starts like a vote or request ("TURN LENGTH 14", "DRAW")
    says that those are read only from a message's first line (rules/mailkind.py), so that a
    player who wrote one under their orders does not believe it counted."""
    first = [w.lower() for w in words[:2]]
    phrase = tuple(first) in PHRASES
    if phrase or (first and first[0] in KEYWORDS and first[0] != "orders"):
        keyword = " ".join(words[:2] if phrase else words[:1]).upper()
        message = (f"Not an order, and not read as the {keyword} line it looks like: a vote or request is read "
                   "only as the first line of a message of its own: reply to this mail with it as the "
                   "first line.")
    return _ignored(message)


def _run_together(split: list[str], ctx: Context) -> Verdict:
    """Only a generous reading splits "ANKBLA" (002 FORMAT 5); elsewhere it is not read as a hold
    at Ankara but refused, with the order it may have meant."""
    meant = " ".join(w.title() if len(w) == 3 else w for w in split)
    return Verdict("rejected", None, None, "hold", ctx.cite("typo_tolerance"),
                   f"Province names run together cannot be read; write them apart. Did you mean '{meant}'?",
                   valid=False)


# What each profile's rules accept, in words, with the clause that says it (000 III(2),
# 001 II(2), 002 FORMAT 2, 003 [15], 004 I(1) ¶1): the QA walkthrough found the refusal of an
# order-like line citing no rule. The standard profile (the rulebook) has no such clause.
_ACCEPTED: dict[str, tuple[str, str]] = {
    "mhr": ("000 III(2)", "Any abbreviation or typing error is accepted as long as the order can mean one thing "
                          "only."),
    "danivon": ("001 II(2)", "Any abbreviation or typing error is accepted as long as the order can mean one thing "
                             "only."),
    "email_rules": ("002 FORMAT 2", "Any format is accepted, and the standard one is preferred: "
                                    "'F Eng S German F Nth -> Bel'."),
    "scorpion": ("003 [15]", "An order that can mean one thing only is accepted however badly it is written."),
    "gwm": ("004 I(1)", "The standard abbreviations are preferred, and any abbreviation that fits one province "
                        "only is accepted."),
}


def _unreadable(ctx: Context) -> Verdict:
    """A line that looks like an order and reads as none: how to write one, and what the game's
    rules accept where they say it."""
    accepted = _ACCEPTED.get(profile_of(ctx.ruleset) or "")
    said = ("This looks like an order but I cannot read it: write the unit, then the order, e.g. 'A Par - Bur', "
            "'F Nth C A Lon - Bel', 'A Mun S A Ber - Kie'.")
    if accepted is None:
        return Verdict("rejected", None, None, "hold", None, said, valid=False)
    return Verdict("rejected", None, None, "hold", accepted[0], f"{said} {accepted[1]}", valid=False)


# A word naming a kind of order, written as a label before the orders ("Moves: A Mun - Bur",
# "Holds: A Ber H", "Builds:"): never a misspelt province (Moscow, Holland), however close it is.
_LABELS = frozenset(w for w in HOLD | MOVE | SUPPORT | CONVOY | BUILD | DISBAND | RETREAT | WAIVE if len(w) > 2) | \
    frozenset("ORDER ORDERS MOVEMENT MOVEMENTS ADJUSTMENT ADJUSTMENTS REMOVALS RETREATS".split())


def _with_skipped(condition_note: tuple[str, str] | None, skipped: str, ctx: Context) -> tuple[str, str]:
    """The line's note with the words skipped before its order added (a label, a greeting)."""
    note = (ctx.cite("abbreviation_policy"), f"The words '{skipped}' before the order were skipped.")
    if condition_note is None:
        return note
    return ("; ".join(dict.fromkeys(r for r in (condition_note[0], note[0]) if r)), condition_note[1] + " " + note[1])


def _read_words(words: list[str], ctx: Context, condition_note: tuple[str, str] | None = None) -> list[Verdict]:
    """The orders on a line (its condition, if any, already dealt with); a line that gives none
    as written may state them as a sentence (sentences.py)."""
    verdicts = _read_written(words, ctx, condition_note)
    if len(words) < _SENTENCE_WORDS or any(v.status != "ignored" for v in verdicts) \
            or any(w in SUPPORT or w in CONVOY for w in words):
        return verdicts  # a line refused as a broken order says so; a support is never read as a move
    return _as_sentence(words, ctx, condition_note) or verdicts


_SENTENCE_WORDS = 4  # "F Nap - Ion" is read as written; a sentence has more words


def _as_sentence(words: list[str], ctx: Context, condition_note: tuple[str, str] | None) -> list[Verdict] | None:
    """The moves a sentence states, each read as an order and said how it was read (000 III(2),
    001 II(1), 002 FORMAT 2, 003 [15], 004 I(3): a poorly written order with one meaning is
    followed); None unless every one reads as a usable order, so that prose naming a unit and a
    place is never refused as a broken order."""
    found = orders_in_sentence(words)
    out: list[Verdict] = []
    for stated in found:
        verdicts = _read_written(stated.words, ctx, condition_note)
        if not verdicts or any(v.order is None or v.status == "rejected" for v in verdicts):
            return None
        for verdict in verdicts:
            said = f"Read the sentence as {verdict.order}."
            if stated.given_up:
                said += f" '{stated.given_up}' was taken as what you no longer want."
            if stated.assumed:
                said += f" It is ambiguous: {stated.assumed}; if you meant otherwise, reply to this mail."
            out.append(_with_note(verdict, (ctx.cite("abbreviation_policy"), said)))
    return out or None


def _read_written(words: list[str], ctx: Context, condition_note: tuple[str, str] | None = None) -> list[Verdict]:
    """The orders on a line as written."""
    if words and words[0] in GREETINGS:  # "Hello GM,": never a misspelt Helgoland
        rest = words[1:]
        while rest and rest[0] in (",", ":", ";", "!", "."):
            rest = rest[1:]
        if not looks_like_order(rest, ctx.table, ctx.policy, ctx.powers):
            return _ignored("Not an order.")
        condition_note = _with_skipped(condition_note, words[0].lower(), ctx)
        words = rest
    if len(words) > 2 and words[1] == ":" and words[0] in _LABELS:
        condition_note = _with_skipped(condition_note, words[0].lower(), ctx)
        words = words[2:]
    split = _split_run_together(words, ctx)
    if split != words and option(ctx.ruleset, "typo_tolerance") != "generous":
        return [_run_together(split, ctx)]
    words = split
    words, parenthetical = _parenthetical(words, ctx)
    parsed = parse_segment(words, ctx.table, ctx.policy, ctx.powers)
    if not parsed or all(item.kind is None and not _is_nonsense_candidate(item) for item in parsed):
        prefixed = _after_prefix(words, ctx)
        if prefixed is None and _foreign_label(words, ctx):
            # 000 III(1), 002 FORMAT 12: an order for a power not the player's is never used
            other = ctx.powers[words[0]].title()
            return [Verdict("rejected", None, None, "hold", None,
                            f"This line is labelled {other}: orders for another power are not used "
                            f"(you play {ctx.power.title()}).", valid=False)]
        unreadable = _unreadable_supporter(words, ctx) if prefixed is None else None
        if unreadable is not None:
            return [unreadable]
        if prefixed is not None:
            words, parsed, skipped = prefixed
        if prefixed is not None and skipped:
            condition_note = _with_skipped(condition_note, skipped, ctx)
    if not parsed:
        if looks_like_order(words, ctx.table, ctx.policy, ctx.powers):
            return [_unreadable(ctx)]
        return _not_an_order(words, "Not an order.")
    parsed = _combined(parsed, ctx)
    verdicts: list[Verdict] = []
    for item in parsed:
        if isinstance(item, Verdict):
            verdicts.append(item)
            continue
        if item.kind is None and not _is_nonsense_candidate(item):
            # "Paris is lovely in spring" is prose, not an order missing its action; "Orders for
            # Russia:" or "Spring 1901" (read as Spain by typo tolerance) starts with no place at all
            place_alone = not any(w[:1].isalpha() for w in item.extra) and _starts_with_place(item, words)
            verdicts.extend(_not_an_order(words, "Not an order: no action follows the place name." if place_alone
                                          else NOT_AN_ORDER))
            continue
        verdict = read_order(item, ctx)
        verdict = _extra_words(item, verdict, ctx)
        if item.combined and verdict.order and verdict.status != "rejected":
            verdict = _with_note(verdict, (ctx.cite("combined_orders"),
                                           "A combined order: each unit named gets the order."))
        if item.kind == "waive" and item.count > 1 and verdict.order is not None and verdict.order.action == "waive":
            verdicts.extend([verdict] * item.count)
            continue
        verdicts.append(verdict)
    if parenthetical is not None:
        verdicts = [_with_note(v, parenthetical) if v.order else v for v in verdicts]
    if condition_note is not None:
        verdicts = [_with_note(v, condition_note) if v.order else v for v in verdicts]
    return verdicts


_PREFIX_SCAN = 6  # tokens looked at before an order, punctuation included
_PREFIX_WORDS = 4  # "I'd like to move A Vie - Tyr": a few words before an order, not a sentence


def _after_prefix(words: list[str], ctx: Context) -> tuple[list[str], list[Parsed], str] | None:
    """A few words or a label before an order ("Germany: A Mun - Bur" as judge reports list orders,
    "Retreat:", "oops, F Nap B", "I'd like to move A Vie - Tyr"): the order that follows them, and
    the words skipped. A poorly written order with one meaning is followed (000 III(2), 001 II(1),
    002 FORMAT 2, 003 [10], 004 I(3)). A power label stays on the order, so that an order for a
    unit of another power is refused as the profile's nationality rules say, never silently used."""
    for i in range(1, min(len(words), _PREFIX_SCAN + 1)):
        if words[i] not in ARMY and words[i] not in FLEET and words[i] not in ctx.powers \
                and words[i] not in PREFIX_VERBS:
            continue
        label = [w for w in words[:i] if w not in (":", ",", ";", "-", "!")]
        rest = words[i:]
        if len(label) == 1 and label[0] in ctx.powers and rest[0] not in ctx.powers:
            if rest[0] in ARMY or rest[0] in FLEET:
                rest = label + rest  # the power label reads as the unit's nationality
            elif ctx.powers[label[0]] != ctx.power:
                return None  # "France: Build A Ven" from Italy: not this power's order (000 III(1))
            label = []
        if len(label) > _PREFIX_WORDS:
            return None
        parsed = parse_segment(rest, ctx.table, ctx.policy, ctx.powers)
        if parsed and label and label[-1] in SUPPORT | CONVOY and parsed[0].kind not in ("support", "convoy"):
            # "A Zz S A Ser - Rum": the order after a support word is what is supported, never an
            # order of its own ("Support: A Mun S A Ber - Kie" is a label before a whole support)
            return None
        if parsed and parsed[0].kind is not None and parsed[0].unit is not None:
            if any(w[:1].isalpha() and w not in POLITE for item in parsed for w in item.extra):
                return None  # words after the order as well: prose that names an order, not an order
            return rest, parsed, " ".join(label).lower()
    return None


_SUPPORTER_WORDS = 3  # a unit is its type and a name of one or two words: more is a sentence
_NOT_A_UNIT = POLITE | frozenset({"I", "WE", "WILL", "SHALL", "SHOULD", ":", ",", ";", "-", "!"})


def _unreadable_supporter(words: list[str], ctx: Context) -> Verdict | None:
    """"A Zz S A Ser - Rum": a support or convoy whose own unit could not be read. The order after
    the support word is what is supported, never an order of its own, so nothing is used; the
    reply says which words were not a unit."""
    for i in range(min(len(words), _SUPPORTER_WORDS + 1)):
        if words[i] not in SUPPORT and words[i] not in CONVOY:
            continue
        supported = parse_segment(words[i + 1:], ctx.table, ctx.policy, ctx.powers)
        if not supported or supported[0].unit is None or supported[0].kind in ("support", "convoy"):
            return None
        what = "support" if words[i] in SUPPORT else "convoy"
        written = " ".join(w for w in words[:i] if w not in _NOT_A_UNIT).title()  # "Please", "I will": no unit
        who = f"'{written}' is not a unit of yours I can read" if written else "it names no unit of yours to give it"
        # the line names no unit of the player's: void as an order for a unit not there is
        return Verdict("rejected", None, None, what, ctx.cite("orders_for_missing_units"),
                       f"This looks like a {what}, but {who}, so nothing on this line was used. Write the unit "
                       f"first, e.g. 'A Mun S A Ber - Kie'.", valid=False)
    return None


def _foreign_label(words: list[str], ctx: Context) -> bool:
    """"France: Build A Ven" from Italy: a label naming another power before an order."""
    return (len(words) > 2 and words[0] in ctx.powers and ctx.powers[words[0]] != ctx.power
            and words[1] == ":" and looks_like_order(words[2:], ctx.table, ctx.policy, ctx.powers))


def _split_run_together(words: list[str], ctx: Context) -> list[str]:
    """typo_tolerance = generous (002 FORMAT 5): "IONGRE" -> ION - GRE, "APARBUR" -> A PAR - BUR."""
    def code(word: str) -> bool:
        place = resolve((word,), ctx.table, ctx.policy)
        return place is not None and place.province is not None and place.how in ("table", "variant")

    def name(word: str) -> bool:
        # a province written in full is never two codes run together: "SWEDEN" is Sweden, not SWE - DEN
        place = resolve((word,), ctx.table, ctx.policy)
        return place is not None and place.province is not None and place.how in ("table", "variant", "name",
                                                                                   "player")

    out: list[str] = []
    for word in words:
        if word.isalpha() and len(word) in (6, 7) and not name(word):
            head = [word[0]] if len(word) == 7 and word[0] in "AF" else []
            rest = word[len(head):]
            if len(rest) == 6 and code(rest[:3]) and code(rest[3:]):
                out.extend(head + [rest[:3], "-", rest[3:]])
                continue
        out.append(word)
    return out


def _starts_with_place(item: Parsed, words: list[str]) -> bool:
    """The line opens with a place name as written (no typo, no guess from a few letters)."""
    place = item.unit.place if item.unit is not None else None
    return (place is not None and (place.exact or place.how == "foreign") and bool(words)
            and place.written.split()[:1] == words[:1])


def _is_nonsense_candidate(item: Parsed) -> bool:
    """A unit named with its type ("Army Rome eats pasta") is a nonsense order; a bare place
    name followed by prose ("Paris is lovely") is chatter."""
    return item.unit is not None and item.unit.type is not None


def _extra_words(item: Parsed, verdict: Verdict, ctx: Context) -> Verdict:
    extra = [w for w in item.extra if w not in POLITE and w not in ("!", "?", ",", ";", ":", ")", "(")]
    if not extra or item.kind is None or verdict.order is None or verdict.status == "rejected":
        return verdict
    words = " ".join(extra).lower()
    message = (verdict.message + " " if verdict.message else "") + f"The words '{words}' were ignored."
    # a poorly written order with one meaning is followed (RB2000; 000 III(2), 002 FORMAT 2, ...)
    rule = ctx.cite("abbreviation_policy")
    rules = "; ".join(dict.fromkeys(r for r in (verdict.rule, rule) if r))
    return replace(verdict, status="corrected", message=message, rule=rules)


def _with_note(verdict: Verdict, note: tuple[str, str]) -> Verdict:
    rule, message = note
    rules = "; ".join(r for r in (rule, verdict.rule) if r)
    status = verdict.status if verdict.status == "rejected" else "corrected"
    return replace(verdict, status=status, rule=rules or None,
                   message=message + (" " + verdict.message if verdict.message else ""))


def _parenthetical(words: list[str], ctx: Context) -> tuple[list[str], tuple[str, str] | None]:
    """002 FORMAT 6: "Venice kills and maims the Trieste citizens (A Ven-Tri)" -> A Ven - Tri."""
    if "(" not in words:
        return words, None
    use = option(ctx.ruleset, "parenthetical_order") == "use"
    out: list[str] = []
    i = 0
    chosen: list[str] | None = None
    while i < len(words):
        if words[i] != "(":
            out.append(words[i])
            i += 1
            continue
        j = i + 1
        depth = 1
        while j < len(words) and depth:
            depth += {"(": 1, ")": -1}.get(words[j], 0)
            j += 1
        inner = [w for w in words[i + 1:j] if w not in ("(", ")")]
        kind = _inner_kind(inner, ctx)
        if kind == "order":
            if use and chosen is None:
                chosen = inner
        elif kind == "action":
            if use and chosen is None:
                head = _head_unit(out, ctx)
                if head:
                    chosen = head + inner
        else:
            out.extend(inner)
        i = j
    if chosen is not None:
        return chosen, (ctx.cite("parenthetical_order"),
                        "The order in parentheses was used; the rest of the line was ignored.")
    return out, None


def _inner_kind(inner: list[str], ctx: Context) -> str | None:
    if not inner:
        return None
    if inner[0] in HOLD or inner[0] in MOVE or inner[0] in SUPPORT or inner[0] in CONVOY:
        return "action"
    parsed = parse_segment(inner, ctx.table, ctx.policy, ctx.powers)
    if parsed and parsed[0].complete and parsed[0].unit is not None:
        return "order"
    return None


def _head_unit(words: list[str], ctx: Context) -> list[str] | None:
    """The unit named at the start of a line ("Tunis has a wild party") for "(holds)"."""
    i = 0
    while i < len(words) and (words[i] in UNIT_WORDS or words[i] in ctx.powers or
                              words[i] in ("THE", "MY", "MOVE")):
        i += 1
    place, after = match_place(words, i, ctx.table, ctx.policy)
    if place is None:
        return None
    return [w for w in words[:after] if w != "MOVE"]


def _combined(parsed: list[Parsed], ctx: Context) -> list[Parsed | Verdict]:
    """002 FORMAT 10: "F MAO and A Gas S A Par - Bre" gives both units the order."""
    result: list[Parsed | Verdict] = []
    pending: list[Parsed] = []
    for item in parsed:
        if item.kind is None and not item.extra:
            pending.append(item)
            continue
        if pending and item.kind is not None:
            if option(ctx.ruleset, "combined_orders") == "accept":
                for head in pending:
                    result.append(replace(item, unit=head.unit, combined=True))
            else:
                for _ in pending:
                    result.append(Verdict("rejected", None, None, "hold", ctx.cite("combined_orders"),
                                          "Combined orders are not accepted; order each unit on its own.",
                                          valid=False))
            pending = []
        elif pending:
            result.extend(pending)
            pending = []
        result.append(item)
    result.extend(pending)
    return result
