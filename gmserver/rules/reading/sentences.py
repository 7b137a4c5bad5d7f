"""An order written as a sentence: "could you move my fleet in Naples to the Ionian rather than
Apulia, thanks", "I'd like my army in Venice to go to Tyrolia", "One change: F Nap - Ion instead."

A poorly written order that can mean one thing only is followed (000 III(2), 001 II(1), 002 FORMAT
2, 003 [15], 004 I(3)): the words of courtesy and of the order given up ("rather than Apulia",
"instead") are set aside and the unit, its place and where it goes are taken from the sentence.
The caller reads the words found as any order and says, in the confirmation, how the sentence was
read and what was assumed when it was ambiguous ("to Tyrolia or Bohemia": the first).

Pure and small: words in (the tokens of gmserver.rules.reading.text), words out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gmserver.rules.reading.grammar import ARMY, FLEET, MOVE, POLITE

# words that go between a unit and its place, and between its place and where it goes
_BEFORE_PLACE = frozenset("IN AT FROM CURRENTLY NOW THAT WHICH IS SITTING".split())
_BEFORE_DEST = MOVE | frozenset("THE SHOULD WILL SHALL CAN COULD MAY PLEASE ON OVER ACROSS TOWARDS TOWARD".split())
_END = frozenset({",", ";", ":", "AND", "THEN", "BUT", "SO", "(", ")", "!", "?"}) | POLITE
_GIVEN_UP = (("RATHER", "THAN"), ("INSTEAD", "OF"))
_DROPPED = frozenset({"INSTEAD"}) | POLITE
MAX_PLACE_WORDS = 3  # "North Atlantic Ocean"

# A polite closing is no order's condition: "let me know if anything is unclear", "if you have any
# questions", "if that's OK". Each runs to the end of its sentence.
_COURTESY = re.compile(
    r"(?:\b(?:and\s+|please\s+|just\s+)*(?:let\s+me\s+know|tell\s+me|shout|ask\s+me|get\s+back\s+to\s+me"
    r"|drop\s+me\s+a\s+line|write\s+(?:to\s+me|back)|ping\s+me)\s+if\b"
    r"|\bif\s+you\s+(?:have|had)\s+(?:any\s+)?(?:questions?|doubts?|problems?)\b"
    r"|\bif\s+(?:anything|something|any\s+of\s+(?:this|it))\s+(?:is|seems|looks)\s+"
    r"(?:unclear|wrong|odd|off|amiss|ambiguous|not\s+clear)\b"
    r"|\bif\s+(?:that's|that\s+is|this\s+is|it's|it\s+is)\s+(?:ok|okay|alright|all\s+right|fine)\b"
    r"|\bif\s+there(?:'s|\s+is|\s+are)\s+(?:any|a)\s+(?:problems?|issues?|questions?)\b"
    r"|\bif\s+you\s+need\s+anything\b)[^.!?]*[.!?]*", re.IGNORECASE)


@dataclass(frozen=True)
class SentenceOrder:
    words: list[str]  # the order's words: unit type, place, "-", destination
    given_up: str  # the words of the order the sentence gives up ("Apulia"), or ""
    assumed: str  # what was assumed where the sentence is ambiguous, or ""


# A sentence asks for a move ("could you", "I'd like", "one change", "instead"); one that tells
# of a move ("last spring everyone saw A Mun - Bur") is not an order (000 III(2))
_ASKING = frozenset("MOVE GO LIKE WANT WISH PLEASE COULD CAN WOULD CHANGE INSTEAD RATHER SHOULD LET MAKE SEND "
                    "SAIL MARCH ORDER".split())
_TELLING = frozenset("LAST SAW SEEN WAS WERE DID REMEMBER YESTERDAY AGO MOVED WENT ORDERED SENT".split())


def orders_in_sentence(words: list[str]) -> list[SentenceOrder]:
    """The moves a sentence states, in order ("my army in Venice to Tyrolia and my fleet in
    Naples to the Ionian": two); none when it states no unit moving somewhere, or tells of a
    move rather than asking for one."""
    if not any(w in _ASKING for w in words) or any(w in _TELLING for w in words):
        return []
    words, given_up = _without_given_up(words)
    words = [w for w in words if w not in _DROPPED]
    found: list[SentenceOrder] = []
    u = 0
    while u < len(words):
        order, end = _move_at(words, u)
        if order is None:
            u += 1
            continue
        found.append(SentenceOrder(order.words, given_up, order.assumed))
        u = end
    return found


def _move_at(words: list[str], u: int) -> tuple[SentenceOrder | None, int]:
    """The move whose unit type is words[u], and the index after it."""
    word = words[u]
    if word not in ARMY and word not in FLEET:
        return None, u
    i = u + 1
    while i < len(words) and words[i] in _BEFORE_PLACE:
        i += 1
    place = _place(words, i, stop=MOVE)
    if not place:
        return None, u
    i = words.index(place[-1], i) + 1
    if i >= len(words) or words[i] not in _BEFORE_DEST:
        return None, u
    while i < len(words) and words[i] in _BEFORE_DEST:
        i += 1
    dest = _place(words, i, stop=frozenset({"OR"}))
    if not dest:
        return None, u
    end = words.index(dest[-1], i) + 1
    assumed = ""
    if end < len(words) and words[end] == "OR":
        other = _place(words, end + 1, stop=frozenset())
        if other:
            assumed = f"the sentence names two places to go ({_words(dest)} or {_words(other)}): the first was taken"
            end = words.index(other[-1], end + 1) + 1
    unit = "A" if word in ARMY else "F"
    return SentenceOrder([unit, *place, "-", *dest], "", assumed), end


def _without_given_up(words: list[str]) -> tuple[list[str], str]:
    """The words without "rather than Apulia" / "instead of Apulia", and those words."""
    for first, second in _GIVEN_UP:
        for i in range(len(words) - 1):
            if words[i] == first and words[i + 1] == second:
                end = i + 2
                while end < len(words) and words[end] not in _END:
                    end += 1
                return words[:i] + words[end:], _words(words[i + 2:end])
    return words, ""


def _place(words: list[str], start: int, stop: frozenset[str]) -> list[str]:
    """The words of a place name from `start`: up to MAX_PLACE_WORDS words, to the first word
    that ends it."""
    out: list[str] = []
    for word in words[start:start + MAX_PLACE_WORDS]:
        if word in _END or word in stop or word in ARMY or word in FLEET or not (word[0].isalpha() or word[0] == "/"):
            break
        if word == "THE" and not out:
            continue
        out.append(word)
    return out


def _words(words: list[str]) -> str:
    return " ".join(w.title() if w[0].isalpha() else w for w in words if w != "THE")


def without_courtesy(line: str) -> str:
    """`line` without its polite closing clauses ("let me know if anything is unclear")."""
    if "if" not in line.lower():
        return line
    return _COURTESY.sub(" ", line)
