"""Press policy (2.15): what a press section is and whether the game's rules accept it.

A press section is the text under a heading line (gmserver.rules.reading.message):

    PRESS                          white press to every other power (broadcast)
    PRESS TO ENGLAND, FRANCE       white press to those powers only (partial press)
    GREY PRESS / ANONYMOUS PRESS   grey press: published without its author
    DARK GREY PRESS FROM ITALY     attributed to Italy, published marked as unverified
    BLACK PRESS FROM ITALY         attributed to a power other than the sender's, published as white
    PRESS FROM Scorpion Fan        signed with a label that is neither a power nor reserved: grey

Kinds: white is signed with the sender's own power; grey is unsigned or signed with a
label that is neither a power nor reserved; dark grey is attributed and marked unverified; black
is attributed to another power and published exactly like white press.

Pure: no I/O. Every refusal is a sentence a player can read, the rule in words and the clause after.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from gmserver.rules.geography import POWERS
from gmserver.rules.ruleset import Ruleset

KINDS = ("white", "grey", "dark_grey", "black")
KIND_WORDS = {"white": "white press", "grey": "grey (anonymous) press", "dark_grey": "dark grey press",
              "black": "black press (signed with another power's name)"}

# TO and FROM in either order ("BLACK PRESS FROM Italy TO England"); a signature with "to" or "if"
# in it is written in quotes (PRESS FROM "Back to the Future")
_HEADING = re.compile(
    r"^\s*(?:[-=*#]{2,}\s*)?(?P<kind>white|grey|gray|dark\s+gr[ae]y|black|broadcast|anonymous)?\s*press\b"
    r"(?:\s+(?:to|for)\s+(?P<to>.*?))?(?:\s+(?:from|signed|as)\s+(?P<sign>\"[^\"]+\"|.*?))?"
    r"(?:\s+(?:to|for)\s+(?P<to_after>.*?))?"
    r"(?:\s+(?P<if>if|unless)\s+(?P<cond>.*?))?"
    r"\s*:?\s*(?:[-=*#]{2,})?\s*$", re.IGNORECASE)
# what a refusal of a heading shows would have been read
EXAMPLE_HEADING = "BLACK PRESS FROM The Pope TO England, Italy"
# 002 PRESS 2 (press_from_non_players): the author of press from someone who plays no power in the
# game; it is never shown, and such press is grey: it "claims to come from no particular country"
NON_PLAYER = "NON-PLAYER"
NON_PLAYER_HEADING = "From someone who plays no power"
_ALL = {"all", "everyone", "everybody", "all powers", "all players"}
# the names players write for powers: the name and its first three letters ("Eng", "Fra")
_POWER_NAMES = {**{power.casefold(): power for power in POWERS},
                **{power[:3].casefold(): power for power in POWERS},
                "aut": "AUSTRIA", "a-h": "AUSTRIA", "gb": "ENGLAND", "uk": "ENGLAND"}


@dataclass(frozen=True)
class PressItem:
    """One press section as the author wrote it. `recipients` empty: to every power (broadcast)."""

    kind: str
    recipients: tuple[str, ...]
    signature: str | None  # the label it is signed with; None for unsigned (grey) press
    text: str
    # "PRESS IF I GAIN BELGIUM" (conditional_press, 003 [9]): published only if it holds
    condition: str | None = None
    negated: bool = False  # written with UNLESS

    @property
    def condition_words(self) -> str:
        """"if its condition ("I gain Belgium") holds on the season's results", for the author."""
        holds = "does not hold" if self.negated else "holds"
        # a condition on other press (002 PRESS 4) is decided by what the same report publishes
        on = ("in what the same report publishes" if re.search(r"\bpress\b", (self.condition or "").casefold())
              else "on the season's results")
        return f"if its condition (\"{self.condition}\") {holds} {on}"


@dataclass(frozen=True)
class Verdict:
    """What becomes of a press item: "send" (or publish), "held" for the GM, or "refused"."""

    action: str
    reason: str = ""


def clause_of(ruleset: Ruleset, option: str) -> str | None:
    """The clause of the game's profile for a press option ("002 PRESS 3"), None where it is silent."""
    return ruleset.cites(option)


