"""The stored turn report is JSON (services/base/report_copies.py, reports/codec.py): the mid-game report
(tests/support/midgame.py) comes back equal from its payload, the mail written from the payload
is the mail written from the report itself, the JSON says what a GM would look for in plain
words, and a payload that is not one of this version fails with a reason, running nothing."""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from gmserver.reports.codec import CodecError, from_json, to_json
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import OrderOutcome
from gmserver.services.base import report_copies as report_mail
from tests.support.midgame import midgame_parts


@pytest.fixture(scope="module")
def parts() -> report_mail.ReportParts:
    return midgame_parts()


@pytest.fixture(scope="module")
def payload(parts) -> str:
    return report_mail.payload_of(parts)


def test_the_midgame_report_comes_back_equal_from_its_payload(parts, payload) -> None:
    back = report_mail.parts_of(payload)
    assert back == parts
    # equal datetimes may differ in offset; these keep theirs (the Date header prints it)
    assert back.now.utcoffset() == timedelta(0) and back.contexts[0].next_deadline.at.utcoffset() == timedelta(0)
    assert back.contexts[0].press[0].text == "Peace in the west <3, é"


def test_the_mail_written_from_the_payload_is_the_mail_written_from_the_report(parts, payload) -> None:
    """Storing the report changes no byte of the mail (the boundaries come from the payload's
    digest in both)."""
    report_mail.forget_written()
    stored, composer, _ = report_mail._base_message(payload)
    direct = report_mail.report_message(composer, parts, hashlib.sha256(payload.encode()).hexdigest())
    assert stored.as_bytes(policy=report_mail.smtp_policy("a@b.test")) == direct.as_bytes(
        policy=report_mail.smtp_policy("a@b.test"))


def test_the_payload_is_ascii_json_a_gm_can_read(payload) -> None:
    """By hand from tests/support/midgame.py: France's order `A PIC - BEL` is stored as written;
    the deadline's time with its offset; Italy, in civil disorder, by name; the é of France's
    press escaped (the text is ASCII, for a database of any encoding)."""
    assert payload.isascii()
    data = json.loads(payload)
    assert data["version"] == 2
    report = data["report"]
    assert report["now"] == "2026-11-26T18:00:00+00:00"
    assert {"power": "FRANCE", "order": "A PIC - BEL", "results": [], "defaulted": False,
            "note": None} in report["outcome"]["orders"]
    assert report["contexts"][0]["civil_disorder"] == ["Italy"]
    assert report["contexts"][0]["press"][0]["text"] == "Peace in the west <3, \u00e9"
    assert "\\u00e9" in payload
    assert report["centre_points"] == [["S1901M", {"FRANCE": 5, "ITALY": 4}], ["F1902M", {"FRANCE": 6, "ITALY": 4}]]


def test_a_removal_is_stored_field_by_field_a_disband_as_its_notation() -> None:
    """`A PAR D` reads back as a disband (rules/order.py, without the phase): a removal, whose
    notation is the same, keeps its action only when written field by field."""
    removal = OrderOutcome("FRANCE", Order("remove", Unit("A", "PAR")))
    disband = OrderOutcome("FRANCE", Order("disband", Unit("A", "PAR")))
    assert to_json(disband, OrderOutcome)["order"] == "A PAR D"
    written = to_json(removal, OrderOutcome)["order"]
    assert written == {"action": "remove", "unit": "A PAR", "target": None, "other": None, "via_convoy": False,
                       "route": []}
    for outcome in (removal, disband):
        assert from_json(json.loads(json.dumps(to_json(outcome, OrderOutcome))), OrderOutcome) == outcome


def test_times_keep_their_offset_and_mappings_their_order() -> None:
    sydney = datetime(2026, 11, 29, 5, 0, tzinfo=timezone(timedelta(hours=11)))
    assert to_json(sydney, datetime) == "2026-11-29T05:00:00+11:00"
    assert from_json("2026-11-29T05:00:00+11:00", datetime).utcoffset() == timedelta(hours=11)
    counts = {"TURKEY": 5, "AUSTRIA": 3}  # not alphabetical: the chart draws them in this order
    assert list(from_json(to_json(counts, Mapping[str, int]), Mapping[str, int])) == ["TURKEY", "AUSTRIA"]


