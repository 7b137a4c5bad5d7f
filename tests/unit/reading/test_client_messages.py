"""The text read from each whole client message of tests/data/clients (hand-written
reconstructions) is exactly its hand-written `read` lines, with LF or CRLF line ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gmserver.rules.reading.message import extract_order_text

CLIENTS = Path(__file__).resolve().parents[2] / "data" / "clients"
EXPECTED = {name: case for name, case in json.loads((CLIENTS / "expected.json").read_text()).items()
            if name.endswith(".eml")}


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
def test_only_the_new_text_of_a_client_message_is_read(name: str, crlf: bool) -> None:
    raw = (CLIENTS / name).read_bytes()
    if crlf:
        raw = raw.replace(b"\n", b"\r\n")
    assert extract_order_text(raw).split("\n") == EXPECTED[name]["read"]
