"""The engine's board as the report's pictures draw on it: read from the engine's SVG and
rasterised once per process (`board()`), with where every unit, dislodged unit and centre marker
stands, the powers' colours, a raster of the land provinces by number (to tint what a power
owns) and the provinces' abbreviations placed on a layer of their own; and what the map
(gmserver/mapimage.py) and the centre chart (gmserver/centrechart.py) share: the colours, the
outline ink, the font and PNG bytes.

Why not the engine's own renderer: converting a whole SVG per report takes 210-260 ms; the static
board is rasterised once with cairosvg, and each picture is drawn with Pillow.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image, ImageColor, ImageDraw, ImageFont

from gmserver import engine

SVG = "{http://www.w3.org/2000/svg}"
JDIP = "{svg.dtd}"
WIDTH = 918  # pixels: the engine's SVG asks for 918 x 680 (its view box is 1835 x 1360)
UNIT_SIZE = 40.0  # the engine places a 40 x 40 unit symbol at each location's (x, y)
CENTRE_SIZE = 20.0

Point = tuple[float, float]
RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]  # left, top, right, bottom

OUTLINE: RGB = (0, 0, 0)
UNKNOWN_POWER: RGB = (128, 128, 128)


@dataclass(frozen=True)
class Board:
    image: Image.Image  # the static board, RGB, WIDTH pixels wide
    units: dict[str, Point]  # location ("STP/SC") -> centre of a unit standing there, in pixels
    dislodged: dict[str, Point]  # location -> where a dislodged unit is drawn
    centres: dict[str, Point]  # supply centre province -> centre of its marker
    colours: dict[str, RGB]  # power -> the engine's colour for it
    # each pixel: the index + 1 of the land province under it in `provinces` (0: sea or border)
    labels: Image.Image
    provinces: tuple[str, ...]  # "PAR", ...
    # the provinces' three-letter abbreviations, drawn once on a transparent layer (`_names_layer`)
    names: Image.Image | None = None
    # that layer's pieces that hold ink, ((left, top), piece), which cover every pixel it draws
    name_pieces: tuple[tuple[tuple[int, int], Image.Image], ...] = ()


def _static_svg(root: ET.Element) -> bytes:
    """The board alone: the engine's metadata, invisible mouse areas and phase text removed, and
    the province abbreviations, as the engine's renderer leaves them out by default (cairosvg
    paints the whole board black when that layer is there)."""
    for child in list(root):
        if child.tag.startswith(JDIP) or child.get("id") in ("MouseLayer", "BriefLabelLayer"):
            root.remove(child)
        elif child.tag == f"{SVG}text" and child.get("id") in ("CurrentPhase", "CurrentNote", "CurrentNote2"):
            child.text = " "
    return ET.tostring(root)


def _label_raster(root: ET.Element, cairosvg) -> tuple[Image.Image, tuple[str, ...]]:
    """A grey image where each land province is painted with its own number, edges crisp: tinting
    the provinces a power owns is then one lookup table per power (`_tint_centres`)."""
    layer = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "MapLayer")
    provinces, shapes = [], []
    for node in layer:
        code = (node.get("id") or "").removeprefix("_").upper()
        if not (node.get("id") or "").startswith("_") or node.get("class") == "water" or len(provinces) >= 254:
            continue
        provinces.append(code)
        value = len(provinces)
        paths = [node] if node.tag == f"{SVG}path" else list(node.iter(f"{SVG}path"))
        shapes += [f'<path d="{path.get("d")}" fill="rgb({value},{value},{value})" stroke="none"/>' for path in paths]
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{root.get("viewBox")}" width="{root.get("width")}" '
           f'height="{root.get("height")}" shape-rendering="crispEdges"><g transform="{layer.get("transform")}">'
           + "".join(shapes) + "</g></svg>")
    png = cairosvg.svg2png(bytestring=svg.encode(), output_width=WIDTH)
    return Image.open(io.BytesIO(png)).convert("RGBA").getchannel("R"), tuple(provinces)


@functools.lru_cache(maxsize=1)
def board() -> Board:
    """Read the engine's SVG and rasterise its static board: once per process (about 350 ms)."""
    import cairosvg  # noqa: PLC0415  (needs libcairo2; only loaded when a map is drawn)

    root = ET.fromstring(engine.map_svg())
    scale = WIDTH / float(root.get("viewBox", "0 0 1835 1360").split()[2])
    units: dict[str, Point] = {}
    dislodged: dict[str, Point] = {}
    for province in root.iter(f"{JDIP}PROVINCE"):
        location = province.get("name", "").upper().replace("-", "/")
        for mark, into in ((f"{JDIP}UNIT", units), (f"{JDIP}DISLODGED_UNIT", dislodged)):
            node = province.find(mark)
            if node is not None:
                into[location] = ((float(node.get("x")) + UNIT_SIZE / 2) * scale,
                                  (float(node.get("y")) + UNIT_SIZE / 2) * scale)
    colours = {node.get("power", "").upper(): ImageColor.getrgb(node.get("color", "grey"))[:3]
               for node in root.iter(f"{JDIP}POWERCOLOR")}
    centres = {}
    for layer in root.iter(f"{SVG}g"):
        if layer.get("id") == "SupplyCenterLayer":
            for use in layer:
                centres[use.get("id", "").removeprefix("sc_").upper()] = (
                    (float(use.get("x")) + CENTRE_SIZE / 2) * scale, (float(use.get("y")) + CENTRE_SIZE / 2) * scale)
    labels, provinces = _label_raster(root, cairosvg)
    names = _brief_labels(root, scale)  # before _static_svg takes their layer out of `root`
    png = cairosvg.svg2png(bytestring=_static_svg(root), output_width=WIDTH)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    board_ = Board(image=image, units=units, dislodged=dislodged, centres=centres, colours=colours, labels=labels,
                   provinces=provinces)
    layer = _names_layer(board_, names)
    return dataclasses.replace(board_, names=layer, name_pieces=_inked_pieces(layer))


