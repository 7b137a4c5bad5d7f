"""A game's house rules as one frozen value, loaded from a TOML profile in config/rulesets/.

House rules are configuration: every option of the catalogue is a field of `Ruleset`, and
`ruleset_options.OPTIONS` says what each may hold. A profile also says which clause of its
document decides each option (`clause.KEY = "000 III(6)"`), kept as `Ruleset.citations` and
looked up with `Ruleset.cites`. A game stores `Ruleset.snapshot()` when it starts, so editing a
profile file never changes a game in progress; the GM may still override any option for one game
(`with_overrides`, 000 I(1): the GM's discretion over the house rules).

Every way in (a file, a snapshot, an override) goes through `_validate`, which collects every
problem before raising, so a GM fixing a profile sees the whole list in one error.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from gmserver.paths import RULESETS_DIR
from gmserver.rules import ruleset_options as catalogue
from gmserver.rules.ruleset_options import (
    OPTIONS,
    VOTE_KINDS,
    Reminder,
    ReservedLabel,
    VoteKindRules,
    VoteRules,
    did_you_mean,
    suggest_option,
)

__all__ = [
    "Citation", "Problem", "Reminder", "ReservedLabel", "Ruleset", "RulesetError", "VoteKindRules", "VoteRules",
    "available_rulesets", "default_ruleset", "load_ruleset",
]

META_KEYS = ("name", "title", "extends")
CLAUSE_TABLE = "clause"
# Not options but values derived from one (`Ruleset.move_to_own_province`); a document may still
# give them a clause of their own (002 FORMAT 11 for "A Mun - Mun"). Each with the rulebook or
# DATC sources of its values, as a catalogue row has them (`OptionSpec.sources`).
DERIVED: dict[str, dict[str, str]] = {"move_to_own_province": {"hold_supportable": "DATC 6.A.4"}}
# A published house-rule document's clause: its number (000 to 004), then the clause as that
# document numbers it: "000 III(6)", "002 FORMAT 4", "003 [10 a]".
_CLAUSE_ID = re.compile(r"\d{3} \S.*")


@dataclass(frozen=True)
class Problem:
    source: str  # file path, "<snapshot>" or "<override>"
    key: str | None  # None for problems of the whole file (syntax, missing file)
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.key}: {self.message}" if self.key else f"{self.source}: {self.message}"


class RulesetError(Exception):
    """Every problem found, not only the first: `problems` holds them, the message lists them."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]):
        self.problems = tuple(problems)
        count = len(self.problems)
        lines = [f"{count} problem{'s' if count != 1 else ''} in ruleset:"]
        lines += [f"  - {p}" for p in self.problems]
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class Citation:
    """The clause of a profile's document for one option, and the value the document gives it:
    a game whose value differs (a GM override) no longer follows that clause and cites nothing."""

    option: str
    clause: str
    value: Any


