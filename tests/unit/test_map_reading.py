"""What the QA walkthrough of the turn report found a player could not read on the map
and the centre chart: no province names, Russia's grey units on Russia's grey land, the chart's
years one phase late and five powers at 3 centres drawn as one line."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from gmserver import centrechart, mapboard, mapimage
from gmserver.reports.extras import centre_history, counts_year
from tests.support.midgame import midgame


@pytest.fixture(scope="module")
def board():
    return mapboard.board()


def test_every_land_province_carries_its_abbreviation_inside_it_or_off_its_coast(board):
    """Each of the 57 land provinces (56 and Switzerland) has ink of its name within its borders,
    but for four too narrow to hold a unit, a centre and a name, on the engine's map: theirs is at
    sea, within 40 px of where their unit stands."""
    alpha = board.names.getchannel("A")
    inked = {value for value, count in
             enumerate(board.labels.histogram(mask=alpha.point([0] + [255] * 255))) if count}
    missing = sorted(code for index, code in enumerate(board.provinces, start=1) if index not in inked)
    assert len(board.provinces) == 57 and missing == ["HOL", "ROM", "TUS", "YOR"]
    for code in missing:
        x, y = board.units[code]
        near = alpha.crop((round(x - 40), round(y - 40), round(x + 40), round(y + 40)))
        assert near.getextrema()[1] == 255, code


def test_names_cover_no_unit_nor_supply_centre(board):
    """A name is placed off every spot a unit stands on (the unit is 26 px wide: 10 px round its
    spot stay clear) and off the centre markers (4 px), so a unit never hides a name nor the other way."""
    alpha = board.names.getchannel("A")
    for spots, reach in ((board.units, 10), (board.centres, 4)):
        for place, (x, y) in spots.items():
            near = [(round(x) + dx, round(y) + dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
                    if dx * dx + dy * dy <= reach * reach]
            assert not any(alpha.getpixel(at) for at in near), place


def test_the_names_are_on_the_mailed_map():
    """Moscow holds no unit in the mid-game turn: its name's dark ink is on the map there."""
    board = mapboard.board()
    image = mapimage.render_map(midgame())
    alpha = board.names.getchannel("A")
    index = board.provinces.index("MOS") + 1
    ink = [(x, y) for x in range(600, 900, 2) for y in range(150, 400, 2)
           if alpha.getpixel((x, y)) == 255 and board.labels.getpixel((x, y)) == index
           and board.names.getpixel((x, y))[:3] == mapboard.NAME_INK]
    assert ink and all(image.getpixel(at) == mapboard.NAME_INK for at in ink)


def test_russias_grey_army_stands_on_a_white_halo_on_russias_grey_land():
    """Russia's army in Warsaw (it failed to move to Galicia), grey (117, 125, 145), on Warsaw tinted
    Russia's grey: 11 px from its centre, past its black rim (10 px), the map is white."""
    image = mapimage.render_map(midgame())
    x, y = mapboard.board().units["WAR"]
    assert image.getpixel((int(x) + 6, int(y))) == (117, 125, 145)  # the power's colour, unchanged
    assert image.getpixel((round(x) - 11, round(y))) == (255, 255, 255)


@pytest.mark.parametrize(("phase", "label"), [
    ("S1901M", "start"), ("F1901M", "start"), ("F1901R", "start"),  # no Fall played yet
    ("W1901A", "1901"),  # the engine moves centres after Fall 1901: Winter 1901 shows them
    ("S1902M", "1901"), ("F1902R", "1901"),
    ("S1903M", "1902"),  # Russia's 6 centres of Fall 1902 are 1902's, not 1903's
    ("COMPLETED", "end"),
])
def test_each_chart_point_is_named_by_the_year_whose_fall_produced_it(phase, label):
    assert counts_year(phase, 1901) == label


def test_the_first_reports_two_points_are_one_year_and_later_points_merge_into_their_year():
    """The first report had S1901M and F1901M, both the starting centres: one point, "start" (and
    the report draws no chart of one point). The points of a year keep the latest counts."""
    assert centre_history([("S1901M", {"RUSSIA": 4}), ("F1901M", {"RUSSIA": 4})]) == (("start",), {"RUSSIA": (4,)})
    years, series = centre_history([("S1901M", {"RUSSIA": 4, "ITALY": 3}), ("S1902M", {"RUSSIA": 5, "ITALY": 4}),
                                    ("S1903M", {"RUSSIA": 6, "ITALY": 4}), ("F1903M", {"RUSSIA": 6, "ITALY": 4})])
    assert years == ("start", "1901", "1902")
    assert series == {"ITALY": (3, 4, 4), "RUSSIA": (4, 5, 6)}


def test_powers_with_the_same_counts_stay_distinguishable_on_the_chart():
    """France and Italy at 3, 4 then 5 centres: drawn in one place Italy's mark would hide
    France's. By hand: the plot is 460 - 48 - 32 px wide, so the years stand at x 48, 238 and
    428; it is 220 - 10 - 24 = 186 px high for 18 centres, so 3, 4 and 5 centres are at y 165,
    154.7 and 144.3. France's mark (first, alphabetically) stands 4 px left, Italy's 4 px right."""
    years, series = centre_history([("S1901M", {"FRANCE": 3, "ITALY": 3}), ("S1902M", {"FRANCE": 4, "ITALY": 4}),
                                    ("S1903M", {"FRANCE": 5, "ITALY": 5})])
    image = Image.open(io.BytesIO(centrechart.centre_chart(years, series))).convert("RGB")
    for x, y in ((48, 165), (238, 154.7), (428, 144.3)):
        assert image.getpixel((x - 4, round(y))) == (65, 105, 225)  # France's royalblue
        assert image.getpixel((x + 4, round(y))) == (34, 139, 34)  # Italy's forestgreen
