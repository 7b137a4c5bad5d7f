"""What kind of mail a message is: orders, press, a request, a vote, a GM command or none of these.

Pure: the caller passes the subject, the body split by gmserver.rules.reading.message (the text
read for orders, and the press sections), the names of the games the subject may name and
whether the sender is the GM. Each kind has one handler (gmserver.services.inbox.handlers), in the
manner of Mailman 3's email commands: the first word of a line names what the line is for.

The seeds name the things players mail the GM but give no syntax for them, so the grammar is
a proposal [P practice], kept small enough that no order line can match it:

1. GM command: any mail from one of the GM's own addresses (`gm_command_auth`, both values: the
   GM's address is required). The first word of the first line is the command, one of the words
   the caller passes (the registry's, gmserver.commands: `process`, `delay` or `extend`,
   `orders` or `correct`, `cd`, `proxy`...).
2. A keyword line: the first line of the text read for orders (quotes, signatures, password
   lines and press sections already taken out) whose first word is a keyword, the rest of the
   line being its argument ("DRAW Austria England", "Status", "Delay: travelling until Friday"):
   - player commands: the words the caller passes (the registry's, gmserver.commands
     `PLAYER_WORDS`: `help`, `rules`, `set zone`...; one word or two), each to its command's
     name, read as requests; this module keeps no list of them;
   - requests: `status`, `history` (with a phase: "HISTORY F1901"), `map`, `orders`
     (the player's own set on file; only as the whole text, since "Orders:" often heads an
     order set), `delay` or `extension` (000 VII(5),
     001 IV(5), 003 [10] "If you need an extension of the deadline, notify the GM"), and
     `address` with the new address (`address_change`, 003 [4]), and `proxy` with
     the holder or "cancel" (`proxy_policy`, 000 II(3), 003 [19]);
   - votes: `draw` (000 IX(2), 001 VIII(2), 002 DRAWS 1), `concede` or
     `concession` (000 IX(1), 001 VIII(1)), `deadline` (a deadline change, 003 [18] ¶2), and the
     two-word keywords `rule change` (000 IX(3), 001 VIII(3), 003 [18] ¶3), `end game` (an end
     on any terms, 003 [18] ¶1) and `turn length` (the start-of-game vote, 003 [23]); `complain`
     (a complaint about a passed draw, 002 DRAWS 5).
   The rest of the message is not read as orders: the reply says so.
3. Subject keywords, when the body has no keyword line: the same words, and `press`, anywhere in
   the subject once the game's name is set aside ("lepanto status", "Re: lepanto press"), unless
   the subject is an order set's: it says `orders` or names a turn (a season, a year, a phase
   code: "lepanto France S1901M history lesson" is orders). A `press` subject makes the whole
   body press.
4. Press sections: lines between a "PRESS" (or "Press to England:", "Grey press") line and an
   "END PRESS" line or the end (003 [9] writes press into the order set). A message
   with press sections and other text is orders with press; with press sections only, press.
5. Everything else is orders: read as today, with replies for lines that are no orders.
Two different keywords (a subject asking for the status and a body voting a draw) are not
understood: the reply asks for one thing per message.

Words are compared as gmserver.rules.subject.name_words makes them (accents dropped, any case).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from gmserver.rules.subject import name_words

Kind = Literal["orders", "orders+press", "press", "command", "request", "vote", "unknown"]
KINDS: tuple[Kind, ...] = ("orders", "orders+press", "press", "command", "request", "vote", "unknown")
# The kinds read for orders (under the subject rules of order sets), and those that hold press
ORDER_KINDS: frozenset[Kind] = frozenset({"orders", "orders+press"})
PRESS_KINDS: frozenset[Kind] = frozenset({"press", "orders+press"})

# word -> (kind, topic). A new kind read from a keyword is one more entry here.
KEYWORDS: Mapping[str, tuple[Kind, str]] = MappingProxyType({
    "status": ("request", "status"),
    "history": ("request", "history"),
    "map": ("request", "map"),
    "orders": ("request", "orders"),  # only as the whole text read for orders: see _ONLY_ALONE
    "delay": ("request", "delay"),
    "extension": ("request", "delay"),
    "address": ("request", "address"),  # address_change: "ADDRESS new@example.org[,fallback]"
    "proxy": ("request", "proxy"),  # proxy_policy: "PROXY England", "PROXY cancel" (services/features/proxies.py)
    "draw": ("vote", "draw"),
    "concede": ("vote", "concession"),
    "concession": ("vote", "concession"),
    "deadline": ("vote", "deadline_change"),  # 003 [18] ¶2 "DEADLINE 21" (rules/vote_changes.py)
    "complain": ("vote", "draw_complaint"),  # 002 DRAWS 5: a complaint about a passed draw
})
# two-word keywords, read in the body only (rules/vote_changes.py reads their arguments)
PHRASES: Mapping[tuple[str, str], tuple[Kind, str]] = MappingProxyType({
    ("rule", "change"): ("vote", "rule_change"),  # 000 IX(3), 001 VIII(3), 003 [18] ¶3
    ("end", "game"): ("vote", "end_game_any_terms"),  # 003 [18] ¶1
    ("turn", "length"): ("vote", "turn_length"),  # 003 [23]
})
_SUBJECT_ONLY: Mapping[str, tuple[Kind, str]] = MappingProxyType({"press": ("press", "press")})

_ORDERS_WORD = "orders"
# keywords that are a request only when their line is all the text: "Orders:" heads many order sets
_ONLY_ALONE = frozenset({"orders"})
# a deadline vote needs its turn length, and "deadline" is a common word of a subject line
_BODY_ONLY = frozenset({"deadline", "complain"})
# first words of two-word commands ("what if") that open many a sentence too: "What is the
# deadline?" is no mistyped command, so it gets no "WHAT is followed by IF" answer
_PLAIN_FIRST_WORDS = frozenset({"what"})


@dataclass(frozen=True)
class MailKind:
    kind: Kind
    topic: str | None = None  # "status", "draw", "process"...; None for orders and press
    argument: str = ""  # the rest of the keyword line ("Austria England" after "DRAW")
    # the keyword line was not all the text: the other lines were not read as orders
    more_text: bool = False
    reason: str | None = None  # for "unknown": what was not understood, in words


def classify(*, subject: str, order_text: str, press_text: str, game_names: Iterable[str] = (),
             from_gm: bool = False, gm_commands: Mapping[str, str] = MappingProxyType({}),
             player_commands: Mapping[str, str] = MappingProxyType({}),
             subject_commands: Collection[str] = ()) -> MailKind:
    """The kind of one message (see the module doc for the grammar). `gm_commands`: the words of
    the GM's commands, each to its command's name (the caller passes gmserver.commands.MAIL_WORDS);
    `player_commands` those of the players' commands ("set zone" -> "zone": PLAYER_WORDS), and
    `subject_commands` those of them also read from a subject: this module keeps no list of them."""
    lines = [line.strip() for line in order_text.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if from_gm:
        word = _first_word(first) or _first_word(subject)
        return MailKind("command", gm_commands.get(word or ""), _rest(first), len(lines) > 1)
    word = _first_word(first) or ""
    two = tuple(name_words(first[:200])[:2])
    phrase = PHRASES.get(two)  # type: ignore[arg-type]
    player_two = len(two) == 2 and " ".join(two) in player_commands
    player = player_commands.get(" ".join(two)) if player_two else player_commands.get(word)
    two_words = bool(phrase) or player_two
    if not phrase and not player and word not in _PLAIN_FIRST_WORDS and not has_order_lines(order_text) and (seconds := sorted(
            key.split(" ", 1)[1] for key in player_commands if key.startswith(f"{word} "))):
        # "SET ZOME Europe/Berlin": the first word of a two-word command with a second word none of its
        # own, in a message with no order in it ("Set 2:" may head an order set)
        return MailKind("unknown", reason=(
            f"{word.upper()} is followed by one of {', '.join(second.upper() for second in seconds)}, as in "
            f"\"{word.upper()} {seconds[0].upper()} ...\"; \"{first[:60]}\" is none of them."))
    in_body = phrase or (("request", player) if player else None) or (
        None if word in _ONLY_ALONE and len(lines) > 1 else KEYWORDS.get(word))
    order_lines = has_order_lines(order_text)
    # a player command in the subject ("lepanto help") only where the body holds no orders: "help"
    # is a common word of a subject, and orders are never left unread for it
    in_subject = _subject_keywords(subject, game_names, order_lines, {} if order_lines else {
        word: player_commands[word] for word in subject_commands if word in player_commands})
    if in_body and in_subject and any(found != in_body for found in in_subject):
        return _two_things([in_body, *in_subject])
    if in_body:
        found = MailKind(in_body[0], in_body[1], _after_two_words(first) if two_words else _rest(first), len(lines) > 1)
        return _with_delay_reason(found, lines[1:])
    if len(set(in_subject)) > 1:
        return _two_things(in_subject)
    if in_subject:
        kind, topic = in_subject[0]
        found = MailKind(kind, None if kind == "press" else topic, "", bool(lines) and kind != "press")
        return _with_delay_reason(found, lines)
    if press_text.strip():
        return MailKind("orders+press" if lines else "press")
    return MailKind("orders")


def _with_delay_reason(found: MailKind, after: list[str]) -> MailKind:
    """000 VII(5), 003 [10] "a message whose first line is DELAY, with your reason": a bare
    DELAY line (or subject) takes the lines after it as its reason, for the GM to read."""
    if found.topic != "delay" or found.argument or not after:
        return found
    return MailKind(found.kind, found.topic, " ".join(after)[:1000], more_text=False)


def _two_things(found: list[tuple[Kind, str]]) -> MailKind:
    topics = sorted({topic for _, topic in found})
    return MailKind("unknown", reason=(
        f"This message asks for more than one thing ({', '.join(topics)}): the server takes one "
        "request, vote or piece of press per message."))


def _first_word(line: str) -> str | None:
    words = name_words(line[:200])
    return words[0] if words else None


def _after_two_words(line: str) -> str:
    """The line without its two-word keyword, written apart ("set zone Europe/Berlin") or joined
    ("what-if: A Par - Bur")."""
    rest = _rest(line)
    return rest if len(name_words(line.split(None, 1)[0])) > 1 else _rest(rest)


def _rest(line: str) -> str:
    """The keyword line without its keyword: "DRAW: Austria, England" -> "Austria, England"."""
    parts = line.split(None, 1)
    if not parts:
        return ""
    head = parts[0]
    rest = parts[1] if len(parts) > 1 else ""
    # "Draw:Austria" has its keyword glued to the argument
    keyword, colon, glued = head.partition(":")
    if colon and glued:
        rest = f"{glued} {rest}".strip()
    return rest.lstrip(":-– ").strip()


# what makes a subject an order set's (seasons and years, engine phase codes)
_TURN_WORD = re.compile(r"(?:spring|summer|fall|autumn|winter|[sfwa](?:\d\d|\d{4})[mra]?|1[89]\d\d|20\d\d)")


_ORDER_NOTATION = re.compile(r"^\s*(?:\d{1,2}[.)]\s*)?[AF]\s+[A-Za-z]{3}", re.MULTILINE)


def has_order_lines(text: str) -> bool:
    """Whether a line of `text` is written as an order ("A PAR - BUR", "2. F Bre H")."""
    return bool(_ORDER_NOTATION.search(text[:20000]))


def _subject_keywords(subject: str, game_names: Iterable[str], order_lines: bool = False,
                      commands: Mapping[str, str] = MappingProxyType({})) -> list[tuple[Kind, str]]:
    masked: set[str] = set()
    for name in game_names:
        masked |= set(name_words(name))
    words = [word for word in name_words(subject) if word not in masked]
    if _ORDERS_WORD in words:
        return []
    if any(_TURN_WORD.fullmatch(word) for word in words):
        # the order subject with "press" where "orders" stands ("lepanto: Germany press for Spring
        # 1901") is press, its words ("Munich holds") never read as orders, unless the body is
        # written as orders ("A PAR - BUR")
        return [_SUBJECT_ONLY["press"]] if "press" in words and not order_lines else []
    table: dict[str, tuple[Kind, str]] = {**KEYWORDS, **_SUBJECT_ONLY,
                                          **{word: ("request", name) for word, name in commands.items()}}
    return [table[word] for word in words if word in table and word not in _ONLY_ALONE | _BODY_ONLY]