def _brief_labels(root: ET.Element, scale: float) -> list[tuple[str, Point]]:
    """(abbreviation, where the engine centres it, in pixels) from the engine's BriefLabelLayer
    (the layer itself cannot be rasterised, `_static_svg`): y is the text's middle, not its baseline."""
    layer = next((g for g in root.iter(f"{SVG}g") if g.get("id") == "BriefLabelLayer"), None)
    names = []
    for node in layer if layer is not None else ():
        # Portugal's name is turned along its coast: translate(...) rotate(...); it is drawn level here
        shift = re.match(r"translate\(\s*([-\d.]+)[\s,]+([-\d.]+)\s*\)", node.get("transform", ""))
        dx, dy = (float(shift[1]), float(shift[2])) if shift else (0.0, 0.0)
        if node.text and node.get("x") and node.get("y"):
            names.append((node.text.strip(), ((float(node.get("x")) + dx) * scale, (float(node.get("y")) + dy) * scale - 4)))
    return names


# where a name may go, tried in turn: the engine's spot, then nudged off whatever unit or centre is there
NUDGES: tuple[Point, ...] = tuple(sorted(((dx, dy) for dx in range(-30, 31, 5) for dy in range(-24, 25, 4)),
                                         key=lambda nudge: math.hypot(*nudge)))
UNIT_CLEARANCE = 13.0  # pixels from a unit's spot a name keeps out of (a fleet is 26 px wide)
CENTRE_CLEARANCE = 5.0  # a centre's marker is a 9 px disc


def _clear(box: Box, spots: Iterable[tuple[Point, float]]) -> bool:
    """No spot within its clearance of `box`."""
    left, top, right, bottom = box
    for (x, y), radius in spots:
        if math.hypot(x - min(max(x, left), right), y - min(max(y, top), bottom)) < radius:
            return False
    return True


def _province_at(board_: Board, at: Point) -> int:
    x, y = min(max(int(at[0]), 0), board_.labels.width - 1), min(max(int(at[1]), 0), board_.labels.height - 1)
    return board_.labels.getpixel((x, y))


def _overlaps(box: Box, others: list[Box]) -> bool:
    return any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in others)


def _place(board_: Board, home: int, at: Point, ink: Box, placed: list[Box], *, inside: bool = True
           ) -> Point | None:
    """The nearest nudge of `at` where a name whose `ink` is that box round its anchor covers no
    unit spot nor centre; failing that, none where a unit stands (dislodged units have spots of
    their own, seldom used); never a name already `placed` (its box is added to them). `inside`:
    the anchor stays in `home`, the province's number in `board_.labels` (a sea's is 0, like
    every sea's); not `inside`: it goes to sea, off every other province."""
    units = [(spot, UNIT_CLEARANCE) for spot in board_.units.values()]
    centres = [(spot, CENTRE_CLEARANCE) for spot in board_.centres.values()]
    dislodged = [(spot, UNIT_CLEARANCE) for spot in board_.dislodged.values()]
    for spots in (units + centres + dislodged, units + centres):
        for dx, dy in NUDGES:
            x, y = at[0] + dx, at[1] + dy
            box = (x + ink[0], y + ink[1], x + ink[2], y + ink[3])
            if _province_at(board_, (x, y)) == (home if inside else 0) and _clear(box, spots) \
                    and not _overlaps(box, placed):
                placed.append(box)
                return x, y
    return None