def cite(ruleset: Ruleset, option: str) -> str:
    cited = clause_of(ruleset, option)
    return f"house rules {cited}" if cited else "this game's rules, where its house rules are silent"


def power_named(word: str) -> str | None:
    """The power a player's word names ("England", "eng", "UK"), or None."""
    return _POWER_NAMES.get(" ".join(word.split()).casefold().strip(" .,;"))


# A signature that is a power's name in another language, its adjective, or the name misspelt,
# spaced out or written with look-alike letters claims to come from that power as much as the name
# itself ("Frankreich", "Ital y", "Itа1y"): 002 PRESS 2 reserves such press for the game's players.
_POWER_ALIASES = {
    "AUSTRIA": ("austrian", "austriahungary", "austrohungary", "austrohungarian", "osterreich", "oesterreich",
                "autriche", "oostenrijk", "avstriya", "австрия"),
    "ENGLAND": ("english", "britain", "greatbritain", "british", "unitedkingdom", "angleterre", "inghilterra",
                "inglaterra", "engeland", "anglia", "англия"),
    "FRANCE": ("french", "frankreich", "francia", "franca", "frankrijk", "francja", "frankrike", "франция"),
    "GERMANY": ("german", "deutschland", "allemagne", "germania", "alemania", "alemanha", "duitsland", "niemcy",
                "tyskland", "prussia", "preussen", "германия"),
    "ITALY": ("italian", "italia", "italien", "italie", "wlochy", "италия"),
    "RUSSIA": ("russian", "russland", "russie", "rusia", "rusland", "rosja", "ryssland", "россия"),
    "TURKEY": ("turkish", "turkei", "turquie", "turchia", "turquia", "turkije", "turcja", "turkiye", "ottoman",
               "ottomanempire", "ottomans", "турция"),
}
# letters and digits written for the Latin letters they look like
_LOOK_ALIKES = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "$": "s", "@": "a",
                              "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
                              "к": "k", "т": "t", "н": "h", "м": "m", "в": "b", "ı": "i"})
_ALIASES = {alias: power for power, aliases in _POWER_ALIASES.items() for alias in aliases}


