"""The README's first command, as a newcomer runs it: `gmserver demo` shows turns and reports."""

from __future__ import annotations

import mailbox
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.dovecot import free_port
from tests.support.web import get

pytestmark = pytest.mark.e2e


def test_demo_plays_turns_and_mails_reports(tmp_path: Path) -> None:
    directory = tmp_path / "demo"
    result = subprocess.run(
        [sys.executable, "-m", "gmserver", "demo", "--dir", str(directory), "--port", str(free_port()),
         "--web-port", str(web_port := free_port()), "--turns", "2", "--turn-seconds", "3"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Spring 1901 Movement adjudicated" in result.stdout
    assert "stopped after 2 adjudication(s)" in result.stdout
    # the demo prints where its pages are (README: "see the pages in the demo")
    assert f"the game's pages: http://127.0.0.1:{web_port}/games/demo (France's own: " \
           f"http://127.0.0.1:{web_port}/games/demo/p/" in result.stdout
    messages = list(mailbox.Maildir(directory / "maildir"))
    reports = [m for m in messages if "results" in str(m["Subject"])]
    confirmations = [m for m in messages if str(m["Subject"]).startswith("Re:")]
    assert len(reports) == 14 and len(confirmations) >= 7
    # QA: the demo's game starts like any other, with a start mail to each of the seven players
    starts = [m for m in messages if str(m["Subject"]).startswith("demo: you play ")]
    assert sorted(str(m["Subject"])[len("demo: you play "):] for m in starts) == [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert {str(m["Delivered-To"]) for m in reports} == {
        f"{p}@bots.gmserver.invalid" for p in ("austria", "england", "france", "germany", "italy", "russia", "turkey")}
    # the demo's configuration file works with every other command
    show = subprocess.run([sys.executable, "-m", "gmserver", "--config", str(directory / "gmserver.toml"),
                           "game", "show", "demo"], capture_output=True, text=True, timeout=60)
    assert show.returncode == 0 and "demo: ruleset standard" in show.stdout


def test_ctrl_c_stops_the_demo_cleanly(tmp_path: Path) -> None:
    import signal
    import time

    directory = tmp_path / "demo"
    process = subprocess.Popen(
        [sys.executable, "-m", "gmserver", "demo", "--dir", str(directory), "--port", str(free_port()),
         "--web-port", str(web_port := free_port()), "--turn-seconds", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        line = ""
        while "adjudicated" not in line and time.monotonic() < deadline:
            line = process.stdout.readline()
        assert "adjudicated" in line
        # the daemon serves the game's pages beside the mail side
        page = get(f"http://127.0.0.1:{web_port}/games/demo")
        assert page.status == 200 and '<h1 id="phase">demo: ' in page.text
        assert get(f"http://127.0.0.1:{web_port}/games/demo/phases/S1901M").status == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "demo: stopped after" in out and "Traceback" not in err
