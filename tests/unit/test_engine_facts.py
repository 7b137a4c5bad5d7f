"""The engine's map facts (the map as plain data, the opening position) are built once per engine
version and kept on disk as JSON; every later process reads them instead of loading the engine."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gmserver import engine
from gmserver.paths import cache_dir

REPO = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def fresh() -> engine.EngineFacts:
    return engine.built_facts()


@pytest.fixture
def builds(monkeypatch, fresh: engine.EngineFacts) -> list[int]:
    """Counts the builds from the engine (each gives the facts built once for this module)."""
    counted: list[int] = []

    def build() -> engine.EngineFacts:
        counted.append(1)
        return fresh

    monkeypatch.setattr(engine, "built_facts", build)
    return counted


def test_cached_facts_equal_freshly_built_ones(tmp_path: Path, fresh: engine.EngineFacts, builds) -> None:
    written = engine.cached_facts(tmp_path, "1.1.2")
    read = engine.cached_facts(tmp_path, "1.1.2")
    assert len(builds) == 1  # the second came from the file
    assert read == written == fresh
    assert read.geography.fleet_moves["SPA/NC"] == fresh.geography.fleet_moves["SPA/NC"]
    assert read.opening == engine.position_from_state(engine.initial_state())
    stored = json.loads(next(tmp_path.glob("engine-facts-*.json")).read_text(encoding="utf-8"))
    assert (stored["engine"], stored["format"]) == ("1.1.2", engine.FACTS_FORMAT)  # JSON, never pickle


def test_another_engine_version_builds_the_facts_again(tmp_path: Path, builds) -> None:
    engine.cached_facts(tmp_path, "1.1.2")
    engine.cached_facts(tmp_path, "1.2.0")
    engine.cached_facts(tmp_path, "1.2.0")
    assert len(builds) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        f"engine-facts-{engine.FACTS_FORMAT}-1.1.2.json", f"engine-facts-{engine.FACTS_FORMAT}-1.2.0.json"]


def test_a_damaged_or_foreign_cache_file_is_built_again(tmp_path: Path, fresh: engine.EngineFacts, builds) -> None:
    engine.cached_facts(tmp_path, "1.1.2")
    path = next(tmp_path.glob("engine-facts-*.json"))
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")  # a file cut short
    assert engine.cached_facts(tmp_path, "1.1.2") == fresh
    path.write_text(text.replace('"engine": "1.1.2"', '"engine": "0.9"'), encoding="utf-8")  # copied from elsewhere
    assert engine.cached_facts(tmp_path, "1.1.2") == fresh
    assert len(builds) == 3
    assert json.loads(path.read_text(encoding="utf-8"))["engine"] == "1.1.2"  # written again, whole
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left behind


def test_a_cache_file_someone_else_could_have_written_is_not_used(tmp_path: Path, fresh, builds) -> None:
    """The order reader trusts the map facts: a file of another user, or one others may write
    (a cache directory set to a shared place), is built again rather than read."""
    engine.cached_facts(tmp_path, "1.1.2")
    path = next(tmp_path.glob("engine-facts-*.json"))
    path.chmod(0o666)
    assert engine.cached_facts(tmp_path, "1.1.2") == fresh
    assert len(builds) == 2
    assert path.stat().st_mode & 0o022 == 0  # written again, as this user's own
    if os.getuid() == 0:  # only root can give a file away
        os.chown(path, 4242, -1)
        assert engine.cached_facts(tmp_path, "1.1.2") == fresh
        assert len(builds) == 3


def test_a_cache_directory_that_cannot_be_written_still_gives_the_facts(tmp_path: Path, fresh, builds) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("", encoding="utf-8")
    assert engine.cached_facts(blocked / "gmserver", "1.1.2") == fresh
    assert len(builds) == 1


def test_the_cache_directory_follows_the_environment() -> None:
    assert cache_dir({"GMSERVER_CACHE_DIR": "/srv/gm/cache", "XDG_CACHE_HOME": "/x"}) == Path("/srv/gm/cache")
    assert cache_dir({"XDG_CACHE_HOME": "/x", "HOME": "/home/gm"}) == Path("/x/gmserver")
    assert cache_dir({"HOME": "/home/gm"}) == Path("/home/gm/.cache/gmserver")


def test_a_process_with_the_facts_cached_never_loads_the_engine(tmp_path: Path) -> None:
    """The map, the opening and the map's drawing (the report board's source) without `diplomacy`."""
    code = ("import sys; from gmserver import engine; engine.map_info(); engine.opening_position(); "
            "engine.map_svg(); print('diplomacy' in sys.modules)")
    env = {**os.environ, "GMSERVER_CACHE_DIR": str(tmp_path)}
    first = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    later = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    assert (first.stdout.strip(), later.stdout.strip()) == ("True", "False")


def test_the_facts_this_installation_keeps_are_the_ones_the_code_builds_now(fresh: engine.EngineFacts) -> None:
    """The cache is keyed by the engine's version and FACTS_FORMAT, not by gmserver's code: a change
    to what built_facts() builds must raise FACTS_FORMAT, or every process goes on reading the old
    facts. This compares the cache in use (the developer's own) with a fresh build."""
    assert engine.engine_facts() == fresh, "engine.FACTS_FORMAT must be raised: the cached facts are stale"


def test_the_engine_version_is_the_installed_distributions() -> None:
    """Read from the dist-info's name (cheaper than importlib.metadata, which must agree)."""
    assert engine.engine_version() == importlib.metadata.version("diplomacy")
