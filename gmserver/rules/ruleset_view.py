"""What a GM is told about a profile: each option's value, the clause behind it, and whether
gmserver carries it out (`ruleset_options.Support`), as rows for `gmserver ruleset show`, the
warning `gmserver game create` prints and docs/rulesets.md.

Pure: the profile file's text is passed in; nothing here reads files.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from gmserver.rules.ruleset import Ruleset
from gmserver.rules.ruleset_options import (
    APPLIED, NOT_APPLIED, OPTIONS, PARTIAL, SECTIONS, Choice, Flag, toml_text,
)

STATUS_WORDS = {APPLIED: "applied", PARTIAL: "partly applied", NOT_APPLIED: "not applied"}

# A profile file states its source above each key: "# 003: suspend_until_replaced ([14])" or,
# in standard.toml, "# Default: 12 [P]" (see the header of any config/rulesets/*.toml).
_SOURCE_LINE = re.compile(r"#\s*((?:\d{3}|Default)\b.*)")
_KEY_LINE = re.compile(r"([A-Za-z_][\w.]*)\s*=")


def profile_clauses(toml_text: str) -> dict[str, str]:
    """option -> the clause line written above it in a profile file ("003: suspend_until_replaced
    ([14])"). Options a file does not state (a profile that `extends` another) are absent."""
    clauses: dict[str, str] = {}
    comments: list[str] = []
    for line in toml_text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            comments.append(stripped)
            continue
        key = _KEY_LINE.match(stripped)
        if key and key.group(1) in OPTIONS:
            source = next((m.group(1) for c in comments if (m := _SOURCE_LINE.fullmatch(c))), None)
            if source:
                clauses[key.group(1)] = source.strip()
        comments = []
    return clauses


def option_rows(ruleset: Ruleset, clauses: dict[str, str]) -> list[dict[str, Any]]:
    """One row per catalogue option, in catalogue order; values in their TOML spelling."""
    rows = []
    for name, spec in OPTIONS.items():
        value = ruleset.option(name)
        support = spec.support
        rows.append({
            "key": name,
            "value": spec.kind.dump(value),
            "default": spec.kind.dump(spec.default),
            "clause": clauses.get(name, "no clause"),
            "applied": support.status == APPLIED,
            "status": support.status,
            "instead": support.instead,
            "misleads": spec.misleads(value),
            "section": spec.section,
        })
    return rows


def not_in_force(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows whose value promises what gmserver does not do: what the GM must be told."""
    return [row for row in rows if row["misleads"]]


def status_counts(rows: list[dict[str, Any]]) -> Counter[str]:
    return Counter(row["status"] for row in rows)


def shown(value: Any) -> str:
    return toml_text(value)


def warning_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The GM's warning: each option of the profile gmserver does not (fully) carry out, in
    words, with the clause it comes from."""
    lines = []
    for row in not_in_force(rows):
        words = row["instead"][:1].upper() + row["instead"][1:]
        lines.append(f"  - {words}. [{STATUS_WORDS[row['status']]}: {row['key']} = {shown(row['value'])}, "
                     f"{row['clause']}]")
    return lines


def show_text(ruleset: Ruleset, rows: list[dict[str, Any]]) -> list[str]:
    """`gmserver ruleset show`: by section, each option's status in words first."""
    counts = status_counts(rows)
    out = [f"{ruleset.name}: {ruleset.title}",
           f"{counts[APPLIED]} applied, {counts[PARTIAL]} partly applied, {counts[NOT_APPLIED]} not applied; "
           f"{len(not_in_force(rows))} of this profile's values are not carried out (marked !)"]
    for section, title in SECTIONS.items():
        out += ["", f"{section} {title}"]
        for row in (r for r in rows if r["section"] == section):
            mark = "!" if row["misleads"] else " "
            out.append(f" {mark} {STATUS_WORDS[row['status']]:<14} {row['key']} = {shown(row['value'])}"
                       f"   [{row['clause']}]")
            if row["status"] != APPLIED:  # what gmserver does: instead of the value (!), or the value itself
                said = "gmserver instead" if row["misleads"] else "gmserver does this anyway"
                out.append(f"   {'':<14} {said}: {row['instead']}")
    return out


# The published house-rule documents the profiles encode (each profile file's header names its
# own), and how each numbers its clauses: a clause id is the document's number, then the clause.
SOURCE_DOCUMENTS = (
    ("000", "mhr", "The House Rules of Garry, Lord of the March (MHR)",
     "section (Roman), clause (number), then a lettered part or a paragraph: `000 II(2) b` is section "
     "II, clause (2), part b; `000 VII(6) ¶2` the second paragraph of VII(6)"),
    ("001", "danivon", "Danivon's House Rules, v2.1 (24 June 2009), after David Cohen's DipPouch article",
     "as 000, whose outline it follows: `001 IV(4)`"),
    ("002", "email_rules", "Some Email Diplomacy Rules",
     "the document's heading, then its numbered item: `002 GM ERRORS 3`, `002 ORDERS 0`, `002 FORMAT 4` "
     "(FORMAT OF ORDERS), `002 PRESS 6`, `002 DRAWS 5`; `002 Q&A 2` is the second of its answers to common "
     "questions about the rulebook"),
    ("003", "scorpion", "The Scorpion Houserules (GM Andreas Habicher; the UK two-season game)",
     "the bracketed clause number, with a letter for a part of it: `003 [10 a]`; `003 [18] ¶3` the third "
     "paragraph of [18]"),
    ("004", "gwm", "The order-correction rules \"by courtesy of General World Masters rules\" (order "
     "correction only: silent on adjudication)", "section (Roman), clause (number), then a letter: `004 II(3)c`"),
)


def _sources_section() -> list[str]:
    out = ["", "## The house-rule documents and their clause ids", "",
           "Each profile but `standard` encodes one published house-rule document. Players are shown the "
           "clause that decides a rule as the document's number, then the clause as that document numbers it "
           "(\"house rules 000 III(6)\").", "",
           "| Number | Document | Profile | A clause id reads |", "|---|---|---|---|"]
    out += [f"| {number} | {_cell(title)} | `{profile}` | {_cell(reads)} |"
            for number, profile, title, reads in SOURCE_DOCUMENTS]
    out += ["",
            "Other sources: `RB2000` is the 2000 rulebook (4th edition, Avalon Hill/Hasbro), `standard`'s rules; "
            "`DATC 4.D.3` a section of Kruijswijk's Diplomacy Adjudicator Test Cases (v3), whose preferences "
            "`standard` takes. In a profile's comments, `silent → X [P]` marks a value the document does not "
            "give: gmserver's proposal, for which no clause is cited.",
            "",
            "## Adding an option",
            "",
            "1. One row in the catalogue, `gmserver/rules/ruleset_options.py`: name, section, the values it may "
            "take, default, and whether gmserver applies it. A closed set of values is a `Literal` type written "
            "just above the row and read by `Choice.of`.",
            "2. The field on `Ruleset` (`gmserver/rules/ruleset.py`), typed by that `Literal` "
            "(`tests/unit/test_ruleset.py` fails until the field and the row agree).",
            "3. The value in each profile of `config/rulesets/`, under a comment that gives the values it may "
            "take and where the value comes from; and, where the profile's document decides it, the clause "
            "right below: `clause.KEY = \"000 III(6)\"`. Code that tells players the rule cites "
            "`ruleset.cites(\"KEY\")`, which gives the clause while the game keeps the document's value.",
            "4. `gmserver ruleset docs > docs/rulesets.md`.",
            "",
            "A misspelt key, value or clause key in a profile fails loading, with every problem listed at once, "
            "each naming the file, the key and what is allowed."]
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def docs_markdown(profiles: list[tuple[Ruleset, dict[str, str]]]) -> str:
    """docs/rulesets.md: every option, whether gmserver applies it, and each shipped profile's
    value, then per profile the values gmserver does not carry out, with their clauses."""
    tables = [(ruleset, option_rows(ruleset, clauses)) for ruleset, clauses in profiles]
    counts = status_counts(tables[0][1]) if tables else Counter()
    out = [
        "# House-rule options: what gmserver applies",
        "",
        "Generated from the option catalogue (`gmserver/rules/ruleset_options.py`) and the profiles in",
        "`config/rulesets/` by `gmserver ruleset docs > docs/rulesets.md`; a test fails when this file is",
        "out of date. `gmserver ruleset show PROFILE` says the same for one profile (`--json` for tools),",
        "and `gmserver game create` lists the values of the chosen profile that gmserver does not carry out.",
        "Each option marked applied has a test that sets a value other than the default and fails when the",
        "option is forced to its default; `nice python scripts/option_mutation.py` runs that check.",
        "",
        f"Of {sum(counts.values())} options, {counts[APPLIED]} are applied, {counts[PARTIAL]} partly applied and "
        f"{counts[NOT_APPLIED]} not applied. A value marked (!) below is one gmserver does not carry out: "
        "the option is not (fully) applied and the value asks for something other than what gmserver does.",
    ]
    out += _sources_section()
    out += [
        "",
        "## The profiles",
        "",
        "| Profile | Title | Values not carried out |",
        "|---|---|---|",
    ]
    for ruleset, rows in tables:
        out.append(f"| `{ruleset.name}` | {_cell(ruleset.title)} | {len(not_in_force(rows))} |")
    names = [ruleset.name for ruleset, _ in tables]
    for section, title in SECTIONS.items():
        out += ["", f"## {section} {title}", "",
                "| Option | gmserver | What gmserver does | Default | " + " | ".join(names) + " |",
                "|---" * (4 + len(names)) + "|"]
        for i, (name, spec) in enumerate(OPTIONS.items()):
            if spec.section != section:
                continue
            values = []
            for _, rows in tables:
                row = rows[i]
                values.append(f"`{_cell(shown(row['value']))}`" + (" (!)" if row["misleads"] else ""))
            out.append(f"| `{name}` | {STATUS_WORDS[spec.status]} | {_cell(spec.support.instead)} | "
                       f"`{_cell(shown(spec.kind.dump(spec.default)))}` | " + " | ".join(values) + " |")
    for ruleset, rows in tables:
        out += ["", f"## Not carried out under `{ruleset.name}`", ""]
        out += [line.strip() for line in warning_lines(rows)] or ["Nothing: every value is carried out."]
    return "\n".join(out) + "\n"


def single_valued(name: str) -> bool:
    """One value for the option: every document agrees, nothing to choose."""
    kind = OPTIONS[name].kind
    return (isinstance(kind, Choice) and len(kind.values) == 1) or (isinstance(kind, Flag) and len(kind.allowed) == 1)


def not_in_force_keys(ruleset: Ruleset) -> list[str]:
    """The options whose value in `ruleset` gmserver does not carry out, in catalogue order."""
    return [name for name, spec in OPTIONS.items() if spec.misleads(ruleset.option(name))]
