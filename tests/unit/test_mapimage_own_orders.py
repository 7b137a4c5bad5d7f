"""The confirmation's map (mapimage.own_orders_png) draws only what shows in its box and lays
its caption out once per text: the picture must stay the one drawn on the whole board and
cropped. tests/data/maps/own_orders_sha256.json holds the PNGs' digests, for 247 order sets of
random legal games: every power, moves, supports, convoys, retreats, builds, removals, lone holds,
a waive alone (no map). The digests were those of the whole board's drawing, cropped; they were
written again when the map's PNG went to zlib's Z_RLE strategy, and the pixels and palette of
every map are compared with those of the default strategy's PNG, so that the rewrite changed the
encoding alone."""

from __future__ import annotations

import io
import json

from PIL import Image

from gmserver import mapboard, mapimage
from tests.support.own_orders_cases import DIGESTS, digests, own_orders_cases


def test_every_confirmation_map_is_the_png_drawn_on_the_whole_board_byte_for_byte() -> None:
    expected = json.loads(DIGESTS.read_text())
    drawn = digests(mapimage.own_orders_png)
    assert drawn.keys() == expected.keys()
    assert [name for name in drawn if drawn[name] != expected[name]] == []
    assert sum(digest is None for digest in drawn.values()) > 0  # a waive alone has no map


def decoded(png: bytes) -> tuple[str, tuple[int, int], list[int] | None, bytes]:
    with Image.open(io.BytesIO(png)) as image:
        return image.mode, image.size, image.getpalette(), image.tobytes()


def test_every_confirmation_map_has_the_pixels_and_palette_of_the_default_strategy_png() -> None:
    compared = 0
    for name, position, power, orders in own_orders_cases(phases=8):
        image = mapimage.own_orders_image(position, power, orders)
        if image is None:
            continue
        rle, default = mapimage.own_orders_png(position, power, orders), mapimage.compact_png(image)
        assert rle != default, name  # another encoding...
        assert decoded(rle) == decoded(default), name  # ...of the same picture
        compared += 1
    assert compared == sum(digest is not None for digest in json.loads(DIGESTS.read_text()).values())


def test_the_names_pieces_paint_exactly_what_the_names_layer_paints() -> None:
    board_ = mapboard.board()
    assert board_.names is not None and 0 < len(board_.name_pieces) < 300
    whole, pieced = board_.image.copy(), board_.image.copy()
    whole.paste(board_.names, mask=board_.names)
    for at, piece in board_.name_pieces:
        pieced.paste(piece, at, mask=piece)
    assert whole.tobytes() == pieced.tobytes()
    clear = Image.new("RGBA", board_.names.size, (0, 0, 0, 0))
    for at, piece in board_.name_pieces:
        clear.paste(piece, at)
    assert clear.tobytes() == board_.names.tobytes()  # no ink left out of the pieces
