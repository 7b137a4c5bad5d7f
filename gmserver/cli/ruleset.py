"""`gmserver ruleset ...`: what each house-rule profile says and whether gmserver carries it out.

Kept apart from cli.py so that the GM-facing view of the catalogue is one small module; cli.py
registers it (`add_commands`) and calls `not_in_force_text` after `game create`.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path

from gmserver.cli.parser import add_command
from gmserver.paths import RULESETS_DIR
from gmserver.rules import ruleset_view
from gmserver.rules.ruleset import Ruleset, available_rulesets, load_ruleset


def _profile_file(name_or_path: str, relative_to: Path | None = None) -> Path:
    """The file a profile argument names (as `load_ruleset` resolves it), for its clause comments."""
    if name_or_path.endswith(".toml") or "/" in name_or_path:
        path = Path(name_or_path)
        return relative_to / path if relative_to is not None and not path.is_absolute() else path
    return RULESETS_DIR / f"{name_or_path}.toml"


def _clauses(name_or_path: str, relative_to: Path | None = None, depth: int = 0) -> dict[str, str]:
    """The clause comments of a profile file, under those of the profile it `extends`."""
    path = _profile_file(name_or_path, relative_to)
    try:
        text = path.read_text(encoding="utf-8")
        base = tomllib.loads(text).get("extends")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):  # the values still show, citing no clause
        return {}
    inherited = _clauses(base, path.parent, depth + 1) if isinstance(base, str) and depth < 10 else {}
    return {**inherited, **ruleset_view.profile_clauses(text)}


def _rows(name_or_path: str) -> tuple[Ruleset, list[dict]]:
    ruleset = load_ruleset(name_or_path)
    return ruleset, ruleset_view.option_rows(ruleset, _clauses(name_or_path))


def not_in_force_text(ruleset: Ruleset, profile: str) -> str:
    """What `game create` prints: the options of the game's rules that gmserver does not carry
    out, each in words with its clause; "" when there are none."""
    rows = ruleset_view.option_rows(ruleset, _clauses(profile))
    lines = ruleset_view.warning_lines(rows)
    if not lines:
        return ""
    return "\n".join([f"not in force: {len(lines)} rule(s) of {ruleset.name} that gmserver does not carry out "
            "(tell the players; `gmserver ruleset show " + ruleset.name + "` lists every option):", *lines])


def cmd_list(args: argparse.Namespace) -> int:
    for index, name in enumerate(available_rulesets()):
        ruleset, rows = _rows(name)
        if index == 0:  # the catalogue is the same for every profile: its counts once
            counts = ruleset_view.status_counts(rows)
            print(f"Of the {len(rows)} house-rule options gmserver knows, {counts['applied']} are applied, "
                  f"{counts['partial']} partly, {counts['not_applied']} not (`gmserver ruleset show PROFILE`).")
        missing = [row["key"] for row in ruleset_view.not_in_force(rows)]
        print(f"{name:<12} {ruleset.title}: "
              + (f"values not carried out: {', '.join(missing)}" if missing else "every value carried out"))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    ruleset, rows = _rows(args.profile)
    if args.json:
        print(json.dumps({"profile": ruleset.name, "options": rows},
                         indent=2, ensure_ascii=False))
    else:
        print("\n".join(ruleset_view.show_text(ruleset, rows)))
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    profiles = [(load_ruleset(name), _clauses(name)) for name in available_rulesets()]
    print(ruleset_view.docs_markdown(profiles), end="")
    return 0


def build(parser: argparse.ArgumentParser) -> None:
    group = parser.add_subparsers(dest="ruleset_command", metavar="ACTION", required=True)
    add_command(group, "list", help="the profiles, with how many of their values gmserver carries out",
                description="One line per profile: its title, the option counts by status and how many "
                            "of its values gmserver does not carry out.").set_defaults(func=cmd_list)
    show = add_command(
        group, "show", help="every option of a profile: its value, clause and whether gmserver applies it",
        description="Every option of PROFILE by section: whether gmserver applies it, its value, the clause "
                    "it comes from and, for options not (fully) applied, what gmserver does instead. "
                    "Values marked ! are not carried out.")
    show.add_argument("profile", metavar="PROFILE", help="profile name (see `gmserver ruleset list`) or TOML file")
    show.add_argument("--json", action="store_true",
                      help='print {"profile", "options": [{"key", "value", "default", "clause", '
                           '"applied", "status", "instead", "misleads", "section"}]}')
    show.set_defaults(func=cmd_show)
    add_command(group, "docs", help="print docs/rulesets.md (generated from the catalogue and the profiles)",
                description="Print the Markdown of docs/rulesets.md: "
                            "gmserver ruleset docs > docs/rulesets.md").set_defaults(func=cmd_docs)
