"""The lines around the orders that are no attempt at one: a greeting ("Hi Anna,"), a heading
("Orders for Russia:", a table's "Unit Order To"), a comment that names no place ("Sending again
in case it got lost"), a sign-off ("Thanks!", "let me know if anything
is unclear") and a signature (a name, a job title, an address under the orders).

The reader names each such line (`LineReading.chatter`) so that the confirmation counts them in one
line ("4 lines of greeting and signature not read as orders") instead of listing each as ignored;
a line that gave no order for any other reason (a place with no action, prose, a broken order) is
not chatter and is listed with its reason. Pure: words in, a name out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

GREETING, HEADING, COMMENT, SIGN_OFF, SIGNATURE = "greeting", "heading", "comment", "sign-off", "signature"
KINDS = (GREETING, HEADING, COMMENT, SIGN_OFF, SIGNATURE)  # in the order a mail has them

# A greeting opens many a set ("Hello GM,"): not a misspelt Helgoland, whatever the typo tolerance
GREETINGS = frozenset("HELLO HALLO HI HEY HIYA DEAR GREETINGS HOWDY MORNING EVENING GOOD".split())

# A signature without its "-- " line opens with a sign-off or the player's name on a line of its own
SIGN_OFF_LINE = re.compile(
    r"^\s*(?:thanks|thank\s+you|many\s+thanks|cheers|regards|best|best\s+regards|best\s+wishes|kind\s+regards"
    r"|warm\s+regards|yours(?:\s+truly|\s+sincerely)?|all\s+the\s+best|ciao|grazie|saluti|cordialement|merci"
    r"|gr(?:ü|ue|u)(?:ss|ß)e?|danke|ta)\b[\s,.!]*(?:[^\W\d_][\w'’-]*[\s,.!]*){0,2}$", re.IGNORECASE)

SIGNATURE_NOTE = "Signature: not read as an order."
CLOSING_NOTE = "Not an order: a polite closing, not a condition."
NOT_AN_ORDER = "Not an order."

# the words of a heading above the orders: "Orders for Russia", "Spring 1901", "Unit Order To"
_HEADING_WORDS = frozenset(
    "ORDER ORDERS UNIT UNITS TO FOR OF THE MY OUR THIS THESE HERE ARE IS TURN SEASON PHASE YEAR SPRING FALL "
    "AUTUMN WINTER SUMMER MOVE MOVES MOVEMENT MOVEMENTS RETREAT RETREATS BUILD BUILDS ADJUSTMENT ADJUSTMENTS "
    "SET NEW FINAL".split())
_HEADING_MAX_WORDS = 10  # "My orders for this turn are:"; a longer line ending in ":" is a sentence


_COMMENT_MIN_WORDS = 4  # a sentence; "Kiel Berlin" is no comment but an order gone wrong


def chatter_kind(raw: str, words: Sequence[str], message: str | None, powers: Collection[str],
                 names_place: Callable[[str], bool]) -> str | None:
    """What line `raw` (its tokens `words`) is when the reader ignored it with `message`: one of
    KINDS, or None when it is something the player must see (prose naming a place, a place with no
    action). `names_place(word)`: whether a word is a province's name or abbreviation."""
    if message == SIGNATURE_NOTE:
        return SIGNATURE
    if message == CLOSING_NOTE:
        return SIGN_OFF
    if message != NOT_AN_ORDER or not words:
        return None
    if words[0] in GREETINGS:
        return GREETING
    if SIGN_OFF_LINE.match(raw):
        return SIGN_OFF
    wordy = [w for w in words if w[:1].isalpha()]
    if len(wordy) <= _HEADING_MAX_WORDS and (
            raw.rstrip().endswith(":") or all(w in _HEADING_WORDS or w in powers for w in wordy)):
        return HEADING
    if len(wordy) >= _COMMENT_MIN_WORDS and not any(names_place(w) for w in wordy):
        return COMMENT
    return None

