"""The fuzz run's check of queued mail (scripts/reliability/fuzz.py reply_problems) reads turn
reports, which are multipart: it once called every one of them broken ("does not parse:
KeyError: 'multipart/mixed'"), so that the full-size run reported BROKEN on a healthy tree."""

from __future__ import annotations

import email.policy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gmserver.mail.compose import Composer, add_html
from gmserver.paths import TEMPLATES_DIR

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "reliability"


@pytest.fixture
def fuzz(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))  # the scripts import their `common` module
    spec = importlib.util.spec_from_file_location("fuzz_under_test", SCRIPTS / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "fuzz_under_test", module)
    spec.loader.exec_module(module)
    return module


def _report() -> bytes:
    composer = Composer(TEMPLATES_DIR, gm_name="Test GM", gm_address="gm@gm.test")
    message = composer.compose(to="france@players.test", subject="lepanto: results of Spring 1901",
                               body="Results of Spring 1901\n", auto_submitted="auto-generated")
    add_html(message, "<p>Results of Spring 1901</p><img src='cid:map@gm.test'>",
             images=[("map@gm.test", b"\x89PNG\r\n\x1a\n map")],
             attachments=[("lepanto-S1901M.png", "image/png", b"\x89PNG\r\n\x1a\n map")])
    return message.as_bytes(policy=email.policy.SMTP)  # as the outbox stores it


def test_a_multipart_turn_report_is_well_formed(fuzz: ModuleType) -> None:
    assert fuzz.reply_problems(_report()) == []


def test_a_part_of_a_report_that_does_not_decode_is_still_found(fuzz: ModuleType) -> None:
    raw = _report()
    html = raw.index(b"Content-Type: text/html")
    broken = raw[:html] + raw[html:].replace(b'charset="utf-8"', b'charset="x-nonesuch"', 1)
    [problem] = fuzz.reply_problems(broken)
    assert problem.startswith("does not parse: LookupError")
