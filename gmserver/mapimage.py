"""The report's map: a PNG of the position after a phase, with the orders just adjudicated, and
the position alone for a player's MAP request.

Each map copies the static board (gmserver/mapboard.py: the engine's SVG rasterised once per
process, with the provinces' names on a layer of their own) and draws owned centres, orders and
units on it with Pillow. The goal is under 100 ms per map (benchmarks/bench_map.py
measures it).
"""

from __future__ import annotations

import functools
import io
import math
import zlib
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from gmserver.mapboard import OUTLINE, RGB, Board, Point, board, font, power_colour
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import OrderOutcome, PhaseOutcome, Position, describe_phase

# Order marks: black for what failed, red for dislodgements (readable on every power's colour).
FAILED: RGB = (200, 0, 0)
HALO: RGB = (255, 255, 255)  # round every unit, so that it stands out from land of its own colour


def _owners(position: Position) -> dict[str, str]:
    return {centre: power for power, centres in position.centers.items() for centre in centres}


TINT = 120  # of 255: how strongly an owned province takes its owner's colour (names stay legible)


Box = tuple[int, int, int, int]  # left, top, right, bottom


def _tint_centres(image: Image.Image, board_: Board, position: Position, box: Box | None = None) -> None:
    """The provinces of the supply centres each power owns, washed with its colour: one
    palette maps each province's number to its owner's colour, in one paste
    (within `box` alone, for a map cropped to it: the lookups cost in proportion to the area)."""
    index = {code: number + 1 for number, code in enumerate(board_.provinces)}
    owner: dict[int, RGB] = {index[c]: power_colour(board_, power)
                             for power, centres in position.centers.items() for c in centres if c in index}
    if not owner:
        return
    labels = board_.labels.crop(box or (0, 0, *board_.labels.size))  # a copy: the palette goes on it
    mask = labels.point([TINT if value in owner else 0 for value in range(256)])
    # the province numbers read as palette indices: each pixel its owner's colour in one pass
    palette = bytearray(3 * 256)
    for value, colour in owner.items():
        palette[3 * value:3 * value + 3] = bytes(colour)
    labels.putpalette(palette)
    image.paste(labels.convert("RGB"), box=None if box is None else box[:2], mask=mask)


def _draw_names(image: Image.Image, board_: Board, box: Box | None = None) -> None:
    """The provinces' names: the pieces of their layer that hold ink (within `box` alone)."""
    for (left, top), piece in board_.name_pieces:
        if box is None or (left < box[2] and box[0] < left + piece.width and top < box[3] and box[1] < top + piece.height):
            image.paste(piece, (left, top), mask=piece)


UNIT_REACH = 20  # pixels round a unit's or centre's spot that its drawing (halo, rim) may cover


def _near(at: Point, box: Box | None) -> bool:
    """Whatever is drawn at `at` may show within `box` (the whole board when None): what lies
    farther out is not drawn on a map cropped to `box`, as it would be cropped away."""
    return box is None or (box[0] - UNIT_REACH <= at[0] <= box[2] + UNIT_REACH
                           and box[1] - UNIT_REACH <= at[1] <= box[3] + UNIT_REACH)


def _draw_centres(draw: ImageDraw.ImageDraw, board_: Board, position: Position, box: Box | None = None) -> None:
    """Each owned supply centre's marker filled with its owner's colour (near `box` alone)."""
    for centre, power in _owners(position).items():
        if centre in board_.centres and _near(board_.centres[centre], box):
            x, y = board_.centres[centre]
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=power_colour(board_, power), outline=OUTLINE, width=1)


def _draw_halo(draw: ImageDraw.ImageDraw, at: Point, kind: str) -> None:
    """The white ground a unit stands on: a unit in its power's colour on land tinted that colour
    (Russia's grey on grey) still stands out, and the colours players know stay as they are."""
    x, y = at
    if kind == "A":
        draw.ellipse((x - 12, y - 12, x + 12, y + 12), fill=HALO)
    else:
        draw.polygon([(x - 16, y - 5), (x + 16, y - 5), (x + 10, y + 9), (x - 10, y + 9)], fill=HALO)
        draw.rectangle((x - 4, y - 13, x + 4, y - 3), fill=HALO)


