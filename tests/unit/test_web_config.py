"""The `[web]` section of the configuration and the GM's password hash."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gmserver.config import Config, ConfigError, load_config
from gmserver.web.auth import basic_password, hash_password, password_matches


def build_config(text: str, tmp_path: Path) -> Config:
    tomllib.loads(text)  # the test's own TOML is right
    path = tmp_path / "gmserver.toml"
    path.write_text(text)
    return load_config(path, environ={})


def test_web_is_off_by_default_and_on_with_listen(tmp_path: Path) -> None:
    assert not build_config("", tmp_path).web.enabled
    web = build_config('[web]\nlisten = "127.0.0.1:8080"\nbase_url = "https://dip.example.org"\n', tmp_path).web
    assert web.enabled and web.host_and_port == ("127.0.0.1", 8080) and web.base_url == "https://dip.example.org"
    assert web.public and web.requests_per_minute == 120


def test_every_wrong_web_key_is_named_at_once(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        build_config('[web]\nlisten = "8080"\nbase_url = "dip.example.org"\ngm_password_hash = "sesame"\n'
                     'requests_per_minute = 0\n', tmp_path)
    message = str(error.value)
    assert "web.listen must be host:port" in message and "web.base_url must be an http(s) URL" in message
    assert "web.gm_password_hash must be what `gmserver web --hash-password` prints" in message
    assert "web.requests_per_minute must be from 1 to 100000, not 0" in message


def test_the_gm_password_is_stored_hashed_and_checked() -> None:
    stored = hash_password("sesame", iterations=1000)
    assert "sesame" not in stored and stored.startswith("pbkdf2_sha256$1000$")
    assert password_matches("sesame", stored) and not password_matches("Sesame", stored)
    assert not password_matches("sesame", "pbkdf2_sha256$x$y$z") and not password_matches("sesame", "")
    assert basic_password("Basic Z206c2VzYW1l") == "sesame" and basic_password("Basic !!") is None
    assert basic_password("Bearer x") is None and basic_password(None) is None