def test_another_version_or_a_pickle_fails_with_a_reason(payload) -> None:
    older = json.dumps({**json.loads(payload), "version": 1})
    with pytest.raises(ValueError, match="version 1; this gmserver reads version 2"):
        report_mail.parts_of(older)
    with pytest.raises(ValueError, match="not JSON.*a pickle"):
        report_mail.parts_of(pickle.dumps((1, "a report")).decode("latin-1"))


RAN: list[str] = []


def _run(what: str) -> None:
    RAN.append(what)


class _Runs:
    def __reduce__(self):
        return (_run, ("code ran",))  # unpickling calls _run


def test_reading_a_payload_runs_no_code() -> None:
    """A pickle that would run code when unpickled, put where a payload goes: refused, not run."""
    evil = pickle.dumps(_Runs())
    pickle.loads(evil)  # what the pickle payload would have done
    assert RAN == ["code ran"]
    with pytest.raises(ValueError):
        report_mail.parts_of(evil)  # type: ignore[arg-type]  (bytes, as from the old bytea column)
    assert RAN == ["code ran"]


def test_a_field_of_the_wrong_kind_is_named_by_its_path(payload) -> None:
    data = json.loads(payload)
    data["report"]["contexts"][0]["orders"][1]["orders"][0]["defaulted"] = "no"
    with pytest.raises(CodecError, match=r"report\.contexts\[0\]\.orders\[1\]\.orders\[0\]\.defaulted: str 'no' "
                                         r"is not a bool"):
        report_mail.parts_of(json.dumps(data))
    data = json.loads(payload)
    data["report"]["outcome"]["orders"][0]["order"] = "A PAR TO BUR"
    with pytest.raises(CodecError, match=r"report\.outcome\.orders\[0\]\.order: not a Order"):
        report_mail.parts_of(json.dumps(data))
    data = json.loads(payload)
    data["report"]["surprise"] = 1
    with pytest.raises(CodecError, match="ReportParts has no field surprise"):
        report_mail.parts_of(json.dumps(data))


def test_what_has_no_json_form_is_refused_when_written() -> None:
    """An `Any` field (the outcome's engine state) takes JSON values only; a set has no JSON form."""
    assert to_json({"units": ["A PAR"]}, Mapping[str, Any]) == {"units": ["A PAR"]}
    with pytest.raises(CodecError, match=r"\['units'\]: tuple"):
        to_json({"units": ("A PAR",)}, Mapping[str, Any])  # it would come back a list
    with pytest.raises(CodecError, match="no JSON form"):
        to_json({"PAR"}, set[str])


def test_the_planned_writer_writes_what_the_walk_writes(parts) -> None:
    """to_json runs a plan made once per type hint; the walk beside the
    hints, kept to name where a value fails, must give the very same JSON for the mid-game report."""
    from gmserver.reports.codec import _walk_to_json

    assert to_json(parts, report_mail.ReportParts) == _walk_to_json(parts, report_mail.ReportParts)


def test_a_value_of_the_wrong_kind_is_named_by_its_path_when_written() -> None:
    """The plan refuses without a path; the error still names the value's place in the report."""
    wrong = OrderOutcome("FRANCE", Order("hold", Unit("A", "PAR")), defaulted="no")  # type: ignore[arg-type]
    with pytest.raises(CodecError, match=r"^\[1\]\.defaulted: str 'no' is not a bool"):
        to_json((OrderOutcome("ITALY", Order("hold", Unit("A", "ROM"))), wrong), tuple[OrderOutcome, ...])
    with pytest.raises(CodecError, match=r"^\.results: str 'bounce' is not a tuple"):
        to_json(OrderOutcome("FRANCE", Order("hold", Unit("A", "PAR")), "bounce"), OrderOutcome)  # type: ignore[arg-type]