def _draw_unit(draw: ImageDraw.ImageDraw, at: Point, kind: str, colour: RGB, *, dislodged: bool = False) -> None:
    """An army is a disc, a fleet a hull; a dislodged unit has a red rim."""
    x, y = at
    rim = FAILED if dislodged else OUTLINE
    if kind == "A":
        draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=colour, outline=rim, width=3)
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=(255, 255, 255))  # an army is a ringed disc
    else:
        draw.polygon([(x - 13, y - 3), (x + 13, y - 3), (x + 8, y + 7), (x - 8, y + 7)], fill=colour, outline=rim,
                     width=2)
        draw.rectangle((x - 2, y - 11, x + 2, y - 3), fill=colour, outline=rim)


def _draw_units(draw: ImageDraw.ImageDraw, board_: Board, position: Position, box: Box | None = None) -> None:
    """Every unit (near `box` alone), standing then dislodged, each on its halo; the halos all go
    down first, so that one never covers a unit next to it (a dislodged unit is drawn beside the
    one that won)."""
    drawn: list[tuple[Point, str, RGB, bool]] = []
    for power, units in sorted(position.units.items()):
        for unit in map(Unit.parse, units):
            at = _point(board_, unit.location)
            if at is not None and _near(at, box):
                drawn.append((at, unit.kind, power_colour(board_, power), False))
    for power, units in sorted(position.dislodged.items()):
        for unit in map(Unit.parse, units):
            at = board_.dislodged.get(unit.location)
            if at is not None and _near(at, box):
                drawn.append((at, unit.kind, power_colour(board_, power), True))
    for at, kind, _, _ in drawn:
        _draw_halo(draw, at, kind)
    for at, kind, colour, dislodged in drawn:
        _draw_unit(draw, at, kind, colour, dislodged=dislodged)


def _point(board_: Board, location: str | None) -> Point | None:
    if location is None:
        return None
    return board_.units.get(location) or board_.units.get(location.split("/")[0])


def _shorten(start: Point, end: Point, by: float) -> Point:
    """`end` moved `by` pixels back towards `start`, so an arrow stops at a unit's edge."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    return end[0] - dx / length * by, end[1] - dy / length * by


def _arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: RGB, width: int = 4) -> None:
    tip = _shorten(start, end, 9)
    draw.line([start, tip], fill=OUTLINE, width=width + 2)
    draw.line([start, tip], fill=colour, width=width)
    angle = math.atan2(tip[1] - start[1], tip[0] - start[0])
    head = [tip] + [(tip[0] - 13 * math.cos(angle + turn), tip[1] - 13 * math.sin(angle + turn)) for turn in (0.45, -0.45)]
    draw.polygon(head, fill=colour, outline=OUTLINE)


def _dotted(draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: RGB) -> None:
    """A support or convoy: a dotted line ending in a ring round what it helps."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    steps = max(int(length // 7), 1)
    for step in range(steps + 1):
        x = start[0] + (end[0] - start[0]) * step / steps
        y = start[1] + (end[1] - start[1]) * step / steps
        draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=colour, outline=OUTLINE)
    draw.ellipse((end[0] - 6, end[1] - 6, end[0] + 6, end[1] + 6), outline=colour, width=2)


def _cross(draw: ImageDraw.ImageDraw, at: Point, size: float = 6, colour: RGB = FAILED) -> None:
    x, y = at
    draw.line([(x - size, y - size), (x + size, y + size)], fill=colour, width=3)
    draw.line([(x - size, y + size), (x + size, y - size)], fill=colour, width=3)