def _letters(text: str) -> str:
    """`text` as bare lower-case letters: accents, spaces and punctuation dropped."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if char.isalpha() and not unicodedata.combining(char))


def power_claimed(signature: str) -> str | None:
    """The power a press signature claims to come from, however written: its name or abbreviation
    (power_named), the name in another language or its adjective, spaced out, with look-alike
    letters, one letter off ("Itlay") or as one word of it ("The Italian"); None for a label that
    claims no power ("The Pope")."""
    if (power := power_named(signature)) is not None:
        return power
    # a power's name as one word of it ("The Italian", "Voice of Russia")
    for word in re.split(r"[\s,;:/]+", signature):
        written = _letters(word.casefold().translate(_LOOK_ALIKES))
        if len(written) >= 4 and (power := _POWER_NAMES.get(written) or _ALIASES.get(written)) is not None:
            return power
    for written in {_letters(signature), _letters(signature.casefold().translate(_LOOK_ALIKES)),
                    _letters(signature.casefold().replace("1", "i").translate(_LOOK_ALIKES))}:
        if (power := _POWER_NAMES.get(written) or _ALIASES.get(written)) is not None:
            return power
        for power in POWERS:
            name = power.casefold()
            if len(written) >= 5 and SequenceMatcher(None, written, name).ratio() >= 0.8 and (
                    abs(len(written) - len(name)) <= 1):
                return power
    return None


def read_item(heading: str, text: str, author: str) -> PressItem | str:
    """The press item a heading and its text make, or why the heading cannot be read (in words)."""
    found = _HEADING.match(heading or "press")
    if found is None:
        return f"the press heading \"{heading.strip()}\" could not be read{_HEADINGS_READ}"
    if found["to"] and found["to_after"]:
        return f"\"{heading.strip()}\" names its recipients twice{_HEADINGS_READ}"
    word = " ".join((found["kind"] or "").casefold().split()).replace("gray", "grey")
    recipients: list[str] = []
    # a name that is no power is refused: press meant for some powers is never sent to all
    for name in re.split(r"\s*(?:,|\band\b|&|/)\s*", (found["to"] or found["to_after"] or "").strip()):
        if not name or name.casefold() in _ALL:
            continue
        power = power_named(name)
        if power is None:
            return f"\"{name}\" in \"{heading.strip()}\" is not one of the powers{_HEADINGS_READ}"
        if power != author and power not in recipients:
            recipients.append(power)
    signature = (found["sign"] or "").strip().strip('"').strip() or None
    condition = (found["cond"] or "").strip() or None
    return PressItem(_kind(word, signature, author), tuple(recipients), signature, text.strip("\n"),
                     condition, (found["if"] or "").casefold() == "unless")


_HEADINGS_READ = f"; a heading like \"{EXAMPLE_HEADING}\" would have been read"


def _kind(word: str, signature: str | None, author: str) -> str:
    if word == "dark grey":
        return "dark_grey"
    signed_as = power_claimed(signature) if signature else None
    if word in ("grey", "anonymous") and (signed_as is None or signed_as == author):
        return "grey"
    # grey press "claims to come from no particular country" (002 PRESS 1): signed as another
    # power, however spelt, it is black press
    if word in ("black", "grey", "anonymous") or (signed_as is not None and signed_as != author):
        return "black"
    if signature is not None and signed_as is None:
        return "grey"  # a label that is not a power (reserved labels are checked in judge)
    return "white"


def as_non_player(item: PressItem) -> PressItem:
    """Press from a non-player (002 PRESS 2): signed with no power of its own, so what reads as white
    press (unsigned, or signed with a free label) is grey, "from no particular country"."""
    if item.kind == "white":
        return PressItem("grey", item.recipients, item.signature, item.text, item.condition, item.negated)
    return item


def reserved_holder(ruleset: Ruleset, label: str | None) -> str | None:
    """Who alone may sign with `label`, or None when it is free."""
    if not label:
        return None
    for reserved in ruleset.press_reserved_labels:
        if reserved.label.casefold() == label.strip().casefold():
            return reserved.holder
    return None


def with_own_label(ruleset: Ruleset, item: PressItem, author: str) -> PressItem:
    """Press signed with a label reserved for the author's own power ("Lon" from England, 003 [9])
    is white press: it names its author."""
    if item.kind == "grey" and item.signature and reserved_holder(ruleset, item.signature) == author:
        return PressItem("white", item.recipients, item.signature, item.text, item.condition, item.negated)
    return item


def judge(ruleset: Ruleset, item: PressItem, author: str, *, may_sign_as_players: bool = True,
          game_started: bool = True) -> Verdict:
    """Whether the game's rules accept `item` from `author` (a power). `may_sign_as_players`: the
    author is a current player or one eliminated in this game (002 PRESS 2); `game_started`: the
    first turn has been adjudicated (002 PRESS 5)."""
    if not ruleset.press_before_first_turn and not game_started:
        return Verdict("refused", "press is not published before the first turn of the game ("
                       f"{cite(ruleset, 'press_before_first_turn')})")
    if item.condition is not None and ruleset.conditional_press == "none":
        return Verdict("refused", "press conditional on the season's moves is not accepted in this game "
                                  f"({cite(ruleset, 'conditional_press')})")
    if item.kind not in ruleset.press_kinds:
        allowed = " and ".join(KIND_WORDS[kind] for kind in KINDS if kind in ruleset.press_kinds) or "no press"
        # why a label reads as another power's black press, where it is not that power's name as written
        claimed = power_claimed(item.signature) if item.kind == "black" and item.signature else None
        read_as = (f" (the signature \"{item.signature}\" reads as {claimed.title()})"
                   if claimed is not None and power_named(item.signature or "") is None else "")
        return Verdict("refused", f"{KIND_WORDS[item.kind]}{read_as} is not accepted in this game, only {allowed} "
                                  f"({cite(ruleset, 'press_kinds')})")
    if (refusal := _signature_refusal(ruleset, item, author, may_sign_as_players)) is not None:
        return Verdict("refused", refusal)
    if ruleset.press_moderation == "gm_approval":
        # 003 [9]: "Press that insults another player on a personal level will not be published":
        # only a person can tell, so every item waits for the GM's approval
        return Verdict("held", "press is published once the GM has approved it "
                               f"({cite(ruleset, 'press_moderation')})")
    return Verdict("send")


def _signature_refusal(ruleset: Ruleset, item: PressItem, author: str, may_sign_as_players: bool) -> str | None:
    holder = reserved_holder(ruleset, item.signature)
    clause = cite(ruleset, "press_reserved_labels")
    if holder == "gm":
        return f"the signature \"{item.signature}\" is reserved for the GM ({clause})"
    if holder == "players_and_eliminated" and not may_sign_as_players:
        # 002 PRESS 2 says who may sign as a power: current and eliminated players
        return (f"the signature \"{item.signature}\" is reserved for the game's current and eliminated players "
                f"({cite(ruleset, 'press_power_attribution')})")
    if holder in POWERS and holder != author:
        return f"the signature \"{item.signature}\" is reserved for {holder.title()} ({clause})"
    if not may_sign_as_players and item.signature and (claimed := power_claimed(item.signature)) is not None:
        # 002 PRESS 2: only current and eliminated players may sign as one of the seven powers
        return (f"the signature \"{item.signature}\" reads as {claimed.title()}, and press signed with a power's name "
                "is accepted only from the game's current and eliminated players "
                f"({cite(ruleset, 'press_power_attribution')})")
    if item.kind in ("black", "dark_grey") and item.signature is None:
        return f"{KIND_WORDS[item.kind]} must say whose name it carries, e.g. \"BLACK PRESS FROM ITALY\""
    if item.kind == "black":
        if ruleset.press_power_attribution == "own_power_only":
            return ("press may be signed only with your own power's name "
                    f"({cite(ruleset, 'press_power_attribution')})")
    return None


def shown_author(item: PressItem, author: str) -> str | None:
    """The name a recipient sees: the author's power for white press, the signature for black and
    dark grey, nothing for grey (its author is never revealed, 003 [9], 000 X(2))."""
    if item.kind == "white":
        return author.title()
    if item.kind == "black":
        return signed_name(item.signature)
    return item.signature  # grey: a free label, never the author


def signed_name(signature: str | None) -> str | None:
    """How black press is signed: a power written as a player writes it ("ita") under the power's
    name, as white press is (002 PRESS 1: the two are not told apart); anything else exactly as the
    author wrote it ("The Pope", "Frankreich"), never replaced by the author's own power."""
    if signature is None:
        return None
    power = power_named(signature)
    return power.title() if power is not None else signature


