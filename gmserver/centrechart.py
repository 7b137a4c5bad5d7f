"""The report's centre chart: each power's supply centres over the game, one line per power in
the map's colours, as a small PNG (the "beyond any judge" chart). Its points come from
`reports.extras.centre_history`."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from gmserver.mapboard import OUTLINE, RGB, Point, board, png_bytes, power_colour

# (sides, rotation) of each line's point marks, in the series' order: lines that run together
# (five powers at 3 centres) stay apart by their marks as well as by a small offset
MARKS: tuple[tuple[int, float], ...] = ((0, 0), (4, 45), (3, 0), (4, 0), (3, 180), (5, 0), (6, 0))
SPREAD = 1.5  # pixels between the lines of two powers with the same count
MARK_STEP = 8.0  # pixels between the marks of powers with the same count at the same year


def _mark(draw: ImageDraw.ImageDraw, at: Point, rank: int, fill: RGB) -> None:
    sides, rotation = MARKS[rank % len(MARKS)]
    x, y = at
    if sides:
        draw.regular_polygon((x, y, 4.5), sides, rotation=rotation, fill=fill, outline=OUTLINE)
    else:
        draw.ellipse((x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=fill, outline=OUTLINE)


def centre_chart(years: tuple[str, ...], series: dict[str, tuple[int, ...]], *, size: tuple[int, int] = (460, 220)
                 ) -> bytes:
    """Each power's supply centres over the game (one line per power, in the map's colours), a
    PNG: the "beyond any judge" chart. Lines at 6, 12 and 18 centres (18 wins). Each
    point is named by the year whose Fall produced it (`reports.extras.centre_history`)."""
    board_ = board()
    width, height = size
    left, right, top, bottom = 48, 32, 10, 24  # room for the marks of seven powers side by side
    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    top_count = max([18, *(max(values, default=0) for values in series.values())])

    def y_of(count: float) -> float:
        return top + (height - top - bottom) * (1 - count / top_count)

    def x_of(index: int) -> float:
        return left + (width - left - right) * (index / max(len(years) - 1, 1))

    for count in range(0, top_count + 1, 6):
        draw.line([(left, y_of(count)), (width - right, y_of(count))], fill=(220, 220, 220), width=1)
        draw.text((4, y_of(count) - 6), str(count), fill=OUTLINE)
    step = max(math.ceil(len(years) / 10), 1)
    for index, year in enumerate(years):
        last = len(years) - 1
        if index == last or (index % step == 0 and last - index >= step):  # no year crowding the last
            draw.text((x_of(index), height - bottom + 12), year, fill=OUTLINE, anchor="mm")
    powers = sorted(series)
    for rank, power in enumerate(powers):
        shift = (rank - (len(powers) - 1) / 2) * SPREAD
        points = [(x_of(i), y_of(v) + shift) for i, v in enumerate(series[power])]
        if len(points) > 1:
            draw.line(points, fill=power_colour(board_, power), width=2)
    for index in range(len(years)):
        # the powers with the same count here: their marks side by side, centred on the point
        at: dict[int, list[int]] = {}
        for rank, power in enumerate(powers):
            at.setdefault(series[power][index], []).append(rank)
        for count, ranks in at.items():
            for place, rank in enumerate(ranks):
                x = x_of(index) + (place - (len(ranks) - 1) / 2) * MARK_STEP
                _mark(draw, (x, y_of(count)), rank, power_colour(board_, powers[rank]))
    return png_bytes(image)