def _draw_order(draw: ImageDraw.ImageDraw, board_: Board, outcome: OrderOutcome) -> None:
    order: Order = outcome.order
    if order.unit is None:
        return
    colour = power_colour(board_, outcome.power)
    start = _point(board_, order.unit.location)
    target = _point(board_, order.target)
    if start is None:
        return
    if order.action in ("move", "retreat") and target is not None:
        _arrow(draw, start, target, colour if outcome.succeeded else (255, 255, 255))
        if not outcome.succeeded:
            _cross(draw, _shorten(start, target, 18))
    elif order.action in ("support_move", "convoy") and target is not None and order.other is not None:
        other = _point(board_, order.other.location)
        if other is not None:  # the help lands half-way along the helped move
            _dotted(draw, start, ((other[0] + target[0]) / 2, (other[1] + target[1]) / 2), colour)
    elif order.action == "support_hold" and order.other is not None:
        other = _point(board_, order.other.location)
        if other is not None:
            _dotted(draw, start, other, colour)
    elif order.action in ("disband", "remove"):
        _cross(draw, start, 10, colour=OUTLINE)
    elif order.action == "build" and outcome.succeeded:
        draw.ellipse((start[0] - 13, start[1] - 13, start[0] + 13, start[1] + 13), outline=colour, width=3)
    if "dislodged" in outcome.results:  # 002: a dislodged unit is marked where it stood
        draw.ellipse((start[0] - 14, start[1] - 14, start[0] + 14, start[1] + 14), outline=FAILED, width=3)
        _cross(draw, start, 12)


def _board_with_centres(board_: Board, position: Position,
                        box: Box | None = None) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A copy of the board with the owned centres tinted and marked and the provinces' names
    (tinted, named and marked within `box` alone, for a map cropped to it: then the copy holds
    only the board from its top left corner to the box's far corner, which is where the drawing
    stays where it was, and what is drawn past that corner is left out as it would be cropped)."""
    image = board_.image.copy() if box is None else board_.image.crop((0, 0, box[2], box[3]))
    _tint_centres(image, board_, position, box)
    _draw_names(image, board_, box)
    draw = ImageDraw.Draw(image)
    _draw_centres(draw, board_, position, box)
    return image, draw


def render_map(outcome: PhaseOutcome, caption: str = "orders and results") -> Image.Image:
    """The position after `outcome` with its orders: centres, then orders, then the units on top."""
    board_ = board()
    image, draw = _board_with_centres(board_, outcome.after)
    supports = [o for o in outcome.orders if o.order.action not in ("move", "retreat")]
    moves = [o for o in outcome.orders if o.order.action in ("move", "retreat")]
    for order in (*supports, *moves):
        _draw_order(draw, board_, order)
    _draw_units(draw, board_, outcome.after)
    _caption(draw, f"{describe_phase(outcome.phase)}: {caption}")
    return image


def _caption(draw: ImageDraw.ImageDraw, text: str, at: Point = (14, 16)) -> None:
    """What the map shows, in the engine's note box at its top left (the phase text it had is blanked)."""
    draw.text(at, text, fill=OUTLINE, font=font())


def position_png(position: Position) -> bytes:
    """The board as it stands, no orders drawn: the answer to a player's MAP request."""
    board_ = board()
    image, draw = _board_with_centres(board_, position)
    _draw_units(draw, board_, position)
    _caption(draw, f"{describe_phase(position.phase)}: the position")
    return compact_png(image)


def map_png(outcome: PhaseOutcome) -> bytes:
    """`render_map` as PNG bytes, for the report's inline image."""
    return compact_png(render_map(outcome))


def planned_png(planned: PhaseOutcome) -> bytes:
    """The position with a player's orders on file, not adjudicated yet (their web page): each
    drawn as a move that succeeds, since nothing says yet which will fail."""
    return compact_png(render_map(planned, "your orders on file"))


OWN_ORDERS_MARGIN = 70  # pixels round the orders' places on the confirmation's map
OWN_ORDERS_MIN = (360, 260)  # its least size: the caption fits, and a lone hold still shows its neighbours
# Z_RLE: the confirmation's map is quantized and written in about half the time of the default
# strategy, for files some 12 % larger (docs/performance.md); it is drawn for every full
# confirmation, while a report's map is drawn once for its seven copies and keeps the default.
ORDERS_MAP_DEFLATE = zlib.Z_RLE


def own_orders_png(position: Position, power: str, orders: Sequence[Order]) -> bytes | None:
    """`own_orders_image` as the PNG the confirmation attaches, deflated with Z_RLE (ORDERS_MAP_DEFLATE)."""
    image = own_orders_image(position, power, orders)
    return None if image is None else compact_png(image, deflate=ORDERS_MAP_DEFLATE)


