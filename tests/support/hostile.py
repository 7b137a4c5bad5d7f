"""Hostile messages that once stopped or parked intake, built on demand."""

from __future__ import annotations

GM = b"gm@gm.test"


def encoded_word_bomb(size: int = 140_000, sender: bytes = b"stranger@elsewhere.test") -> bytes:
    """A Subject folded into lines of 60 `=?utf-8?q?A?=` words (each line under 850 bytes, so an
    SMTP server takes it) until the message is about `size` bytes: parsing it with
    policy.default takes about 650 MB at 140 KB."""
    line = b" ".join([b"=?utf-8?q?A?="] * 60)
    lines = max(1, size // (len(line) + 3))
    return (b"From: " + sender + b"\r\nTo: " + GM + b"\r\nMessage-ID: <bomb." + str(size).encode()
            + b"@elsewhere.test>\r\nSubject: " + b"\r\n ".join([line] * lines) + b"\r\n\r\nhello\r\n")


def nested_multipart(depth: int, sender: bytes = b"germany@players.test",
                     subject: bytes = b"lepanto Germany S1901M") -> bytes:
    """Multipart nested `depth` levels deep, orders in the innermost part (1,000 levels raised
    RecursionError in the parser)."""
    head = (b"From: " + sender + b"\r\nTo: " + GM + b"\r\nSubject: " + subject
            + b"\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n")
    levels = b"".join(b"--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n" % (i, i + 1)
                      for i in range(depth - 1))
    return head + levels + b"--b%d\r\nContent-Type: text/plain\r\n\r\nA PAR H\r\n" % (depth - 1)


# The two shapes of HTML that took time growing with the square of their size to convert:
# html.parser on "<a<a<a..." and the old fallback regex on a run of "<" never closed.
HTML_BOMB_SHAPES = {"tags never closed": "<a", "brackets never closed": "<"}


def html_bomb(size: int, shape: str = "tags never closed", sender: bytes = b"stranger@elsewhere.test") -> bytes:
    """An HTML-only message whose body is `size` characters of one of HTML_BOMB_SHAPES (sent as
    quoted-printable lines, as a mail client would, so that an SMTP server takes it)."""
    unit = HTML_BOMB_SHAPES[shape].encode()
    body = unit * (size // len(unit))
    lines = b"=\r\n".join(body[i:i + 72] for i in range(0, len(body), 72))
    return (b"From: " + sender + b"\r\nTo: " + GM + b"\r\nMessage-ID: <html-bomb." + str(size).encode()
            + b"." + str(len(unit)).encode() + b"@elsewhere.test>\r\nSubject: hello\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: text/html; charset=us-ascii\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + lines + b"\r\n")