# eq and repr by hand (below): for 158 fields, dataclass's generated __eq__, __hash__ and __repr__
# cost 3 ms of every process's start (`gmserver orders read`, benchmarks/bench_cli.py)
@dataclass(frozen=True, eq=False, repr=False)
class Ruleset:
    """One field per option of the catalogue, named and valued as the profiles spell them.

    An option with a closed set of values is typed by its catalogue row's Literal (the row reads
    its allowed values from that type with `Choice.of`), so a misspelt value is a type error in
    code and a loading error in a profile. Sets are frozensets, lists tuples, "none"/"unlimited"
    counts None. The per-kind vote rules (`vote.<kind>.<setting>` in TOML) are
    `ruleset.vote.<kind>.<setting>`.
    """

    name: str
    title: str
    # 2.1 Order submission & identification
    subject_required_fields: frozenset[str]
    subject_location: catalogue.SubjectLocation
    subject_template: catalogue.SubjectTemplate
    nonconforming_subject_policy: catalogue.NonconformingSubjectPolicy
    season_mismatch_policy: catalogue.SeasonMismatchPolicy
    recipient_header_rule: catalogue.RecipientHeaderRule
    confirm_each_set: bool
    invalid_set_feedback: catalogue.InvalidSetFeedback
    clarification_min_hours: int
    text_attachments: bool
    # 2.2 Sender & auth
    sender_policy: catalogue.SenderPolicy
    address_change: catalogue.AddressChange
    gm_command_auth: catalogue.GmCommandAuth
    proxy_policy: catalogue.ProxyPolicy
    proxy_cancel_notifies_holder: bool
    proxy_precedence: catalogue.ProxyPrecedence
    perpetual_orders: catalogue.PerpetualOrders
    # 2.3 Order interpretation
    interpretation_presumption: catalogue.InterpretationPresumption
    abbreviation_table: catalogue.AbbreviationTable
    abbreviation_policy: catalogue.AbbreviationPolicy
    partial_names: catalogue.PartialNames
    forbidden_abbreviations: tuple[str, ...]
    player_abbreviation_lists: bool
    unit_location_matching: catalogue.UnitLocationMatching
    typo_tolerance: catalogue.TypoTolerance
    province_languages: frozenset[str]
    valid_name_typos: catalogue.ValidNameTypos
    unit_type_omitted: catalogue.UnitTypeOmitted
    unit_type_wrong: catalogue.UnitTypeWrong
    nationality_omitted: catalogue.NationalityOmitted
    nationality_wrong: catalogue.NationalityWrong
    coast_omitted_move: catalogue.CoastOmittedMove
    coast_wrong_destination: catalogue.CoastWrongDestination
    coast_own_location: catalogue.CoastOwnLocation
    coast_support_omitted: catalogue.CoastSupportOmitted
    coast_support_mismatch: catalogue.CoastSupportMismatch
    multiple_orders_same_unit: catalogue.MultipleOrdersSameUnit
    multiple_orders_skip_illegal: bool
    hold_plus_support: catalogue.HoldPlusSupport
    impossible_move_treatment: catalogue.ImpossibleMoveTreatment
    convoy_possible_move_legal: bool
    nonsense_order_treatment: catalogue.NonsenseOrderTreatment
    parenthetical_order: catalogue.ParentheticalOrder
    implied_orders: catalogue.ImpliedOrders
    combined_orders: catalogue.CombinedOrders
    orders_for_missing_units: catalogue.OrdersForMissingUnits
    conditional_movement_orders: catalogue.ConditionalMovementOrders
    contingent_minor_orders: catalogue.ContingentMinorOrders
    conditional_adjustment_orders: catalogue.ConditionalAdjustmentOrders
    # 2.4 Order sets & versions
    set_combination: catalogue.SetCombination
    set_ordering: catalogue.SetOrdering
    default_set_status: catalogue.DefaultSetStatus
    publish_overridden_orders: bool
    report_order_sequence: catalogue.ReportOrderSequence
    # 2.5 Adjudication
    rulebook: catalogue.Rulebook
    datc_4a1: catalogue.Datc4a1
    datc_4a2: catalogue.Datc4a2
    datc_4a3: catalogue.Datc4a3
    datc_4a4: catalogue.Datc4a4
    datc_4a5: catalogue.Datc4a5
    datc_4a6: catalogue.Datc4a6
    datc_4a7: catalogue.Datc4a7
    convoy_against_own_unit: catalogue.ConvoyAgainstOwnUnit
    # 2.6 Retreats
    nrr_default: catalogue.NrrDefault
    illegal_retreat: catalogue.IllegalRetreat
    multiple_retreat_orders: catalogue.MultipleRetreatOrders
    hopeless_orders_exempt: bool
    nmr_counts_minor_turns: bool
    # 2.7 Adjustments & civil disorder
    season_structure: catalogue.SeasonStructure
    two_season_retreat_timing: catalogue.TwoSeasonRetreatTiming
    fall_retreats_and_adjustments: catalogue.FallRetreatsAndAdjustments
    excess_adjustment_order: catalogue.ExcessAdjustmentOrder
    multiple_builds_same_centre: catalogue.MultipleBuildsSameCentre
    build_type_omitted: catalogue.BuildTypeOmitted
    fleet_build_inland: catalogue.FleetBuildInland
    army_build_with_coast: catalogue.ArmyBuildWithCoast
    fleet_build_coast_omitted: catalogue.FleetBuildCoastOmitted
    nbr_default: catalogue.NbrDefault
    removal_algorithm: catalogue.RemovalAlgorithm
    danivon_within_class: catalogue.DanivonWithinClass
    alphabetical_key: catalogue.AlphabeticalKey
    cd_mode: catalogue.CdMode
    cd_units_receive_hold_support: bool
    record_cd_on_player: bool
    first_year_abandonment: catalogue.FirstYearAbandonment
    cd_search_years: int | None
    # 2.8 Deadlines, reminders & NMR
    min_hours_movement: int
    min_hours_retreat: int
    min_hours_adjustment: int
    target_days_per_game_turn: int | None
    turn_length_vote: tuple[int, ...] | None  # day counts to choose from
    early_processing: catalogue.EarlyProcessing
    major_turns_early: catalogue.MajorTurnsEarly
    orders_accepted_until: catalogue.OrdersAcceptedUntil
    adjudication_trigger: catalogue.AdjudicationTrigger
    processing_grace_minutes: int
    time_basis: catalogue.TimeBasis
    late_with_proof: catalogue.LateWithProof
    reminders: tuple[Reminder, ...]
    delay_policy: catalogue.DelayPolicy
    delay_hours: int
    max_auto_delays: int
    absence_policy: catalogue.AbsencePolicy
    absence_days_per_year: int
    nmr_movement: catalogue.NmrMovement
    nmr_limit_to_cd: int | str | None  # 2, "gm_after_2" or None
    nmr_contact_window_hours: int | None
    nmr_replacement_after: int | None
    s1901_policy: catalogue.S1901Policy
    # 2.9 Press
    press_kinds: frozenset[str]
    press_channel: catalogue.PressChannel
    grey_press_placement: catalogue.GreyPressPlacement
    white_press_placement: catalogue.WhitePressPlacement
    press_author_disclosure: catalogue.PressAuthorDisclosure
    press_reserved_labels: tuple[ReservedLabel, ...]
    press_power_attribution: catalogue.PressPowerAttribution
    press_from_non_players: bool
    press_editing: catalogue.PressEditing
    press_moderation: catalogue.PressModeration
    conditional_press: catalogue.ConditionalPress
    press_before_first_turn: bool
    report_empty_retreat_season: bool
    # 2.10 Votes & game end
    vote_kinds: frozenset[str]
    vote_due: catalogue.VoteDue
    vote_secrecy: catalogue.VoteSecrecy
    proposer_anonymous: bool
    vote_publication: catalogue.VotePublication
    revised_votes: catalogue.RevisedVotes
    end_proposals_per_player_per_turn: int | None  # None: unlimited
    proposal_gm_veto: bool
    gm_may_propose: bool
    concession_beneficiary_votes_yes: bool
    multiple_passing_draws: catalogue.MultiplePassingDraws
    draw_membership: catalogue.DrawMembership
    voter_eligibility: catalogue.VoterEligibility
    cd_powers_vote: bool
    fall_proposals_resolved_after_winter: bool
    amend_proposals_on_elimination: bool
    stalemate_years: int | None
    stalemate_action: catalogue.StalemateAction
    solo_centres: int
    solo_check_after_spring: bool
    draw_revote_on_majority_complaint_days: int | None
    vote: VoteRules  # vote.<kind>.uncast / .abstention, vote.rule_change.gm_must_agree
    # 2.11 GM corrections
    correction_window: catalogue.CorrectionWindow
    season_replay: catalogue.SeasonReplay
    extension_after_correction: catalogue.ExtensionAfterCorrection
    correction_broadcast: catalogue.CorrectionBroadcast
    extra_unit_repair: catalogue.ExtraUnitRepair
    # the profile's `clause.KEY` lines, sorted by option; only those whose value the game keeps
    citations: tuple[Citation, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _FIELD_NAMES)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"Ruleset({', '.join(f'{name}={getattr(self, name)!r}' for name in _FIELD_NAMES)})"

    @property
    def move_to_own_province(self) -> str:
        """"derived: equals impossible_move_treatment" ("A Mun - Mun"), so it is
        not a separate option that could contradict it."""
        return self.impossible_move_treatment

    def cites(self, name: str) -> str | None:
        """The clause of the profile's document that decides option `name` ("000 III(6)"), or
        None: the document is silent, or the game's value is not the document's (a GM override)."""
        for citation in self.citations:
            if citation.option == name:
                value = self.option(name) if name in OPTIONS else getattr(self, name)
                return citation.clause if value == citation.value else None
        return None

    def option(self, name: str) -> Any:
        """An option's value by its catalogue name, dotted vote names included."""
        if name not in OPTIONS:
            raise KeyError(f"unknown option {name!r}{suggest_option(name)}")
        if name.startswith("vote."):
            _, kind, setting = name.split(".")
            return getattr(getattr(self.vote, kind), setting)
        return getattr(self, name)

    def snapshot(self) -> dict[str, Any]:
        """Every option in its TOML spelling (JSON-safe), and the `clause` table; `from_snapshot`
        gives back an equal Ruleset. Stored with a game so that later edits of the profile file
        do not reach it."""
        values = _flat_values(self)
        data: dict[str, Any] = {"name": self.name, "title": self.title}
        for name, spec in OPTIONS.items():
            _put_dotted(data, name, spec.kind.dump(values[name]))
        data[CLAUSE_TABLE] = {c.option: c.clause for c in self.citations}
        return data

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> Ruleset:
        """Rebuild a stored snapshot. Options missing from an old snapshot (added to gmserver
        after the game started) take their catalogue default; anything unknown is an error. A
        snapshot stored before games kept their clauses takes those of the shipped profile of
        its name, for the values it still shares with that profile."""
        values, meta, clauses, problems = _validate(data, "<snapshot>")
        if "extends" in meta:
            problems.append(Problem("<snapshot>", "extends", "a snapshot cannot extend a profile"))
        for key in ("name", "title"):
            if key not in meta:
                problems.append(Problem("<snapshot>", key, "missing"))
        if problems:
            raise RulesetError(problems)
        kept: tuple[Citation, ...] = ()
        if CLAUSE_TABLE not in data:
            kept = _shipped_citations(meta["name"])
            clauses = {c.option: c.clause for c in kept}
        return _build(meta["name"], meta["title"], {**_defaults(), **values}, clauses, kept)

    def with_overrides(self, overrides: Mapping[str, Any]) -> Ruleset:
        """A copy with some options changed for one game, validated like a profile file.
        Keys are option names (dotted for votes, or a nested `vote` table); `title` may change,
        `name` stays (the game still says which profile it started from). A changed value
        leaves the document behind: its clause is no longer cited."""
        values, meta, clauses, problems = _validate(overrides, "<override>")
        for key in ("name", "extends"):
            if key in meta:
                problems.append(Problem("<override>", key, "cannot be overridden"))
        if clauses:
            problems.append(Problem("<override>", CLAUSE_TABLE, "cannot be overridden: a clause is the document's"))
        if problems:
            raise RulesetError(problems)
        return _build(self.name, meta.get("title", self.title), {**_flat_values(self), **values},
                      _clauses_of(self), self.citations)


