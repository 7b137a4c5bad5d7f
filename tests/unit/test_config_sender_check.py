"""[inbound] trusted_authserv_ids: the receiving servers whose Authentication-Results are believed."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmserver.config import ConfigError, load_config

EXAMPLE = Path(__file__).resolve().parents[2] / "config" / "gmserver.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "gmserver.toml"
    path.write_text(text)
    return path


def test_default_trusts_no_header() -> None:
    assert load_config(None, environ={}).trusted_authserv_ids == ()
    assert load_config(EXAMPLE, environ={}).trusted_authserv_ids == ()


def test_a_list_of_authserv_ids(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[inbound]\ntrusted_authserv_ids = ["MX.example.org", "mx2.example.org"]\n'),
                         environ={})
    assert config.trusted_authserv_ids == ("mx.example.org", "mx2.example.org")


@pytest.mark.parametrize("value", ['"mx.example.org"', "[1]", '[""]'])
def test_anything_else_is_a_readable_error(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="inbound.trusted_authserv_ids must be a list of strings"):
        load_config(write(tmp_path, f"[inbound]\ntrusted_authserv_ids = {value}\n"), environ={})
