"""The catalogue of ruleset options: one row per house-rule option, by section (2.1 to 2.11).

This table is the only place that knows an option's allowed values, default and whether gmserver
applies it (`Support`: applied, partial or not applied, and what gmserver does instead);
validation, defaults, snapshots, `gmserver ruleset show`, the warning of `gmserver game create`
and docs/rulesets.md are all driven by it. Adding an option is one row here (a closed set of
values is a Literal just above the row, which `Choice.of` reads and the `Ruleset` field is typed
by), its field on `Ruleset`, and its value in each profile, with the clause its document gives
(`clause.KEY`). The module is longer than the others on purpose: it is one table, and splitting
the rows would split the one source of truth.

Values are kept as the profiles spell them. A few value kinds exist beyond plain choices: counts
that may be "none" (or "unlimited"), sets, token lists, and three structures (reminders, reserved
press labels, per-kind vote rules). Every kind parses both the TOML spelling and the Python value,
and dumps to something both TOML and JSON can hold, so a snapshot can be written back out as a file.

Pure: standard library only, nothing done at import time beyond building the table.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from gmserver.rules.geography import POWERS

SECTIONS: dict[str, str] = {
    "2.1": "Order submission & identification",
    "2.2": "Sender & auth",
    "2.3": "Order interpretation",
    "2.4": "Order sets & versions",
    "2.5": "Adjudication",
    "2.6": "Retreats",
    "2.7": "Adjustments & civil disorder",
    "2.8": "Deadlines, reminders & NMR",
    "2.9": "Press",
    "2.10": "Votes & game end",
    "2.11": "GM corrections",
}

# Reserved press labels name their holder with the engine's power names (as in MapInfo.powers).
LABEL_HOLDERS = ("gm", "players_and_eliminated", *POWERS)
REMINDER_AUDIENCES = ("powers_without_set", "all_powers")
VOTE_KINDS = ("concession", "draw", "end_game_any_terms", "rule_change", "deadline_change")


# --- structured values ----------------------------------------------------------------------


@dataclass(frozen=True)
class Reminder:
    """One reminder per turn. `hours_before` the deadline, or None: sent with the report that
    opens the turn (003 [11] "send provisional orders as soon as the adjudication arrives")."""

    audience: str
    hours_before: int | None


@dataclass(frozen=True)
class ReservedLabel:
    """A press signature only `holder` may use: "gm", "players_and_eliminated"
    (002 PRESS 2) or one power."""

    label: str
    holder: str


@dataclass(frozen=True)
class VoteKindRules:
    """`vote.<kind>.*`: the effective vote of a missing vote and of a declared abstention."""

    uncast: VoteValue
    abstention: VoteValue
    gm_must_agree: bool = False  # an option only for rule_change (000 IX(3)); False elsewhere


@dataclass(frozen=True)
class VoteRules:
    concession: VoteKindRules
    draw: VoteKindRules
    end_game_any_terms: VoteKindRules
    rule_change: VoteKindRules
    deadline_change: VoteKindRules


# --- value kinds ----------------------------------------------------------------------------


def _shown(raw: object) -> str:
    """A value as the TOML writer would see it, with its type, for error messages."""
    names = {bool: "boolean", int: "integer", float: "float", str: "string", list: "array",
             tuple: "array", dict: "table", type(None): "null"}
    kind = names.get(type(raw), type(raw).__name__)
    shown = str(raw).lower() if isinstance(raw, bool) else repr(raw)
    return f"{kind} {shown}"


def _is_int(raw: object) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)  # bool is an int subclass


def did_you_mean(word: str, candidates: tuple[str, ...] | list[str]) -> str:
    """'; did you mean 'x'?' for the closest candidate, or ''."""
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class Kind:
    """How one option's value is spelled, checked and written back. `parse` raises ValueError
    with a message that says what was expected."""

    def parse(self, raw: object) -> Any:
        raise NotImplementedError

    def dump(self, value: Any) -> Any:
        return value

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Choice(Kind):
    values: tuple[str, ...]

    @classmethod
    def of(cls, literal: Any) -> Choice:
        """The choice of a Literal type's values: the type `Ruleset` gives the option's field."""
        return cls(get_args(literal))

    def parse(self, raw: object) -> str:
        if not isinstance(raw, str):
            raise ValueError(f"expected a string ({', '.join(self.values)}); got {_shown(raw)}")
        if raw not in self.values:
            raise ValueError(f"{raw!r} is not allowed; allowed: {', '.join(self.values)}"
                             + did_you_mean(raw, self.values))
        return raw

    def describe(self) -> str:
        if len(self.values) == 1:  # one value: the same in every document
            return f"always {self.values[0]} (no alternative in any profile)"
        return "one of " + ", ".join(self.values)


@dataclass(frozen=True)
class Flag(Kind):
    allowed: tuple[bool, ...] = (True, False)

    def parse(self, raw: object) -> bool:
        if not isinstance(raw, bool):
            raise ValueError(f"expected a boolean (true or false); got {_shown(raw)}")
        if raw not in self.allowed:
            raise ValueError(f"{str(raw).lower()} is not allowed; allowed: {self.describe()}")
        return raw

    def describe(self) -> str:
        return " or ".join(str(b).lower() for b in self.allowed)


@dataclass(frozen=True)
class Count(Kind):
    """A whole number; with `none_word`, that word (or None) means "no limit / not used"."""

    minimum: int = 0
    none_word: str | None = None

    def parse(self, raw: object) -> int | None:
        if self.none_word is not None and (raw is None or raw == self.none_word):
            return None
        if not _is_int(raw):
            raise ValueError(f"expected {self.describe()}; got {_shown(raw)}")
        if raw < self.minimum:
            raise ValueError(f"{raw} is too small; expected {self.describe()}")
        return raw

    def dump(self, value: int | None) -> int | str:
        return self.none_word if value is None else value

    def describe(self) -> str:
        text = f"an integer >= {self.minimum}"
        return text + (f" or {self.none_word!r}" if self.none_word else "")


def _items(raw: object, what: str) -> list[Any]:
    if isinstance(raw, (list, tuple, set, frozenset)):
        return list(raw)
    raise ValueError(f"expected an array of {what}; got {_shown(raw)}")


@dataclass(frozen=True)
class Subset(Kind):
    members: tuple[str, ...]

    def parse(self, raw: object) -> frozenset[str]:
        items = _items(raw, "strings")
        wrong = [i for i in items if i not in self.members]
        if wrong:
            raise ValueError(f"{', '.join(map(repr, wrong))} not allowed; expected {self.describe()}")
        return frozenset(items)

    def dump(self, value: frozenset[str]) -> list[str]:
        return [m for m in self.members if m in value]  # catalogue order, stable across runs

    def describe(self) -> str:
        return "a subset of {" + ", ".join(self.members) + "}"


@dataclass(frozen=True)
class Tokens(Kind):
    def parse(self, raw: object) -> tuple[str, ...]:
        items = _items(raw, "strings")
        if not all(isinstance(i, str) and i.strip() and not any(c.isspace() for c in i) for i in items):
            raise ValueError(f"expected {self.describe()}; got {_shown(raw)}")
        return tuple(dict.fromkeys(items))

    def dump(self, value: tuple[str, ...]) -> list[str]:
        return list(value)

    def describe(self) -> str:
        return "an array of tokens (strings without spaces)"


_GM_AFTER = re.compile(r"gm_after_([1-9][0-9]*)")


@dataclass(frozen=True)
class NmrLimit(Kind):
    """`nmr_limit_to_cd`: N consecutive NMRs put the power in CD; "gm_after_N" only flags the GM
    (001 V(2)); "none" never (002 ORDERS 0 makes each NMR a one-turn CD instead)."""

    def parse(self, raw: object) -> int | str | None:
        if raw is None or raw == "none":
            return None
        if (_is_int(raw) and raw >= 1) or (isinstance(raw, str) and _GM_AFTER.fullmatch(raw)):
            return raw
        raise ValueError(f"expected {self.describe()}; got {_shown(raw)}")

    def dump(self, value: int | str | None) -> int | str:
        return "none" if value is None else value

    def describe(self) -> str:
        return "an integer >= 1, 'gm_after_<n>' or 'none'"


@dataclass(frozen=True)
class DayChoices(Kind):
    """`turn_length_vote`: the deadline lengths in days players choose from at the start."""

    def parse(self, raw: object) -> tuple[int, ...] | None:
        if raw is None or raw == "none":
            return None
        items = _items(raw, "integers")
        if not items or not all(_is_int(i) and i >= 1 for i in items):
            raise ValueError(f"expected {self.describe()}; got {_shown(raw)}")
        return tuple(sorted(set(items)))

    def dump(self, value: tuple[int, ...] | None) -> list[int] | str:
        return "none" if value is None else list(value)

    def describe(self) -> str:
        return "'none' or a non-empty array of day counts"


def _table(raw: object, keys: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError(f"expected a table; got {_shown(raw)}")
    unknown = set(raw) - keys
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))}; fields: {', '.join(sorted(keys))}")
    missing = required - set(raw)
    if missing:
        raise ValueError(f"missing field(s) {', '.join(sorted(missing))}")
    return raw


@dataclass(frozen=True)
class Reminders(Kind):
    def parse(self, raw: object) -> tuple[Reminder, ...]:
        result = []
        for n, item in enumerate(_items(raw, "tables"), 1):
            try:
                if isinstance(item, Reminder):
                    item = self._dump_one(item)
                entry = _table(item, {"audience", "hours_before", "with_report"}, {"audience"})
                audience = Choice(REMINDER_AUDIENCES).parse(entry["audience"])
                # Exactly one timing: a reminder is either clock-based or rides on the report.
                if ("hours_before" in entry) == (entry.get("with_report") is True):
                    raise ValueError("give either hours_before = N or with_report = true")
                hours = Count(0).parse(entry["hours_before"]) if "hours_before" in entry else None
                result.append(Reminder(audience, hours))
            except ValueError as exc:
                raise ValueError(f"reminder {n}: {exc}") from None
        return tuple(result)

    @staticmethod
    def _dump_one(r: Reminder) -> dict[str, Any]:
        when = {"with_report": True} if r.hours_before is None else {"hours_before": r.hours_before}
        return {**when, "audience": r.audience}

    def dump(self, value: tuple[Reminder, ...]) -> list[dict[str, Any]]:
        return [self._dump_one(r) for r in value]

    def describe(self) -> str:
        return ("an array of tables {hours_before = N or with_report = true, audience = "
                + " | ".join(REMINDER_AUDIENCES) + "}")


@dataclass(frozen=True)
class Labels(Kind):
    def parse(self, raw: object) -> tuple[ReservedLabel, ...]:
        result: list[ReservedLabel] = []
        seen: set[str] = set()
        for n, item in enumerate(_items(raw, "tables"), 1):
            try:
                if isinstance(item, ReservedLabel):
                    item = {"label": item.label, "holder": item.holder}
                entry = _table(item, {"label", "holder"}, {"label", "holder"})
                label = entry["label"]
                if not isinstance(label, str) or not label.strip():
                    raise ValueError(f"label must be a non-empty string; got {_shown(label)}")
                if label.casefold() in seen:  # press signatures are matched case-insensitively
                    raise ValueError(f"label {label!r} is listed twice")
                seen.add(label.casefold())
                result.append(ReservedLabel(label, Choice(LABEL_HOLDERS).parse(entry["holder"])))
            except ValueError as exc:
                raise ValueError(f"label entry {n}: {exc}") from None
        return tuple(result)

    def dump(self, value: tuple[ReservedLabel, ...]) -> list[dict[str, str]]:
        return [{"label": r.label, "holder": r.holder} for r in value]

    def describe(self) -> str:
        return "an array of tables {label = \"...\", holder = " + " | ".join(LABEL_HOLDERS) + "}"


# --- whether gmserver applies an option -----------------------------------------------------

APPLIED, PARTIAL, NOT_APPLIED = "applied", "partial", "not_applied"
STATUSES = (APPLIED, PARTIAL, NOT_APPLIED)


@dataclass(frozen=True)
class Support:
    """Whether gmserver does what an option says, kept on the option's row so that the status
    cannot drift from the catalogue. `instead` says in words what gmserver does instead (for
    partial: what is and is not done). `same_as` is the value gmserver behaves as, when one
    value says it; `honoured`, for partial options, tells which values gmserver does carry
    out. A value that gmserver does not carry out is one the GM must be told about."""

    status: str
    instead: str = ""
    same_as: tuple[Any, ...] = ()  # (value,) in TOML spelling, or () when no value says it
    honoured: Callable[[Any], bool] | None = None

    def misleads(self, value: Any) -> bool:
        """True when a profile holding `value` promises something gmserver does not do."""
        if self.status == APPLIED:
            return False
        if self.honoured is not None:
            return not self.honoured(value)
        return not self.same_as or value != self.same_as[0]


def applied() -> Support:
    """gmserver does what the option says. An option with one allowed value is applied when
    gmserver always behaves that way, though no code needs to read it."""
    return Support(APPLIED)


def partial(instead: str, honoured: Callable[[Any], bool] | None = None) -> Support:
    return Support(PARTIAL, instead, honoured=honoured)


def not_applied(instead: str, *same_as: Any) -> Support:
    """`same_as`: the one value (TOML spelling) gmserver behaves as, if there is one."""
    return Support(NOT_APPLIED, instead, same_as=same_as[:1])


def moot(instead: str, parent: str) -> Support:
    """Not applied, but only meaningful with `parent`, which is not applied either and is the
    one reported to the GM; reporting both would repeat one fact."""
    return Support(NOT_APPLIED, f"{instead} (see {parent})", honoured=lambda value: True)


# --- the catalogue --------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    name: str
    section: str
    kind: Kind
    default: Any  # already parsed: the value `Ruleset` holds
    support: Support
    # value -> the rulebook or DATC section that gives it ("DATC 4.C.1", "RB2000"), cited for a
    # profile that holds the value where its own document is silent (no `clause.KEY`)
    sources: Mapping[Any, str] = field(default_factory=dict)

    @property
    def status(self) -> str:
        return self.support.status

    def misleads(self, value: Any) -> bool:
        """`value` (as `Ruleset` holds it) promises what gmserver does not do."""
        same = self.support.same_as
        support = self.support
        if same:  # compare in one spelling: the parsed value
            support = Support(support.status, support.instead, (self.kind.parse(same[0]),), support.honoured)
        return support.misleads(value)

    def describe(self) -> str:
        return f"{self.kind.describe()} (default: {_toml_text(self.kind.dump(self.default))})"


def toml_text(value: Any) -> str:
    """A value as it is written in a profile file."""
    return _toml_text(value)


def _toml_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_text(v)}" for k, v in value.items()) + " }"
    return str(value)


_rows: list[OptionSpec] = []
# The sources of a value gmserver proposes where a document is silent: the rulebook and the
# DATC's reading of it. A house-rule document is never cited for another profile's game.
RULEBOOK_SOURCES = ("RB2000", "DATC ")


def _opt(name: str, section: str, kind: Kind, default: Any, support: Support,
         sources: Mapping[Any, str] | None = None) -> None:
    if support.same_as:
        kind.parse(support.same_as[0])  # a typo in the catalogue fails at import, not at a GM
    for value, source in (sources or {}).items():
        kind.parse(value)
        if not source.startswith(RULEBOOK_SOURCES):
            raise ValueError(f"{name}: {source!r}: a house-rule document is cited by its profile's clause.KEY")
    _rows.append(OptionSpec(name, section, kind, kind.parse(default), support, dict(sources or {})))


VoteValue = Literal["yes", "no", "excluded"]  # vote.<kind>.uncast and .abstention
YES_NO_EXCLUDED = Choice.of(VoteValue)
BOOL = Flag()

# 2.1 Order submission & identification
_opt("subject_required_fields", "2.1", Subset(("game", "year", "season", "phase", "power", "version")),
     ["game", "year", "season", "power"], applied())
SubjectLocation = Literal["subject_only", "subject_or_body"]
_opt("subject_location", "2.1", Choice.of(SubjectLocation), "subject_or_body",
     applied())  # gmserver.rules.intake._read: the first lines of the message (body_heading)
SubjectTemplate = Literal["default", "mhr", "danivon", "email_rules", "scorpion"]
_opt("subject_template", "2.1", Choice.of(SubjectTemplate), "default",
     applied())
NonconformingSubjectPolicy = Literal["reject_with_reply", "hold_for_gm", "accept_with_warning"]
_opt("nonconforming_subject_policy", "2.1",
     Choice.of(NonconformingSubjectPolicy), "reject_with_reply",
     applied())  # hold_for_gm: gmserver.services.features.held (`gmserver inbox release | refuse`)
SeasonMismatchPolicy = Literal["reject_with_reply", "hold_for_gm"]
_opt("season_mismatch_policy", "2.1", Choice.of(SeasonMismatchPolicy), "reject_with_reply",
     applied())
RecipientHeaderRule = Literal["to_only", "any"]
_opt("recipient_header_rule", "2.1", Choice.of(RecipientHeaderRule), "any",
     applied())  # gmserver.rules.intake._recipient_refusal (000 II(2) a)
# confirm_each_set = false: a set read exactly as written is filed without a reply; any other set
# is confirmed (rules/set_feedback.py). Either way at most 12 confirmations an hour per player.
_opt("confirm_each_set", "2.1", BOOL, True, applied())
# invalid_set_feedback (rules/set_feedback.py): under conditional_mhr (000 III(1)) the line-by-line
# reading and a question only when (a) the GM has not switched clarifications off for the player
# (`gmserver game clarify`, players.clarifications; `game show` gives the GM how many of the
# player's sets had invalid lines), (b) clarification_min_hours remain, (c) the set is not meant
# as written; otherwise a receipt saying which condition failed
InvalidSetFeedback = Literal["echo_always", "conditional_mhr", "receipt_only"]
_opt("invalid_set_feedback", "2.1", Choice.of(InvalidSetFeedback), "echo_always",
     applied())
_opt("clarification_min_hours", "2.1", Count(0), 12,
     applied())  # condition (b) of conditional_mhr, rules/set_feedback.py
# text_attachments [P]: no seed speaks of attached files; read or not, the answer names each one
# (rules/reading/message.read_message)
_opt("text_attachments", "2.1", BOOL, False, applied())

# 2.2 Sender & auth
SenderPolicy = Literal["registered_only", "registered_with_fallback"]
_opt("sender_policy", "2.2", Choice.of(SenderPolicy), "registered_with_fallback",
     applied())
AddressChange = Literal["from_known_address", "gm_only"]
_opt("address_change", "2.2", Choice.of(AddressChange), "from_known_address",
     applied())  # a player's "ADDRESS new@..." request (services/inbox/handlers/requests.py); the GM: game address
GmCommandAuth = Literal["gm_address_and_secret", "gm_address_only"]
_opt("gm_command_auth", "2.2", Choice.of(GmCommandAuth), "gm_address_and_secret",
     applied())  # services/commands/gm_commands.py; the secret is the game's GM secret on a "Password:" line
# services/features/proxies.py, rules/proxies.py: "PROXY holder" by mail, `gmserver game proxy`, intake of the holder's mail
ProxyPolicy = Literal["forbidden", "gm_approval", "allowed_with_notice"]
_opt("proxy_policy", "2.2", Choice.of(ProxyPolicy), "forbidden",
     applied())  # a whole power or some units (followed as they move), one turn, N turns or until cancelled
_opt("proxy_cancel_notifies_holder", "2.2", BOOL, False, applied())
ProxyPrecedence = Literal["holder_then_owner", "holder_only"]
_opt("proxy_precedence", "2.2", Choice.of(ProxyPrecedence), "holder_then_owner",
     applied())  # rules/proxies.py sets_that_count
PerpetualOrders = Literal["forbidden", "gm_approval", "allowed"]
_opt("perpetual_orders", "2.2", Choice.of(PerpetualOrders), "forbidden",
     partial("the GM keeps a power's set (`gmserver game perpetual`, 000 II(4)); a player cannot mark their own "
             "set perpetual by mail: under `allowed` they ask the GM",
             honoured=lambda value: value != "allowed"))  # services/features/perpetual.py, rules/perpetual.py

# 2.3 Order interpretation
InterpretationPresumption = Literal["literal", "complete_valid_set"]
_opt("interpretation_presumption", "2.3", Choice.of(InterpretationPresumption), "literal",
     applied(), sources={"literal": "DATC 4.E.2"})
AbbreviationTable = Literal["standard", "email_rules_list", "scorpion_list"]
_opt("abbreviation_table", "2.3", Choice.of(AbbreviationTable), "standard",
     applied())
AbbreviationPolicy = Literal["table_only", "any_unambiguous"]
_opt("abbreviation_policy", "2.3", Choice.of(AbbreviationPolicy), "any_unambiguous",
     applied(), sources={"any_unambiguous": "RB2000"})
PartialNames = Literal["accept", "reject"]
_opt("partial_names", "2.3", Choice.of(PartialNames), "accept", applied())
_opt("forbidden_abbreviations", "2.3", Tokens(), [], applied())
_opt("player_abbreviation_lists", "2.3", BOOL, False, applied())
UnitLocationMatching = Literal["map_only", "own_units"]
_opt("unit_location_matching", "2.3", Choice.of(UnitLocationMatching), "map_only", applied())
TypoTolerance = Literal["none", "unambiguous_only", "generous"]
_opt("typo_tolerance", "2.3", Choice.of(TypoTolerance), "unambiguous_only",
     applied())
# province_languages [P]: the names of the published French, German and Italian editions read
# besides English (rules/reading/foreign_names.py); a known name of another province is never
# typo-corrected into an English one, whatever this says
_opt("province_languages", "2.3", Subset(("fr", "de", "it")), [], applied())
ValidNameTypos = Literal["literal", "correct_if_illegal"]
_opt("valid_name_typos", "2.3", Choice.of(ValidNameTypos), "literal", applied())
UnitTypeOmitted = Literal["accept", "invalid"]
_opt("unit_type_omitted", "2.3", Choice.of(UnitTypeOmitted), "accept", applied(), sources={"accept": "DATC 4.C.1"})
UnitTypeWrong = Literal["ignore", "invalid"]
_opt("unit_type_wrong", "2.3", Choice.of(UnitTypeWrong), "ignore", applied(), sources={"ignore": "DATC 4.C.2"})
# invalid_for_supports: 003 [21] demands nationality for supports of foreign units only, while
# convoys stay "silent -> accept"; the two values cannot say that (see the TOML comment).
NationalityOmitted = Literal["accept", "invalid", "invalid_for_supports"]
_opt("nationality_omitted", "2.3", Choice.of(NationalityOmitted), "accept",
     applied(), sources={"accept": "DATC 4.C.5"})
NationalityWrong = Literal["ignore", "invalid"]
_opt("nationality_wrong", "2.3", Choice.of(NationalityWrong), "ignore", applied(), sources={"ignore": "DATC 4.C.6"})
CoastOmittedMove = Literal["accept_if_unique", "always_invalid"]
_opt("coast_omitted_move", "2.3", Choice.of(CoastOmittedMove), "accept_if_unique",
     applied(), sources={"accept_if_unique": "DATC 4.B.1"})
CoastWrongDestination = Literal["redirect_if_unique", "invalid"]
_opt("coast_wrong_destination", "2.3", Choice.of(CoastWrongDestination), "invalid", applied(),
     sources={"invalid": "DATC 4.B.3"})
CoastOwnLocation = Literal["ignore", "must_match_if_given"]
_opt("coast_own_location", "2.3", Choice.of(CoastOwnLocation), "ignore", applied(), sources={"ignore": "DATC 4.B.5"})
CoastSupportOmitted = Literal["accept_always", "accept_if_unique", "always_invalid"]
_opt("coast_support_omitted", "2.3", Choice.of(CoastSupportOmitted),
     "accept_always", applied(), sources={"accept_always": "DATC 4.B.4"})
CoastSupportMismatch = Literal["ignore", "accept_if_unique", "invalid"]
_opt("coast_support_mismatch", "2.3", Choice.of(CoastSupportMismatch), "invalid",
     applied(), sources={"invalid": "DATC 4.B.4"})
MultipleOrdersSameUnit = Literal["first", "last", "conflict_holds", "identical_ok_else_stand"]
_opt("multiple_orders_same_unit", "2.3",
     Choice.of(MultipleOrdersSameUnit), "conflict_holds",
     applied(), sources={"conflict_holds": "DATC 4.D.3"})
_opt("multiple_orders_skip_illegal", "2.3", BOOL, False, applied())
HoldPlusSupport = Literal["support_wins", "by_multiple_order_rule"]
_opt("hold_plus_support", "2.3", Choice.of(HoldPlusSupport), "by_multiple_order_rule",
     applied())
ImpossibleMoveTreatment = Literal["hold_supportable", "failed_move_unsupportable"]
_opt("impossible_move_treatment", "2.3", Choice.of(ImpossibleMoveTreatment),
     "hold_supportable", applied(), sources={"hold_supportable": "DATC 4.E.1"})
# move_to_own_province is "derived: equals impossible_move_treatment": a property, not an option.
_opt("convoy_possible_move_legal", "2.3", BOOL, True, applied(), sources={True: "DATC 4.E.1"})
NonsenseOrderTreatment = Literal["hold", "ignore_line"]
_opt("nonsense_order_treatment", "2.3", Choice.of(NonsenseOrderTreatment), "hold", applied())
ParentheticalOrder = Literal["use", "ignore"]
_opt("parenthetical_order", "2.3", Choice.of(ParentheticalOrder), "use", applied())
ImpliedOrders = Literal["none", "from_own_support", "from_own_support_and_convoy"]
_opt("implied_orders", "2.3", Choice.of(ImpliedOrders), "none",
     applied(), sources={"none": "DATC 4.E.3"})
CombinedOrders = Literal["accept", "reject"]
_opt("combined_orders", "2.3", Choice.of(CombinedOrders), "accept", applied(), sources={"accept": "RB2000"})
OrdersForMissingUnits = Literal["void_and_report"]
_opt("orders_for_missing_units", "2.3", Choice.of(OrdersForMissingUnits), "void_and_report", applied())
ConditionalMovementOrders = Literal["strip_condition", "void_line"]
_opt("conditional_movement_orders", "2.3", Choice.of(ConditionalMovementOrders), "void_line",
     applied())
ContingentMinorOrders = Literal["accepted", "rejected"]
_opt("contingent_minor_orders", "2.3", Choice.of(ContingentMinorOrders), "accepted", applied())
ConditionalAdjustmentOrders = Literal["none", "objective_only"]
_opt("conditional_adjustment_orders", "2.3", Choice.of(ConditionalAdjustmentOrders), "objective_only",
     applied())

# 2.4 Order sets & versions
SetCombination = Literal["replace", "merge_per_unit", "replace_unless_marked_change"]
_opt("set_combination", "2.4", Choice.of(SetCombination), "replace",
     applied(), sources={"replace": "DATC 4.D.1"})
SetOrdering = Literal["receipt_time", "version_then_receipt"]
_opt("set_ordering", "2.4", Choice.of(SetOrdering), "receipt_time", applied())
DefaultSetStatus = Literal["preliminary", "final"]
_opt("default_set_status", "2.4", Choice.of(DefaultSetStatus), "final", applied())
_opt("publish_overridden_orders", "2.4", BOOL, False,
     not_applied("results list only the orders that stood", False))
ReportOrderSequence = Literal["canonical", "as_written"]
_opt("report_order_sequence", "2.4", Choice.of(ReportOrderSequence), "canonical", applied())

# 2.5 Adjudication (the engine implements only the defaults)
Rulebook = Literal["rb2000", "gibsons1989", "rb1982"]
_opt("rulebook", "2.5", Choice.of(Rulebook), "rb2000",
     not_applied("orders are adjudicated by the 2000 rulebook, whichever rulebook the house rules name",
                 "rb2000"), sources={"rb2000": "RB2000"})
Datc4a1 = Literal["all_routes", "any_route", "mhr_hybrid"]
_opt("datc_4a1", "2.5", Choice.of(Datc4a1), "all_routes",
     partial("the engine's rule (a convoy fails only when every route is disrupted) decides the published result; "
             "under mhr_hybrid (000 VI(4), with the route the order named) and any_route (the 1971 rule) the server "
             "finds each convoy the rule says was disrupted and flags it to the GM with the result it would give "
             "(the GM rules with `gmserver game convoy`, after a rollback, and the turn is adjudicated "
             "again); it does not apply the rule by itself", lambda v: True))
Datc4a2 = Literal["szykman", "rb2000_all_hold_backup"]
_opt("datc_4a2", "2.5", Choice.of(Datc4a2), "szykman",
     applied())  # rb2000_all_hold_backup: rules/paradoxes.py resolves the paradox before the engine sees it
Datc4a3 = Literal["rb2000_intent"]
_opt("datc_4a3", "2.5", Choice.of(Datc4a3), "rb2000_intent",
     not_applied("the engine's own rule", "rb2000_intent"))
Datc4a4 = Literal["not_cut", "cut"]
_opt("datc_4a4", "2.5", Choice.of(Datc4a4), "not_cut",
     not_applied("the engine's own rule (support is not cut)", "not_cut"))
Datc4a5 = Literal["may_retreat", "may_not"]
_opt("datc_4a5", "2.5", Choice.of(Datc4a5), "may_retreat",
     not_applied("the engine's own rule (the unit may retreat)", "may_retreat"))
# rules/reading/moves.py keeps (or, required, demands) the route; rules/convoy_routes.py carries it out
Datc4a6 = Literal["ignored", "allowed_not_required", "required"]
_opt("datc_4a6", "2.5", Choice.of(Datc4a6), "ignored", applied(),
     sources={"ignored": "DATC 4.A.6", "allowed_not_required": "DATC 4.A.6", "required": "DATC 4.A.6"})
Datc4a7 = Literal["head_to_head_only", "never"]
_opt("datc_4a7", "2.5", Choice.of(Datc4a7), "head_to_head_only",
     not_applied("the engine's own rule (head-to-head only)", "head_to_head_only"))
ConvoyAgainstOwnUnit = Literal["allowed"]
_opt("convoy_against_own_unit", "2.5", Choice.of(ConvoyAgainstOwnUnit), "allowed",
     not_applied("the engine's own rule", "allowed"))

# 2.6 Retreats
NrrDefault = Literal["disband", "danivon_auto_retreat"]
_opt("nrr_default", "2.6", Choice.of(NrrDefault), "disband", applied())
IllegalRetreat = Literal["disband"]
_opt("illegal_retreat", "2.6", Choice.of(IllegalRetreat), "disband", applied(), sources={"disband": "RB2000"})
MultipleRetreatOrders = Literal["first", "last", "priority_list"]
_opt("multiple_retreat_orders", "2.6", Choice.of(MultipleRetreatOrders), "first", applied())
_opt("hopeless_orders_exempt", "2.6", BOOL, True, applied())  # rules/defaults.py hopeless: no reminder, no NMR counted
_opt("nmr_counts_minor_turns", "2.6", BOOL, False, applied())  # rules/nmr.py counts_phase

# 2.7 Adjustments & civil disorder
SeasonStructure = Literal["standard", "uk_two_season"]
_opt("season_structure", "2.7", Choice.of(SeasonStructure), "standard", applied())
# No document gives a default for the next option (and for danivon_within_class and
# stalemate_action); the default is the proposal of the one profile that uses it, so that a custom
# profile switching the parent option on gets a usable value.
TwoSeasonRetreatTiming = Literal["same_turn", "with_next_turn"]
_opt("two_season_retreat_timing", "2.7", Choice.of(TwoSeasonRetreatTiming), "same_turn",
     not_applied("retreats are sent with the moves they follow and applied in the same adjudication",
                 "same_turn"))
FallRetreatsAndAdjustments = Literal["separate", "combined_winter"]
_opt("fall_retreats_and_adjustments", "2.7", Choice.of(FallRetreatsAndAdjustments), "separate",
     not_applied("fall retreats and winter adjustments are separate turns", "separate"))
ExcessAdjustmentOrder = Literal["top_down", "bottom_up"]
_opt("excess_adjustment_order", "2.7", Choice.of(ExcessAdjustmentOrder), "top_down", applied(),
     sources={"top_down": "DATC 4.D.4, 4.D.6"})
MultipleBuildsSameCentre = Literal["first_top_down", "first_bottom_up"]
_opt("multiple_builds_same_centre", "2.7", Choice.of(MultipleBuildsSameCentre), "first_top_down",
     applied(), sources={"first_top_down": "DATC 4.D.5"})
BuildTypeOmitted = Literal["no_build", "army_if_inland", "army_inland_fleet_if_coast"]
_opt("build_type_omitted", "2.7", Choice.of(BuildTypeOmitted),
     "army_inland_fleet_if_coast", applied(), sources={"army_inland_fleet_if_coast": "DATC 4.C.3"})
FleetBuildInland = Literal["no_build"]
_opt("fleet_build_inland", "2.7", Choice.of(FleetBuildInland), "no_build", applied(),
     sources={"no_build": "DATC 4.C.4"})
ArmyBuildWithCoast = Literal["ignore_coast", "no_build"]
_opt("army_build_with_coast", "2.7", Choice.of(ArmyBuildWithCoast), "ignore_coast", applied(),
     sources={"ignore_coast": "DATC 4.B.6"})
FleetBuildCoastOmitted = Literal["no_build"]
_opt("fleet_build_coast_omitted", "2.7", Choice.of(FleetBuildCoastOmitted), "no_build", applied(),
     sources={"no_build": "DATC 4.B.7"})
NbrDefault = Literal["waive", "danivon_auto_build"]
_opt("nbr_default", "2.7", Choice.of(NbrDefault), "waive", applied())
RemovalAlgorithm = Literal["rb2000", "mhr", "danivon", "scorpion", "gwm"]
_opt("removal_algorithm", "2.7", Choice.of(RemovalAlgorithm), "rb2000", applied())
DanivonWithinClass = Literal["distance_then_alphabetical", "alphabetical_only"]
_opt("danivon_within_class", "2.7", Choice.of(DanivonWithinClass),
     "distance_then_alphabetical", applied())
AlphabeticalKey = Literal["english_names", "system_codes"]
_opt("alphabetical_key", "2.7", Choice.of(AlphabeticalKey), "english_names", applied())
CdMode = Literal["permanent", "gm_chooses", "per_turn_then_replace"]
_opt("cd_mode", "2.7", Choice.of(CdMode), "permanent",
     applied())  # rules/nmr.py after_turn; gm_chooses: the GM is told and decides with the game commands
_opt("cd_units_receive_hold_support", "2.7", Flag((True,)), True, applied())  # the engine's rule
_opt("record_cd_on_player", "2.7", BOOL, False, applied())  # players.cd_recorded, kept in player_history
FirstYearAbandonment = Literal["normal", "suspend_and_replace"]
_opt("first_year_abandonment", "2.7", Choice.of(FirstYearAbandonment), "normal",
     applied())  # services/features/nmr.py check_contact_windows: an abandonment in 1901 suspends the game
_opt("cd_search_years", "2.7", Count(1, "none"), "none",
     applied())  # `game cd NAME POWER search`; services/features/nmr.py tells the GM when the search ends

# 2.8 Deadlines, reminders & NMR
# enforced as minimums at game create and for a deadline the GM sets (rules/schedule.py)
_opt("min_hours_movement", "2.8", Count(1), 48, applied())
_opt("min_hours_retreat", "2.8", Count(1), 24, applied())
_opt("min_hours_adjustment", "2.8", Count(1), 24, applied())
# 001 IV(4) is a guide ("normally"): rules/schedule.py default_lengths derives the turn lengths the GM
# leaves open from it (movement + retreat + adjustment = the target), and rules/pace.py tells the GM
# when chosen lengths or a deadline make a Turn longer; nothing is refused for it
_opt("target_days_per_game_turn", "2.8", Count(1, "none"), "none", applied())
# the start mail asks for it (rules/briefing.py); "TURN LENGTH 14" by mail, counted at the first deadline
# or when every player has voted, sets the movement turn length (services/features/turn_length.py, 003 [23])
_opt("turn_length_vote", "2.8", DayChoices(), "none", applied())
EarlyProcessing = Literal["never", "minor_gm_discretion", "minor_when_all_final"]
_opt("early_processing", "2.8", Choice.of(EarlyProcessing), "never",
     applied())  # services/game/schedule.py: adjudicated early, or the GM told once per turn
# the GM's `gmserver adjudicate` of a movement turn before its deadline: refused without --force under
# "never" (000 VII(2), 001 IV(2): major turns are never processed early), the players told when forced
MajorTurnsEarly = Literal["gm_may", "never"]
_opt("major_turns_early", "2.8", Choice.of(MajorTurnsEarly), "gm_may", applied())
OrdersAcceptedUntil = Literal["deadline", "adjudication_start"]
_opt("orders_accepted_until", "2.8", Choice.of(OrdersAcceptedUntil), "deadline", applied())
AdjudicationTrigger = Literal["automatic_at_deadline", "gm_command"]
_opt("adjudication_trigger", "2.8", Choice.of(AdjudicationTrigger), "automatic_at_deadline",
     applied())
_opt("processing_grace_minutes", "2.8", Count(0), 0, applied())
TimeBasis = Literal["receipt"]
_opt("time_basis", "2.8", Choice.of(TimeBasis), "receipt", applied())  # intake judges by `received_at`
# rules/late_proof.py, rules/intake._late_with_proof: held for the GM with the evidence; released
# after `game rollback` it is filed as a correction (services/features/held.py)
LateWithProof = Literal["never", "gm_discretion"]
_opt("late_with_proof", "2.8", Choice.of(LateWithProof), "never", applied())
_opt("reminders", "2.8", Reminders(), [{"hours_before": 24, "audience": "powers_without_set"}], applied())
# rules/delays.py decide_delay, services/features/delays.py (a player's DELAY line)
DelayPolicy = Literal["none", "gm_decides", "auto_grant_gm_may_refuse"]
_opt("delay_policy", "2.8", Choice.of(DelayPolicy), "gm_decides", applied())
_opt("delay_hours", "2.8", Count(1), 48, applied())  # the grant; under gm_decides the length the GM is offered
_opt("max_auto_delays", "2.8", Count(0), 1, applied())  # per player per game year; then the GM decides
# rules/absence.py decide_absences, services/features/absences.py (a player's ABSENCE command)
AbsencePolicy = Literal["none", "gm_decides", "move_deadline", "hold_without_nmr"]
_opt("absence_policy", "2.8", Choice.of(AbsencePolicy), "gm_decides", applied())
_opt("absence_days_per_year", "2.8", Count(0), 7, applied())  # move_deadline: days a player's absences may add a game year
NmrMovement = Literal["hold"]
_opt("nmr_movement", "2.8", Choice.of(NmrMovement), "hold", applied())  # the engine holds a unit without orders
_opt("nmr_limit_to_cd", "2.8", NmrLimit(), 2, applied())  # rules/nmr.py after_turn
_opt("nmr_contact_window_hours", "2.8", Count(1, "none"), "none",
     applied())  # services/features/nmr.py check_contact_windows: the GM is told of an abandoned position
_opt("nmr_replacement_after", "2.8", Count(1, "none"), "none", applied())  # the GM is asked to seek one
S1901Policy = Literal["normal", "preliminary_required", "suspend_until_replaced"]
_opt("s1901_policy", "2.8", Choice.of(S1901Policy), "normal",
     applied())  # services/features/nmr.py: the Spring 1901 wait (003 [14]) and checkpoint (000 II(1))

# 2.9 Press
# rules/press.py judges each item; services/features/press.py stores, mails or publishes it
_opt("press_kinds", "2.9", Subset(("white", "grey", "dark_grey", "black")), ["white", "grey"], applied())
PressChannel = Literal["any_message", "in_order_set_last_only"]
_opt("press_channel", "2.9", Choice.of(PressChannel), "any_message",
     applied())  # in_order_set_last_only: a later set replaces earlier press (003 [9])
GreyPressPlacement = Literal["anonymous_section", "press_section"]
_opt("grey_press_placement", "2.9", Choice.of(GreyPressPlacement), "press_section",
     applied())  # the turn report's "Anonymous Press" section (000 X(1))
WhitePressPlacement = Literal["with_author_orders", "press_section"]
_opt("white_press_placement", "2.9", Choice.of(WhitePressPlacement), "press_section",
     applied())  # under the author's orders in the turn report (000 X(1))
PressAuthorDisclosure = Literal["never", "gm_after_game"]
_opt("press_author_disclosure", "2.9", Choice.of(PressAuthorDisclosure), "never",
     applied())  # services/features/press.py disclose_authors: the GM is mailed the authors at the end (000 X(2))
_opt("press_reserved_labels", "2.9", Labels(),
     [{"label": "GM", "holder": "gm"}, {"label": "Zurich", "holder": "gm"}], applied())
PressPowerAttribution = Literal["own_power_only", "players_and_eliminated"]
_opt("press_power_attribution", "2.9", Choice.of(PressPowerAttribution), "own_power_only",
     applied())  # eliminated players keep their address in the game; resigned or replaced ones do not
_opt("press_from_non_players", "2.9", BOOL, False,
     applied())  # rules/intake.decide accepts it as NON_PLAYER; services/features/press.plan_press (002 PRESS 2)
PressEditing = Literal["none", "spelling_unless_declined"]
_opt("press_editing", "2.9", Choice.of(PressEditing), "none",
     applied())  # `gmserver press edit` (services/features/press_moderation.edit, rules/press.edit_refusal; 002 PRESS 1, 3)
# the GM approves or drops press not yet published (gmserver press approve/drop) and edits it where
# press_editing allows (000 X(1) allows refusing, not editing; 003 [9] asks only that insults go unpublished)
PressModeration = Literal["auto_with_gm_withhold", "gm_approval"]
_opt("press_moderation", "2.9", Choice.of(PressModeration), "auto_with_gm_withhold",
     applied())
ConditionalPress = Literal["none", "moves", "moves_and_press"]
_opt("conditional_press", "2.9", Choice.of(ConditionalPress), "none",
     applied())  # rules/press_conditions.py: on the moves (003 [9]), on other press too (002 PRESS 4)
_opt("press_before_first_turn", "2.9", BOOL, True,
     applied())  # press sent before the first adjudication is published with its report (002 PRESS 5)
_opt("report_empty_retreat_season", "2.9", BOOL, False,
     applied())  # services/turn/turns._with_empty_retreat_turn, rules/schedule.empty_retreat_turn (002 PRESS 7)

# 2.10 Votes & game end
# each kind by mail (rules/mailkind.py): DRAW, CONCEDE, DEADLINE 14 (003 [18] ¶2), RULE CHANGE: words
# (000 IX(3)), END GAME: terms (003 [18] ¶1; a DRAW or CONCEDE line there is a proposal on those terms)
_opt("vote_kinds", "2.10", Subset(VOTE_KINDS), ["concession", "draw"], applied())
VoteDue = Literal["next_deadline"]
_opt("vote_due", "2.10", Choice.of(VoteDue), "next_deadline", applied())  # services/features/vote_tally.tally_due
VoteSecrecy = Literal["nothing_revealed", "yes_count_only"]
_opt("vote_secrecy", "2.10", Choice.of(VoteSecrecy), "nothing_revealed", applied())
_opt("proposer_anonymous", "2.10", BOOL, True, applied())  # rules/votes.announcement
VotePublication = Literal["instead_if_passed", "with_adjudication"]
_opt("vote_publication", "2.10", Choice.of(VotePublication), "instead_if_passed",
     applied())  # services/features/vote_tally.tally_before (instead of the turn) or tally_due (with the report)
RevisedVotes = Literal["allowed"]
_opt("revised_votes", "2.10", Choice.of(RevisedVotes), "allowed", applied())  # the latest ballot replaces the one before
_opt("end_proposals_per_player_per_turn", "2.10", Count(1, "unlimited"), "unlimited", applied())
_opt("proposal_gm_veto", "2.10", BOOL, True, applied())  # `gmserver game veto`, "veto" by mail (services/features/votes.py)
_opt("gm_may_propose", "2.10", BOOL, False, applied())  # `gmserver game propose`, "propose" by mail
_opt("concession_beneficiary_votes_yes", "2.10", BOOL, True, applied())  # 000 IX(5)
MultiplePassingDraws = Literal["all_fail"]
_opt("multiple_passing_draws", "2.10", Choice.of(MultiplePassingDraws), "all_fail", applied())  # rules/votes.settle
DrawMembership = Literal["all_survivors", "any_subset"]
_opt("draw_membership", "2.10", Choice.of(DrawMembership), "any_subset", applied())
VoterEligibility = Literal["units_or_centres"]
_opt("voter_eligibility", "2.10", Choice.of(VoterEligibility), "units_or_centres", applied())  # rules/votes.survivors
_opt("cd_powers_vote", "2.10", BOOL, False, applied())
_opt("fall_proposals_resolved_after_winter", "2.10", BOOL, False, applied())  # rules/votes.due
_opt("amend_proposals_on_elimination", "2.10", BOOL, False, applied())  # rules/votes.amend
_opt("stalemate_years", "2.10", Count(1, "none"), "none", applied())  # a notice to the GM (rules/game_end.py)
StalemateAction = Literal["gm_may_declare_dias_after_warning", "gm_may_impose_settlement"]
_opt("stalemate_action", "2.10", Choice.of(StalemateAction),
     "gm_may_declare_dias_after_warning", applied())  # what the notice says the GM may do
_opt("solo_centres", "2.10", Count(1), 18, applied())  # rules/game_end.py solo_winner, not the engine's 18
_opt("solo_check_after_spring", "2.10", BOOL, False, applied())  # a Spring solo ends the game (003 [23]); a tie: the GM rules
# services/features/draw_complaints.py: a passed draw ends the game provisionally; COMPLAIN DRAW within the days,
# a majority reopens the game for one revote (002 DRAWS 5)
_opt("draw_revote_on_majority_complaint_days", "2.10", Count(1, "none"), "none", applied())
# Per-kind vote rules (the table under 2.10). Defaults: the "004 / default" column, and "no" for
# the kinds whose default is n/a (a custom profile offering them gets plain unanimity).
# Every kind is counted by rules/votes.tally; a rule change is proposed in words ("RULE CHANGE: ...",
# services/features/votes.record_terms) and the GM votes on it where gm_must_agree (`gmserver game vote`).
VOTE_RULE_SUPPORT = {kind: applied() for kind in VOTE_KINDS}
for _kind in VOTE_KINDS:
    _opt(f"vote.{_kind}.uncast", "2.10", YES_NO_EXCLUDED, "no", VOTE_RULE_SUPPORT[_kind])
    _opt(f"vote.{_kind}.abstention", "2.10", YES_NO_EXCLUDED, "no", VOTE_RULE_SUPPORT[_kind])
    if _kind == "rule_change":  # 000 IX(3): the GM is an elector for rule changes
        _opt("vote.rule_change.gm_must_agree", "2.10", BOOL, False, VOTE_RULE_SUPPORT[_kind])

# 2.11 GM corrections
CorrectionWindow = Literal["until_next_adjudication", "24h_and_before_next"]
_opt("correction_window", "2.11", Choice.of(CorrectionWindow),
     "until_next_adjudication", applied())  # `gmserver game rollback` (gmserver.rules.corrections)
# a phase is adjudicated exactly once; a rollback re-adjudicates the orders on file, which
# players cannot replace (their sets for a rolled-back turn are refused)
SeasonReplay = Literal["never"]
_opt("season_replay", "2.11", Choice.of(SeasonReplay), "never", applied())
# on_single_request: the first DELAY request in the turn after a correction extends it for everyone
# (a whole turn from the request [P]: 002 GM ERRORS 3 names no length); services.features.corrections
ExtensionAfterCorrection = Literal["gm_decides", "on_single_request"]
_opt("extension_after_correction", "2.11", Choice.of(ExtensionAfterCorrection), "gm_decides", applied())
CorrectionBroadcast = Literal["all_players"]
_opt("correction_broadcast", "2.11", Choice.of(CorrectionBroadcast), "all_players", applied())
ExtraUnitRepair = Literal["gm_manual", "mhr"]
_opt("extra_unit_repair", "2.11", Choice.of(ExtraUnitRepair), "gm_manual",
     partial("under mhr the GM repairs a surplus unit with `gmserver game repair` (or the repair mail command): "
             "the named unit is removed or, 000 VIII(3), moved where it should be if that is free; with none "
             "named the removal rule picks it (too few disbands); every player is told. `gmserver game audit` (or "
             "the audit mail command) finds a surplus unit: it adjudicates each stored phase of the last game year "
             "again with its stored orders and mails the GM every unit the orders do not give, with the repair 000 "
             "VIII proposes (the GM confirms). Left to the GM: the audit finds boards changed outside the stored orders, "
             "not orders "
             "read or applied wrongly (it does not read the order sets again); it does not tell which case of "
             "VIII(2) made the unit, so for too many builds the GM names the unit the excess-build rule would not "
             "have built; and it runs when the GM asks, not after every correction", lambda v: True))

OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in _rows}
del _kind  # _rows stays: _opt refers to it, and deleting it would leave _opt broken


def suggest_option(name: str) -> str:
    """'; did you mean ...?' for an unknown option name, or ''."""
    return did_you_mean(name, tuple(OPTIONS) + ("name", "title", "extends"))


def describe_options() -> str:
    """The catalogue as a Markdown table (name, section, values, default), for the GM manual."""
    lines = ["| Option | Section | Values | Default |", "|---|---|---|---|"]
    for spec in OPTIONS.values():
        default = _toml_text(spec.kind.dump(spec.default))
        lines.append(f"| `{spec.name}` | {spec.section} | {spec.kind.describe()} | `{default}` |")
    return "\n".join(lines)
