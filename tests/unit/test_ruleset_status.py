"""Every option says whether gmserver applies it, and the marks cannot go stale unnoticed
(a GM who picks a profile must be able to trust every option in it, or be told which ones are
not in force yet)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gmserver.cli import main
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.ruleset_options import APPLIED, OPTIONS, PARTIAL, STATUSES
from gmserver.rules.ruleset_view import option_rows, profile_clauses, single_valued

ROOT = Path(__file__).resolve().parents[2]
# The catalogue, the loader and the views name every option without acting on any.
# reading/options.py holds a table of the clause each profile cites per option (keys only).
NOT_READERS = {"rules/ruleset_options.py", "rules/ruleset.py", "rules/ruleset_view.py", "cli/ruleset.py",
               "rules/reading/options.py"}


def _code_outside_the_catalogue() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "gmserver").rglob("*.py"))
                     if p.relative_to(ROOT / "gmserver").as_posix() not in NOT_READERS)


def test_every_option_has_a_status_and_every_unapplied_one_says_what_happens_instead() -> None:
    for name, spec in OPTIONS.items():
        assert spec.status in STATUSES, name
        assert (spec.support.instead == "") == (spec.status == APPLIED), name


def test_every_applied_option_is_read_somewhere_in_gmserver() -> None:
    """A cheap static check: an option marked applied (or partial) is read outside the catalogue,
    as `ruleset.<key>` or as the string "<key>" handed to something (`opt("<key>")`,
    `_hours(rules, "<key>", 48)`). Citing its clause (`cite("<key>")`) does not count. An
    option with one allowed value has nothing to read: gmserver simply behaves that way."""
    code = _code_outside_the_catalogue()
    unread = [name for name, spec in OPTIONS.items()
              if spec.status in (APPLIED, PARTIAL) and not single_valued(name) and not re.search(
        rf'\.{re.escape(name)}\b|(?<!cite\()"{re.escape(name)}"', code)]
    assert unread == []


def test_the_issue_s_examples_are_marked_as_the_code_behaves() -> None:
    """datc_4a6 = required accepted a convoy order without a route (now refused); 000 VI(4) is
    applied by the GM's rulings only, 000 VI(6) by the server (datc_4a2). every reminder
    of the list is sent, min_hours_* are enforced minimums, the trigger, grace period and early processing are
    applied, and the Spring 1901 rules (the 003 [14] wait, the 000 II(1) checkpoint). every vote kind is
    applied."""
    assert OPTIONS["datc_4a1"].status == PARTIAL  # 000 VI(4): the GM rules
    for name in ("datc_4a2", "datc_4a6"):  # datc_4a6: the written route is followed (000 VI(3))
        assert OPTIONS[name].status == APPLIED, name
    for name in ("reminders", "min_hours_movement", "min_hours_retreat", "min_hours_adjustment",
                 "adjudication_trigger", "processing_grace_minutes", "early_processing", "s1901_policy",
                 "press_kinds"):  # press
        assert OPTIONS[name].status == APPLIED, name
    assert OPTIONS["vote_kinds"].status == APPLIED  # every kind is voted on by mail
    assert OPTIONS["turn_length_vote"].status == APPLIED  # the start-of-game vote (003 [23])
    # proxies (000 II(3), 003 [19]: some units, a preset period or indefinitely)
    for name in ("proxy_policy", "proxy_precedence", "proxy_cancel_notifies_holder"):
        assert OPTIONS[name].status == APPLIED, name
    assert OPTIONS["perpetual_orders"].status == PARTIAL  # 000 II(4): the GM marks; no player request
    assert OPTIONS["perpetual_orders"].misleads("gm_approval") is False


@pytest.mark.parametrize(("name", "value", "misleads"), [
    ("s1901_policy", "normal", False),  # what gmserver does anyway
    ("s1901_policy", "suspend_until_replaced", False),  # 003 [14]: the game waits
    ("s1901_policy", "preliminary_required", False),  # 000 II(1): the Spring 1901 checkpoint
    ("turn_length_vote", [7, 14, 21], False),  # 003 [23]: the players vote at the start
    ("press_kinds", [], False),
    ("press_kinds", ["white"], False),  # white press only (001 VII(1))
    ("press_channel", "in_order_set_last_only", False),  # 003 [9]: the last set's press
    ("press_moderation", "gm_approval", False),  # held until the GM approves it (gmserver press approve)
    ("conditional_press", "moves", False),  # 003 [9]: decided on the results
    ("conditional_press", "moves_and_press", False),  # 002 PRESS 4: on other press too (rules/press_conditions)
    ("press_from_non_players", True, False),  # 002 PRESS 2: accepted as NON-PLAYER grey press
    ("press_editing", "spelling_unless_declined", False),  # 002 PRESS 3: gmserver press edit
    ("report_empty_retreat_season", True, False),  # 002 PRESS 7: the empty retreat turn is held
    ("datc_4a6", "allowed_not_required", False),
    ("datc_4a6", "required", False),  # a convoyed move without its route is refused
    ("datc_4a1", "any_route", False),  # flagged to the GM like mhr_hybrid
    ("nonconforming_subject_policy", "accept_with_warning", False),
    ("nonconforming_subject_policy", "hold_for_gm", False),  # held for the GM
    ("reminders", [{"hours_before": 12, "audience": "powers_without_set"}], False),
    ("reminders", [{"hours_before": 24, "audience": "powers_without_set"},
                   {"with_report": True, "audience": "all_powers"}], False),  # all sent
    ("late_with_proof", "gm_discretion", False),  # held for the GM with the evidence
    ("sender_policy", "registered_only", False),
])
def test_a_value_misleads_when_gmserver_does_something_else(name: str, value, misleads: bool) -> None:
    spec = OPTIONS[name]
    assert spec.misleads(spec.kind.parse(value)) is misleads


def test_scorpion_s_turn_length_vote_is_applied_and_not_reported() -> None:
    """003 [23]: the players vote on the turn length at the start, so a GM who picks
    scorpion is not warned about it; the Spring 1901 wait (003 [14]) is applied too."""
    path = ROOT / "config" / "rulesets" / "scorpion.toml"
    rows = {r["key"]: r for r in option_rows(load_ruleset("scorpion"), profile_clauses(path.read_text()))}
    row = rows["turn_length_vote"]
    assert (row["value"], row["applied"], row["misleads"]) == ([7, 14, 21], True, False)
    assert rows["s1901_policy"]["misleads"] is False


def test_docs_rulesets_md_is_generated_from_the_catalogue(capsys) -> None:
    """docs/rulesets.md is `gmserver ruleset docs`; regenerate it when this fails:
    gmserver ruleset docs > docs/rulesets.md"""
    assert main(["ruleset", "docs"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