def recipients_of(item: PressItem, author: str, powers: Iterable[str]) -> tuple[str, ...]:
    """The powers that receive `item`: those named, else every power but the author's."""
    if item.recipients:
        return tuple(power for power in item.recipients if power != author)
    return tuple(sorted(power for power in powers if power != author))


def reply_heading(kind: str, author: str, recipients: Sequence[str], replier: str) -> str | None:
    """The press heading a reply to a press item takes, when the reply writes none: press to the
    item's other participants. A reply to press sent to every power is press to every power; a
    reply to partial press goes to its author and its other recipients. The author of press that
    does not name it truly (grey, dark grey, black: 002 PRESS 1) is not answered, since the reply's
    answer would name it; None when nobody is left to answer."""
    if not recipients:
        return "press"
    named_author = (author,) if kind == "white" and author != NON_PLAYER else ()
    others = [power for power in (*named_author, *recipients) if power != replier]
    if not others:
        return None
    return "press to " + ", ".join(power.title() for power in dict.fromkeys(others))


def others_receiving(item: PressItem, author: str, power: str) -> tuple[str, ...]:
    """Who else receives partial press that `power` receives, as its copy says ("to you and
    England"): the named recipients but `power` and the author. Empty for press to every power."""
    return tuple(other for other in recipients_of(item, author, ()) if other != power) if item.recipients else ()


