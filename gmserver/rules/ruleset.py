"""A game's house rules as one frozen value, loaded from a TOML profile in config/rulesets/.

House rules are configuration: every option of MATRIX.md section 2 is a field of `Ruleset`, and
`ruleset_options.OPTIONS` says what each may hold. A game stores `Ruleset.snapshot()` when it
starts, so editing a profile file never changes a game in progress; the GM may still override any
option for one game (`with_overrides`, MATRIX 2.0 `gm_override`).

Every way in (a file, a snapshot, an override) goes through `_validate`, which collects every
problem before raising, so a GM fixing a profile sees the whole list in one error.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gmserver.paths import RULESETS_DIR
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
    "Problem", "Reminder", "ReservedLabel", "Ruleset", "RulesetError", "VoteKindRules", "VoteRules",
    "available_rulesets", "default_ruleset", "load_ruleset",
]

META_KEYS = ("name", "title", "extends")


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
class Ruleset:
    """One field per option of MATRIX section 2, named and valued as MATRIX spells them.

    Sets are frozensets, lists tuples, "none"/"unlimited" counts None. The per-kind vote rules
    (`vote.<kind>.<setting>` in MATRIX and in TOML) are `ruleset.vote.<kind>.<setting>`.
    """

    name: str
    title: str
    # 2.1 Order submission & identification
    subject_required_fields: frozenset[str]
    subject_location: str
    subject_template: str
    nonconforming_subject_policy: str
    season_mismatch_policy: str
    recipient_header_rule: str
    confirm_each_set: bool
    invalid_set_feedback: str
    clarification_min_hours: int
    text_attachments: bool
    # 2.2 Sender & auth
    sender_policy: str
    address_change: str
    gm_command_auth: str
    proxy_policy: str
    proxy_cancel_notifies_holder: bool
    proxy_precedence: str
    perpetual_orders: str
    # 2.3 Order interpretation
    interpretation_presumption: str
    abbreviation_table: str
    abbreviation_policy: str
    partial_names: str
    forbidden_abbreviations: tuple[str, ...]
    player_abbreviation_lists: bool
    unit_location_matching: str
    typo_tolerance: str
    province_languages: frozenset[str]
    valid_name_typos: str
    unit_type_omitted: str
    unit_type_wrong: str
    nationality_omitted: str
    nationality_wrong: str
    coast_omitted_move: str
    coast_wrong_destination: str
    coast_own_location: str
    coast_support_omitted: str
    coast_support_mismatch: str
    multiple_orders_same_unit: str
    multiple_orders_skip_illegal: bool
    hold_plus_support: str
    impossible_move_treatment: str
    convoy_possible_move_legal: bool
    nonsense_order_treatment: str
    parenthetical_order: str
    implied_orders: str
    combined_orders: str
    orders_for_missing_units: str
    conditional_movement_orders: str
    contingent_minor_orders: str
    conditional_adjustment_orders: str
    # 2.4 Order sets & versions
    set_combination: str
    set_ordering: str
    default_set_status: str
    publish_overridden_orders: bool
    report_order_sequence: str
    # 2.5 Adjudication
    rulebook: str
    datc_4a1: str
    datc_4a2: str
    datc_4a3: str
    datc_4a4: str
    datc_4a5: str
    datc_4a6: str
    datc_4a7: str
    convoy_against_own_unit: str
    # 2.6 Retreats
    nrr_default: str
    illegal_retreat: str
    multiple_retreat_orders: str
    hopeless_orders_exempt: bool
    nmr_counts_minor_turns: bool
    # 2.7 Adjustments & civil disorder
    season_structure: str
    two_season_retreat_timing: str
    fall_retreats_and_adjustments: str
    excess_adjustment_order: str
    multiple_builds_same_centre: str
    build_type_omitted: str
    fleet_build_inland: str
    army_build_with_coast: str
    fleet_build_coast_omitted: str
    nbr_default: str
    removal_algorithm: str
    danivon_within_class: str
    alphabetical_key: str
    cd_mode: str
    cd_units_receive_hold_support: bool
    record_cd_on_player: bool
    first_year_abandonment: str
    cd_search_years: int | None
    # 2.8 Deadlines, reminders & NMR
    min_hours_movement: int
    min_hours_retreat: int
    min_hours_adjustment: int
    target_days_per_game_turn: int | None
    turn_length_vote: tuple[int, ...] | None  # day counts to choose from
    early_processing: str
    orders_accepted_until: str
    adjudication_trigger: str
    processing_grace_minutes: int
    time_basis: str
    late_with_proof: str
    reminders: tuple[Reminder, ...]
    delay_policy: str
    delay_hours: int
    max_auto_delays: int
    nmr_movement: str
    nmr_limit_to_cd: int | str | None  # 2, "gm_after_2" or None
    nmr_contact_window_hours: int | None
    nmr_replacement_after: int | None
    s1901_policy: str
    # 2.9 Press
    press_kinds: frozenset[str]
    press_channel: str
    grey_press_placement: str
    white_press_placement: str
    press_author_disclosure: str
    press_reserved_labels: tuple[ReservedLabel, ...]
    press_power_attribution: str
    press_from_non_players: bool
    press_editing: str
    press_moderation: str
    conditional_press: str
    press_before_first_turn: bool
    report_empty_retreat_season: bool
    # 2.10 Votes & game end
    vote_kinds: frozenset[str]
    vote_due: str
    vote_secrecy: str
    proposer_anonymous: bool
    vote_publication: str
    revised_votes: str
    end_proposals_per_player_per_turn: int | None  # None: unlimited
    proposal_gm_veto: bool
    gm_may_propose: bool
    concession_beneficiary_votes_yes: bool
    multiple_passing_draws: str
    draw_membership: str
    voter_eligibility: str
    cd_powers_vote: bool
    fall_proposals_resolved_after_winter: bool
    amend_proposals_on_elimination: bool
    stalemate_years: int | None
    stalemate_action: str
    solo_centres: int
    solo_check_after_spring: bool
    draw_revote_on_majority_complaint_days: int | None
    vote: VoteRules  # vote.<kind>.uncast / .abstention, vote.rule_change.gm_must_agree
    # 2.11 GM corrections
    correction_window: str
    season_replay: str
    extension_after_correction: str
    correction_broadcast: str
    extra_unit_repair: str

    @property
    def move_to_own_province(self) -> str:
        """MATRIX 2.3: "derived: equals impossible_move_treatment" ("A Mun - Mun"), so it is
        not a separate option that could contradict it."""
        return self.impossible_move_treatment

    def option(self, name: str) -> Any:
        """An option's value by its MATRIX name, dotted vote names included."""
        if name not in OPTIONS:
            raise KeyError(f"unknown option {name!r}{suggest_option(name)}")
        if name.startswith("vote."):
            _, kind, setting = name.split(".")
            return getattr(getattr(self.vote, kind), setting)
        return getattr(self, name)

    def snapshot(self) -> dict[str, Any]:
        """Every option in its TOML spelling (JSON-safe); `from_snapshot` gives back an equal
        Ruleset. Stored with a game so that later edits of the profile file do not reach it."""
        values = _flat_values(self)
        data: dict[str, Any] = {"name": self.name, "title": self.title}
        for name, spec in OPTIONS.items():
            _put_dotted(data, name, spec.kind.dump(values[name]))
        return data

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> Ruleset:
        """Rebuild a stored snapshot. Options missing from an old snapshot (added to gmserver
        after the game started) take their catalogue default; anything unknown is an error."""
        values, meta, problems = _validate(data, "<snapshot>")
        if "extends" in meta:
            problems.append(Problem("<snapshot>", "extends", "a snapshot cannot extend a profile"))
        for key in ("name", "title"):
            if key not in meta:
                problems.append(Problem("<snapshot>", key, "missing"))
        if problems:
            raise RulesetError(problems)
        return _build(meta["name"], meta["title"], {**_defaults(), **values})

    def with_overrides(self, overrides: Mapping[str, Any]) -> Ruleset:
        """A copy with some options changed for one game, validated like a profile file.
        Keys are option names (dotted for votes, or a nested `vote` table); `title` may change,
        `name` stays (the game still says which profile it started from)."""
        values, meta, problems = _validate(overrides, "<override>")
        for key in ("name", "extends"):
            if key in meta:
                problems.append(Problem("<override>", key, "cannot be overridden"))
        if problems:
            raise RulesetError(problems)
        return _build(self.name, meta.get("title", self.title), {**_flat_values(self), **values})


