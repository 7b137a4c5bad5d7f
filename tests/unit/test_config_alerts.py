"""[gm] alert_address: where the GM is mailed about parked mail and outages."""

from pathlib import Path

import pytest

from gmserver.config import ConfigError, load_config
from gmserver.paths import CONFIG_DIR


def test_alerts_go_to_the_gm_address_unless_another_is_given(tmp_path: Path) -> None:
    assert load_config(CONFIG_DIR / "gmserver.example.toml", environ={}).alerts_to == "gm@example.org"
    path = tmp_path / "gm.toml"
    path.write_text('[gm]\naddress = "gm@example.org"\nalert_address = "me@home.example"\n')
    assert load_config(path, environ={}).alerts_to == "me@home.example"


@pytest.mark.parametrize("value", ["nobody", "me@home.example\\r\\nBcc: x@y", "two words@home.example"])
def test_an_alert_address_that_is_not_one_is_refused(tmp_path: Path, value: str) -> None:
    path = tmp_path / "gm.toml"
    path.write_text(f'[gm]\nalert_address = "{value}"\n')
    with pytest.raises(ConfigError, match="gm.alert_address must be an email address"):
        load_config(path, environ={})