_FIELD_NAMES = tuple(f.name for f in fields(Ruleset))

# --- building and flattening ----------------------------------------------------------------


def _flat_values(ruleset: Ruleset) -> dict[str, Any]:
    """Option name -> value, the vote structure spelled out as dotted names."""
    return {name: ruleset.option(name) for name in OPTIONS}


def _clauses_of(ruleset: Ruleset) -> dict[str, str]:
    return {c.option: c.clause for c in ruleset.citations}


def _build(name: str, title: str, values: Mapping[str, Any], clauses: Mapping[str, str] | None = None,
           kept: tuple[Citation, ...] = ()) -> Ruleset:
    """`clauses`: option -> clause, cited for the values built here, except where `kept` (the
    citations of the ruleset these values come from) holds a document value they no longer have."""
    vote = VoteRules(**{
        kind: VoteKindRules(
            uncast=values[f"vote.{kind}.uncast"],
            abstention=values[f"vote.{kind}.abstention"],
            gm_must_agree=values.get(f"vote.{kind}.gm_must_agree", False),
        )
        for kind in VOTE_KINDS
    })
    plain = {k: v for k, v in values.items() if "." not in k}
    ruleset = Ruleset(name=name, title=title, vote=vote, **plain)
    documented = {c.option: c.value for c in kept}
    citations = []
    for option, clause in sorted((clauses or {}).items()):
        value = values[option] if option in values else getattr(ruleset, option)
        if documented.get(option, value) == value:
            citations.append(Citation(option, clause, value))
    return replace(ruleset, citations=tuple(citations))


