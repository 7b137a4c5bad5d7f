"""000 VIII(2), VIII(3) (extra_unit_repair = mhr): the audit's comparison of a replayed
board with the stored one, and the repair it proposes. Boards written by hand; the replay is the
engine's (tests/integration/test_gm_audit.py)."""

from __future__ import annotations

import pytest

from gmserver.rules.audit import differences, proposed_repair
from gmserver.rules.position import Position


def board(phase: str, **units) -> Position:
    return Position.from_json({"phase": phase, "units": units, "centers": {}})


REPLAY = board("F1902M", FRANCE=["A BUR", "F BRE"], GERMANY=["A MUN"])


@pytest.mark.parametrize(("stored", "surplus", "missing"), [
    pytest.param(board("F1902M", FRANCE=["A BUR", "F BRE"], GERMANY=["A MUN"]), None, None, id="the same board"),
    pytest.param(board("F1902M", FRANCE=["A BUR", "F BRE", "A MOS"], GERMANY=["A MUN"]), ("A MOS",), (),
                 id="000 VIII(2) a unit the orders do not give"),
    pytest.param(board("F1902M", FRANCE=["A PIC", "F BRE"], GERMANY=["A MUN"]), ("A PIC",), ("A BUR",),
                 id="000 VIII(3) a unit in the wrong province"),
    pytest.param(board("F1902M", FRANCE=["F BRE"], GERMANY=["A MUN"]), (), ("A BUR",), id="a unit missing"),
])
def test_000_VIII_2_differences_power_by_power(stored, surplus, missing) -> None:
    found = differences("S1902M", REPLAY, stored)
    if surplus is None:
        assert found == []
        return
    (difference,) = found
    assert (difference.power, difference.surplus, difference.missing) == ("FRANCE", surplus, missing)


def test_000_VIII_2_the_difference_in_words() -> None:
    (difference,) = differences("S1902M", REPLAY, board("F1902M", FRANCE=["A PIC", "F BRE"], GERMANY=["A MUN"]))
    assert difference.describe() == (
        "Fall 1902 Movement: France has A PIC, which the orders of Spring 1902 Movement do not give it (a surplus "
        "unit, house rules 000 VIII(2)); and lacks A BUR, which those orders give it")


@pytest.mark.parametrize(("stored", "current", "command"), [
    # 000 VIII(3): A PIC should be in Burgundy, which is free: moved there
    pytest.param(["A PIC", "F BRE"], {"FRANCE": ["A PIC", "F BRE"], "GERMANY": ["A MUN"]},
                 'gmserver game repair g FRANCE "A PIC" --to BUR', id="000 VIII(3) moved where it should be"),
    # Burgundy now holds a German army: disbanded (000 VIII(3): "else disbanded")
    pytest.param(["A PIC", "F BRE"], {"FRANCE": ["A PIC", "F BRE"], "GERMANY": ["A BUR"]},
                 'gmserver game repair g FRANCE "A PIC"', id="000 VIII(3) its province taken: disbanded"),
    # a unit the orders never gave: removed (000 VIII(2))
    pytest.param(["A BUR", "F BRE", "A MOS"], {"FRANCE": ["A BUR", "F BRE", "A MOS"], "GERMANY": ["A MUN"]},
                 'gmserver game repair g FRANCE "A MOS"', id="000 VIII(2) removed"),
    # the surplus unit has moved on since: nothing on the current board to repair
    pytest.param(["A BUR", "F BRE", "A MOS"], {"FRANCE": ["A BUR", "F BRE", "A STP"], "GERMANY": ["A MUN"]},
                 None, id="no longer on the board"),
])
def test_000_VIII_3_the_repair_proposed(stored, current, command) -> None:
    (difference,) = differences("S1902M", REPLAY, board("F1902M", FRANCE=stored, GERMANY=["A MUN"]))
    proposal = proposed_repair(difference, board("F1902M", **current))
    assert (proposal.command("g") if proposal else None) == command


def test_a_repair_the_gm_recorded_explains_its_difference() -> None:
    """`gmserver game repair` removed A BUR: the board lacks it, as the GM decided."""
    (difference,) = differences("S1902M", REPLAY, board("F1902M", FRANCE=["F BRE"], GERMANY=["A MUN"]),
                                [{"power": "FRANCE", "unit": "A BUR", "to": None}])
    assert difference.explained == ("A BUR removed",) and "(the GM's repair: A BUR removed)" in difference.describe()
    assert proposed_repair(difference, board("F1902M", FRANCE=["F BRE"], GERMANY=["A MUN"])) is None


def test_the_repair_as_the_gm_writes_it_by_mail() -> None:
    (difference,) = differences("S1902M", REPLAY, board("F1902M", FRANCE=["A PIC", "F BRE"], GERMANY=["A MUN"]))
    current = board("F1902M", FRANCE=["A PIC", "F BRE"], GERMANY=["A MUN"])
    assert proposed_repair(difference, current).mail() == "repair FRANCE A PIC to BUR"