def own_orders_image(position: Position, power: str, orders: Sequence[Order]) -> Image.Image | None:
    """A player's own orders as gmserver read them, on the board cropped to them (the
    confirmation's small map): moves and retreats as arrows, supports and convoys dotted to what
    they help, holds ringed, builds circled; nothing is adjudicated, so nothing is marked failed.
    None when no order names a place on the board (a waive alone)."""
    board_ = board()
    outcomes = [OrderOutcome(power, order) for order in orders]
    places = [at for o in outcomes for at in (_point(board_, o.order.unit.location if o.order.unit else None),
                                               _point(board_, o.order.target),
                                               _point(board_, o.order.other.location if o.order.other else None))
              if at is not None]
    if not places:
        return None
    box = _box_round(places, board_.image.size)
    image, draw = _board_with_centres(board_, position, box)
    for outcome in sorted(outcomes, key=lambda o: o.order.action in ("move", "retreat")):
        _draw_order(draw, board_, outcome)
        if outcome.order.action == "hold" and (at := _point(board_, outcome.order.unit.location if outcome.order.unit
                                                            else None)) is not None:
            draw.ellipse((at[0] - 17, at[1] - 17, at[0] + 17, at[1] + 17), outline=OUTLINE, width=3)
    _draw_units(draw, board_, position, box)
    image = image.crop(box)
    at, caption = _caption_on_halo(f"{describe_phase(position.phase)}: {power.title()}'s orders as read")
    image.paste(caption, at)
    return image


@functools.lru_cache(maxsize=64)
def _caption_on_halo(text: str) -> tuple[tuple[int, int], Image.Image]:
    """The caption at its place in the map's top left, on a white ground that keeps it legible
    on any land: (where it goes, its picture). Laying the text out costs as much as the rest of
    the drawing, and a burst of confirmations has a few captions (one per power and phase)."""
    left, top, right, bottom = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox((14, 16), text, font=font())
    # one pixel wider and taller than the text's box: the white ground was a rectangle drawn through both corners
    picture = Image.new("RGB", (right - left + 1, bottom - top + 1), HALO)
    _caption(ImageDraw.Draw(picture), text, (14 - left, 16 - top))
    return (left, top), picture


def _box_round(places: Sequence[Point], size: tuple[int, int]) -> Box:
    """The crop box round `places` with OWN_ORDERS_MARGIN, at least OWN_ORDERS_MIN, inside `size`."""
    left, right = min(x for x, _ in places) - OWN_ORDERS_MARGIN, max(x for x, _ in places) + OWN_ORDERS_MARGIN
    top, bottom = min(y for _, y in places) - OWN_ORDERS_MARGIN - 30, max(y for _, y in places) + OWN_ORDERS_MARGIN
    box = []
    for low, high, least, limit in ((left, right, OWN_ORDERS_MIN[0], size[0]), (top, bottom, OWN_ORDERS_MIN[1], size[1])):
        grow = max(0.0, least - (high - low)) / 2
        low, high = low - grow, high + grow
        shift = max(0.0, -low) - max(0.0, high - limit)  # back inside the board
        box.append((int(max(0, low + shift)), int(min(limit, high + shift))))
    return box[0][0], box[1][0], box[0][1], box[1][1]


def compact_png(image: Image.Image, deflate: int = zlib.Z_DEFAULT_STRATEGY) -> bytes:
    """A mail-sized PNG: 128 colours (fast octree) take the map from about 185 KiB to 55 KiB,
    for about 10 ms; every player of a game gets a copy of it each turn. `deflate`: zlib's
    strategy at level 6 (the same pixels and palette whichever: only the bytes' size and the
    time to write them differ)."""
    buffer = io.BytesIO()
    image.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG", compress_level=6,
                                                                      compress_type=deflate)
    return buffer.getvalue()


def unit_points(position: Position) -> Iterable[tuple[str, str, Point]]:
    """(power, unit, pixel) for every unit on the board: what a test samples to see it was drawn."""
    board_ = board()
    for power, units in sorted(position.units.items()):
        for text in units:
            at = _point(board_, Unit.parse(text).location)
            if at is not None:
                yield power, text, at
