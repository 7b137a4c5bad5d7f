"""Does every option marked applied matter? For each one, force it to its catalogue default in
every profile (tests/support/force_default.py) and run a subset of the tests: an applied option
whose forcing breaks no test is not proven by any test.

    nice python scripts/option_mutation.py [--only OPTION,...] [--tests PATH ...]

Prints a Markdown table: option, the profiles whose value differs from the default, how many
tests fail with the option forced (and how many of those outside the corpus snapshot,
tests/unit/reading/test_corpus.py, which mirrors the reader's own output), and the first
failing test. The subset (TESTS) is the fast tests that read orders under each profile and
decide who may send what (about 930 tests, 7-10 s a run; all applied options in about 7 minutes
on a shared 2-core machine); the integration tests are left out for time.
Options with a single allowed value cannot differ from their default and are listed as such.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gmserver.rules.ruleset import available_rulesets, load_ruleset  # noqa: E402
from gmserver.rules.ruleset_options import APPLIED, OPTIONS  # noqa: E402
from gmserver.rules.ruleset_view import single_valued  # noqa: E402

TESTS = [
    "tests/unit/reading/test_conditions.py",
    "tests/unit/reading/test_corpus.py",
    "tests/unit/reading/test_forms.py",
    "tests/unit/reading/test_options.py",
    "tests/unit/reading/test_seed_examples.py",
    "tests/unit/reading/test_sets_and_adjustments.py",
    "tests/unit/test_defaults.py",
    "tests/unit/test_defaults_engine.py",
    "tests/unit/test_intake_decide.py",
    "tests/unit/test_ruleset_applied.py",
    "tests/unit/test_nmr.py",
    "tests/unit/test_game_end.py",
    "tests/unit/test_schedule.py",
    "tests/unit/test_late_proof.py",
    "tests/unit/test_gm_controls_rules.py",
    "tests/unit/test_corrections.py",
    "tests/unit/test_convoys.py",
    "tests/unit/test_convoy_routes.py",
    "tests/unit/test_delays.py",
    "tests/unit/test_pace.py",
    "tests/unit/test_set_feedback.py",
]
# Tests that compare a profile's values with a copy of them: forcing an option fails them
# whatever the code does, so they prove nothing here.
# (None now: the profiles' clauses and their values are one piece of data, never copied.)
DESELECT: list[str] = []
SNAPSHOT = "tests/unit/reading/test_corpus.py"


def run(tests: list[str], forced: str | None) -> tuple[list[str], str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if forced:
        env["GMSERVER_FORCE_DEFAULT"] = forced
    command = [sys.executable, "-m", "pytest", "-q", "--tb=no", "-rf", "-p", "no:cacheprovider",
               "-p", "tests.support.force_default", *[f"--deselect={d}" for d in DESELECT], *tests]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    failed = re.findall(r"^FAILED (.+?)(?: - .*)?$", done.stdout, re.MULTILINE)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-300:]
    return failed, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated options (default: every applied option)")
    parser.add_argument("--tests", nargs="*", default=TESTS, help="test paths (default: the subset above)")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else [n for n, s in OPTIONS.items() if s.status == APPLIED]
    profiles = {p: load_ruleset(p) for p in available_rulesets()}

    start = time.monotonic()
    failed, summary = run(args.tests, None)
    print(f"baseline ({len(args.tests)} files): {summary}", file=sys.stderr)
    if failed:
        print("the subset fails without forcing anything: fix that first", file=sys.stderr)
        return 1
    print("| Option | Profiles not at the default | Tests failing when forced | Outside the corpus snapshot "
          "| First failing test |")
    print("|---|---|---|---|---|")
    unproven = []
    for name in names:
        default = OPTIONS[name].default
        differ = [p for p, r in profiles.items() if r.option(name) != default]
        if single_valued(name):
            print(f"| `{name}` | - | one allowed value: cannot differ | - | - |", flush=True)
            continue
        failed, summary = run(args.tests, name)
        outside = [t for t in failed if not t.startswith(SNAPSHOT)]
        first = (outside or failed or ["**none**"])[0]
        if not failed:
            unproven.append(name)
        print(f"| `{name}` | {', '.join(differ) or '-'} | {len(failed)} | {len(outside)} | {first} |", flush=True)
    print(f"\n{len(names)} options in {time.monotonic() - start:.0f} s; not proven by any test: "
          f"{', '.join(unproven) or 'none'}", file=sys.stderr)
    return 1 if unproven else 0


if __name__ == "__main__":
    sys.exit(main())