@dataclass(frozen=True)
class ReportPress:
    """One press item as the turn report prints it. `placement`: "orders" (under its author's
    orders, 000 X(1)), "anonymous" (the "Anonymous Press" section, 000 X(1)) or "press"."""

    placement: str
    power: str | None  # the power whose orders it follows, for placement "orders"
    heading: str  # "From France", "Anonymous", "From Italy (unverified)"
    text: str


def report_placement(ruleset: Ruleset, kind: str, signature: str | None, author: str) -> ReportPress:
    """Where and under which name the report prints a press item."""
    if kind == "grey":
        # 002 PRESS 2: press from someone who plays no power says so, so that nobody takes a
        # stranger's words for a fellow player's anonymous press
        heading = (f"Signed \"{signature}\"" if signature
                   else NON_PLAYER_HEADING if author == NON_PLAYER else "Anonymous")
        place = "anonymous" if ruleset.grey_press_placement == "anonymous_section" else "press"
        return ReportPress(place, None, heading, "")
    if kind == "dark_grey":
        return ReportPress("press", None, f"From {signature} (unverified)", "")
    if kind == "black":
        # published like white press (000 X(1) "officially", 002 PRESS 1) under the name the
        # author chose, never the author's own
        shown = power_named(signature or "")
        if shown is None or ruleset.white_press_placement != "with_author_orders":
            return ReportPress("press", None, f"From {signed_name(signature) or 'nobody named'}", "")
        return ReportPress("orders", shown, f"Press from {shown.title()}", "")
    if ruleset.white_press_placement == "with_author_orders":
        return ReportPress("orders", author, f"Press from {author.title()}", "")
    return ReportPress("press", None, f"From {author.title()}", "")


# --- the GM's edits (press_editing, 002 PRESS 1 "Press may be edited", 3) -------------------------

# 002 PRESS 3: "unless a player specifically requests otherwise": a line of its own in the press
# saying NO EDITS (or DO NOT EDIT, VERBATIM) is that request; it is published with the press
_NO_EDITS = re.compile(r"^\W*(?:no\s+edits?|do\s+not\s+edit|don'?t\s+edit|verbatim)\W*$", re.IGNORECASE | re.MULTILINE)
NO_EDITS_WORDS = "NO EDITS"
# an edit keeps this much of the text (difflib's ratio): spelling and punctuation, not rewriting
EDIT_SIMILARITY = 0.8


def declines_edits(text: str) -> bool:
    """The author asked that the press be published exactly as written (002 PRESS 3)."""
    return bool(_NO_EDITS.search(text))


def editing_words(ruleset: Ruleset, text: str) -> str:
    """What the author is told about the GM's edits, after the press confirmation's sentence."""
    if ruleset.press_editing == "none":
        return ""
    clause = cite(ruleset, "press_editing")
    if declines_edits(text):
        return f"It will be published exactly as written: you asked for no edits ({clause})."
    return (f"The GM may correct its spelling and punctuation ({clause}); a line \"{NO_EDITS_WORDS}\" in the "
            "press asks the GM not to.")


def edit_refusal(ruleset: Ruleset, original: str, edited: str) -> str | None:
    """Why the GM may not replace `original` with `edited` (press_editing), or None."""
    if ruleset.press_editing == "none":
        return f"press is published exactly as written in this game ({cite(ruleset, 'press_editing')})"
    clause = cite(ruleset, "press_editing")
    if declines_edits(original):
        return f"its author asked for no edits (\"{NO_EDITS_WORDS}\"), so it is published as written ({clause})"
    if not edited.strip():
        return "the edited text is empty: drop the item instead (gmserver press drop)"
    if SequenceMatcher(None, original, edited, autojunk=False).ratio() < EDIT_SIMILARITY:
        return f"the edit changes more than spelling and punctuation ({clause})"
    return None