# --- building and flattening ----------------------------------------------------------------


def _flat_values(ruleset: Ruleset) -> dict[str, Any]:
    """Option name -> value, the vote structure spelled out as dotted names."""
    return {name: ruleset.option(name) for name in OPTIONS}


def _build(name: str, title: str, values: Mapping[str, Any]) -> Ruleset:
    vote = VoteRules(**{
        kind: VoteKindRules(
            uncast=values[f"vote.{kind}.uncast"],
            abstention=values[f"vote.{kind}.abstention"],
            gm_must_agree=values.get(f"vote.{kind}.gm_must_agree", False),
        )
        for kind in VOTE_KINDS
    })
    plain = {k: v for k, v in values.items() if "." not in k}
    return Ruleset(name=name, title=title, vote=vote, **plain)


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


def _validate(raw: Mapping[str, Any], source: str) -> tuple[dict[str, Any], dict[str, str], list[Problem]]:
    """Parse every key; return (option values, meta keys, every problem found)."""
    if not isinstance(raw, Mapping):
        return {}, {}, [Problem(source, None, f"expected a table of options, got {type(raw).__name__}")]
    values: dict[str, Any] = {}
    meta: dict[str, str] = {}
    problems: list[Problem] = []
    for key, value in _flatten(raw).items():
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
    return values, meta, problems


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

    values, meta, problems = _validate(raw, source)
    base = _defaults()
    if "extends" in meta:
        base_path = _resolve(meta["extends"], search_dir, relative_to=path.parent)
        if base_path.resolve() in chain + (path.resolve(),):
            problems.append(Problem(source, "extends", f"circular: {meta['extends']!r} extends this file"))
        else:
            try:
                base = _flat_values(_load(base_path, search_dir, chain + (path.resolve(),)))
            except RulesetError as exc:  # report the base's problems together with ours
                problems.extend(exc.problems)
                problems.append(Problem(source, "extends", f"cannot load {meta['extends']!r}"))
    if problems:
        raise RulesetError(problems)
    name = meta.get("name", path.stem)
    return _build(name, meta.get("title", name), {**base, **values})

