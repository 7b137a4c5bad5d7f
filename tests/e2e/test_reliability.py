"""The reliability scripts (scripts/reliability/) in their reduced forms: each runs as a GM would
run it, as a subprocess, and must exit 0 with every invariant it prints held. docs/reliability.md
has the full-size commands and their figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "reliability"


def run_script(name: str, tmp_path: Path, *args: str, timeout: float = 400) -> dict:
    figures = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, str(SCRIPTS / name), *args, "--json", str(figures)],
                          capture_output=True, text=True, timeout=timeout)
    printed = done.stdout + done.stderr
    broken = [line for line in done.stdout.splitlines() if line.startswith("check ") and "BROKEN" in line]
    assert done.returncode == 0 and not broken, f"{name} exit {done.returncode}:\n{printed[-6000:]}"
    assert "result: OK" in done.stdout
    result = json.loads(figures.read_text())
    assert result["ok"] and result["checks"] and all(check["ok"] for check in result["checks"].values())
    return result


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_soak_survives_sigkills(tmp_path: Path, database: str) -> None:
    result = run_script("soak.py", tmp_path, "--database", database, "--kills", "6", "--seed", "7",
                        "--max-uptime", "2.5", "--games", "2", "--turn-seconds", "8")
    figures, checks = result["figures"], result["checks"]
    assert figures["kills"] == 6
    # how many messages a killed daemon acknowledges depends on the host's speed: the run must have
    # acknowledged some, and the checks below hold for whatever it did
    assert figures["messages acknowledged (250)"] > 0
    assert figures["phases adjudicated"] >= 2
    for held in ("no acknowledged message lost", "each acknowledged message stored once", "nothing left pending",
                 "no phase adjudicated twice", "every phase whose deadline passed adjudicated",
                 "one report per player per adjudicated phase queued", "every mail marked sent accepted by the relay",
                 "at most one extra copy at the relay per kill", "an extra copy is the same message, byte for byte"):
        assert checks[held]["ok"]
    assert figures["deliveries at the relay"] > 0


def test_fuzz_run(tmp_path: Path) -> None:
    result = run_script("fuzz.py", tmp_path, "--count", "1000", "--workers", "2", "--seed", "7")
    figures, checks = result["figures"], result["checks"]
    assert figures["messages"] == 1000
    assert len(figures["by generator"]) >= 8  # every generator had its turn
    for held in ("no exception escapes store or process", "nothing left pending", "every queued mail well-formed",
                 "no reply to a message marked automated", "no forged sender accepted in a game whose senders are verified",
                 "replies to strangers and refusals to players within the rate limits"):
        assert checks[held]["ok"]


def test_two_daemons_share_one_postgresql(tmp_path: Path) -> None:
    result = run_script("two_daemons.py", tmp_path, "--games", "50", "--seed", "7", "--max-seconds", "240")
    figures, checks = result["figures"], result["checks"]
    assert figures["phases adjudicated"] == 50 and figures["reports delivered"] == 350
    for held in ("each game adjudicated exactly once", "no report delivered twice (same Message-ID, across the Maildirs)",
                 "each player got exactly one report"):
        assert checks[held]["ok"]


@pytest.mark.parametrize("name", ["soak.py", "fuzz.py", "two_daemons.py"])
def test_scripts_explain_themselves(name: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPTS / name), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--seed" in done.stdout and "Checked" in done.stdout