def _draw_name(draw: ImageDraw.ImageDraw, board_: Board, name: str, at: Point, placed: list[Box],
               tries: tuple[tuple[int, bool], ...]) -> bool:
    """`name` drawn at the first place `_place` finds for it, trying each (font size, inside)."""
    for size, inside in tries:
        typeface = font(size)
        ink = draw.textbbox((0, 0), name, font=typeface, anchor="mm", stroke_width=1)
        # Rome's name is anchored on its coast (a border, 0): the province is known by its name
        home = board_.provinces.index(name) + 1 if name in board_.provinces else 0
        spot = _place(board_, home, at, ink, placed, inside=inside)
        if spot is not None:
            draw.text(spot, name, font=typeface, anchor="mm", fill=NAME_INK, stroke_width=1, stroke_fill=NAME_HALO)
            return True
    return False


NAME_INK: RGB = (25, 25, 25)
NAME_HALO: RGB = (250, 248, 240)


def _names_layer(board_: Board, names: list[tuple[str, Point]]) -> Image.Image:
    """Every province's abbreviation, small, with a light halo that keeps it legible on any
    power's tint, placed off the spots where units and centres are drawn (QA walkthrough:
    a player should not need to know the board by heart). A name with no room in its province
    is drawn smaller, then off its coast (Holland, Rome, Tuscany, Yorkshire: too narrow for a unit,
    a centre and a name)."""
    layer = Image.new("RGBA", board_.image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    placed: list[Box] = []
    left: list[tuple[str, Point]] = []
    for name, at in names:
        if not _draw_name(draw, board_, name, at, placed, ((11, True), (9, True))):
            left.append((name, at))
    for name, at in left:  # after every name that fits its province, so that none takes its room
        _draw_name(draw, board_, name, at, placed, ((11, False),))
    return layer


PIECE_HEIGHT = 16  # pixels: the bands the names layer is cut into
PIECE_GAP = 4  # pixels of clear layer within which two stretches of ink make one piece


def _inked_pieces(layer: Image.Image) -> tuple[tuple[tuple[int, int], Image.Image], ...]:
    """The layer cut into bands and each band into the stretches that hold ink: pasting the
    pieces paints what pasting the layer paints (the rest of it is clear), on some 7 % of the
    board, and a map cropped to a box pastes only the pieces in it."""
    alpha = layer.getchannel("A")
    pieces = []
    for top in range(0, layer.height, PIECE_HEIGHT):
        bottom = min(top + PIECE_HEIGHT, layer.height)
        # 255 where a pixel has ink, averaged down the band: above 0 wherever a column has some
        columns = alpha.crop((0, top, layer.width, bottom)).point([0] + [255] * 255).resize(
            (layer.width, 1), Image.Resampling.BOX).tobytes()
        stretches: list[list[int]] = []
        for x, ink in enumerate(columns):
            if ink and stretches and x - stretches[-1][1] <= PIECE_GAP:
                stretches[-1][1] = x + 1
            elif ink:
                stretches.append([x, x + 1])
        pieces += [((left, top), layer.crop((left, top, right, bottom))) for left, right in stretches]
    return tuple(pieces)


def power_colour(board_: Board, power: str) -> RGB:
    """The engine's colour for `power` (grey for a power it does not know)."""
    return board_.colours.get(power, UNKNOWN_POWER)


def power_colours() -> dict[str, str]:
    """power -> "#rrggbb", the colours of the map and the chart, for the HTML table's key."""
    return {power: "#{:02x}{:02x}{:02x}".format(*rgb) for power, rgb in board().colours.items()}


@functools.lru_cache(maxsize=4)
def font(size: int = 16) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)  # Pillow's own scalable font (needs its FreeType)
    except (TypeError, ImportError, OSError):
        return ImageFont.load_default()


def png_bytes(image: Image.Image) -> bytes:
    """A PNG written fast, not small (the chart's; the map's is mapimage.compact_png)."""
    buffer = io.BytesIO()
    # compress_level 6 is about 40 ms for this board; 3 gives nearly the same size in far less time
    image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