def _defaults() -> dict[str, Any]:
    return {name: spec.default for name, spec in OPTIONS.items()}


def default_ruleset() -> Ruleset:
    """The catalogue's Default column: the 2000 rulebook with the DATC preferences. The shipped
    `standard.toml` states exactly these values (a test holds them together)."""
    return _build("standard", "The 2000 rulebook with the DATC preferences", _defaults())


def _put_dotted(data: dict[str, Any], name: str, value: Any) -> None:
    *parents, leaf = name.split(".")
    for part in parents:
        data = data.setdefault(part, {})
    data[leaf] = value


def _flatten(raw: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """TOML's `vote.draw.uncast = "no"` arrives as nested tables; options are named flat.
    Tables under a plain option name are left alone for its kind to reject."""
    flat: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and name not in OPTIONS and name not in META_KEYS:
            flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def _validate(raw: Mapping[str, Any], source: str
              ) -> tuple[dict[str, Any], dict[str, str], dict[str, str], list[Problem]]:
    """Parse every key; return (option values, meta keys, clauses, every problem found)."""
    if not isinstance(raw, Mapping):
        return {}, {}, {}, [Problem(source, None, f"expected a table of options, got {type(raw).__name__}")]
    values: dict[str, Any] = {}
    meta: dict[str, str] = {}
    problems: list[Problem] = []
    clauses = _parse_clauses(raw.get(CLAUSE_TABLE, {}), source, problems)
    for key, value in _flatten({k: v for k, v in raw.items() if k != CLAUSE_TABLE}).items():
        if key in META_KEYS:
            if isinstance(value, str) and value.strip():
                meta[key] = value
            else:
                problems.append(Problem(source, key, f"expected a non-empty string; got {value!r}"))
        elif key in OPTIONS:
            try:
                values[key] = OPTIONS[key].kind.parse(value)
            except ValueError as exc:
                problems.append(Problem(source, key, str(exc)))
        else:
            problems.append(Problem(source, key, "unknown option" + suggest_option(key)))
    return values, meta, clauses, problems


def _parse_clauses(raw: object, source: str, problems: list[Problem]) -> dict[str, str]:
    """The `clause` table: option -> the clause of the profile's document that decides it."""
    if not isinstance(raw, Mapping):
        problems.append(Problem(source, CLAUSE_TABLE, "expected a table of option = \"clause\""))
        return {}
    clauses: dict[str, str] = {}
    for option, clause in _flatten(raw).items():
        key = f"{CLAUSE_TABLE}.{option}"
        if option not in OPTIONS and option not in DERIVED:
            problems.append(Problem(source, key, "unknown option" + suggest_option(option)))
        elif not isinstance(clause, str) or not _CLAUSE_ID.fullmatch(clause):
            problems.append(Problem(source, key, "expected a document's clause, its number first, "
                                                 f"e.g. \"000 III(6)\" or \"003 [10 a]\"; got {clause!r}"))
        else:
            clauses[option] = clause
    return clauses


# --- files ----------------------------------------------------------------------------------


def available_rulesets(search_dir: Path = RULESETS_DIR) -> list[str]:
    """Profile names a game may pick: the `*.toml` files of `search_dir`, sorted."""
    return sorted(p.stem for p in Path(search_dir).glob("*.toml"))


def _resolve(name_or_path: str | Path, search_dir: Path, relative_to: Path | None = None) -> Path:
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text:
        path = Path(name_or_path)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path  # `extends = "base.toml"` is relative to the extending file
        return path
    return Path(search_dir) / f"{text}.toml"


def load_ruleset(name_or_path: str | Path, *, search_dir: Path = RULESETS_DIR) -> Ruleset:
    """Load a profile by name ("mhr" -> `search_dir/mhr.toml`) or by path.

    Keys the file omits take the catalogue defaults, or the values of the profile named by
    `extends`. Raises RulesetError listing every problem, each naming the file and the key.
    """
    return _load(_resolve(name_or_path, search_dir), Path(search_dir), chain=())


def _load(path: Path, search_dir: Path, chain: tuple[Path, ...]) -> Ruleset:
    source = str(path)
    if not path.is_file():
        names = available_rulesets(search_dir)
        hint = did_you_mean(path.stem, names)
        raise RulesetError([Problem(source, None, f"no such ruleset file; available: {', '.join(names)}{hint}")])
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:  # its message carries the line and column
        raise RulesetError([Problem(source, None, f"TOML syntax error: {exc}")]) from None
    except UnicodeDecodeError as exc:
        raise RulesetError([Problem(source, None, f"not UTF-8 text: {exc}")]) from None

    values, meta, clauses, problems = _validate(raw, source)
    base = _defaults()
    kept: tuple[Citation, ...] = ()
    if "extends" in meta:
        base_path = _resolve(meta["extends"], search_dir, relative_to=path.parent)
        if base_path.resolve() in chain + (path.resolve(),):
            problems.append(Problem(source, "extends", f"circular: {meta['extends']!r} extends this file"))
        else:
            try:
                base_ruleset = _load(base_path, search_dir, chain + (path.resolve(),))
            except RulesetError as exc:  # report the base's problems together with ours
                problems.extend(exc.problems)
                problems.append(Problem(source, "extends", f"cannot load {meta['extends']!r}"))
            else:
                base = _flat_values(base_ruleset)
                # the base document's clauses hold where this file keeps the base's values
                kept = tuple(c for c in base_ruleset.citations if c.option not in clauses)
                clauses = {**_clauses_of(base_ruleset), **clauses}
    if problems:
        raise RulesetError(problems)
    name = meta.get("name", path.stem)
    return _build(name, meta.get("title", name), {**base, **values}, clauses, kept)


@functools.cache
def _shipped_citations(name: str) -> tuple[Citation, ...]:
    """The citations of the shipped profile `name`, for a snapshot stored without its own."""
    if name not in available_rulesets():
        return ()
    return load_ruleset(name).citations
