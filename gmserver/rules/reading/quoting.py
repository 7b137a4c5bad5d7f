"""Recognising quoted mail: the reply headers the big mail clients write above a quoted
message, and the marker lines around every mail gmserver sends.

A player's reply quotes the message answered, often without "> " (Outlook never prefixes
lines; HTML mail converted to text loses its blockquote styling). What follows such a header is
the old message, never new orders: an old order quoted below a new one must not replace it
(001 II(7) replaces by unit under `danivon`), and the GM's own footer ("If anything above is not
what you meant, ...") must not be read as a conditional order.

gmserver's mail opens with `GM_MAIL_START` and closes with `GM_MAIL_END` (gmserver.mail.compose
adds them; a turn report's `:: Game:` line comes first and counts as the start too); a copy of
that text is skipped wherever it is quoted, with or without "> ".
"""

from __future__ import annotations

import re

GM_MAIL_START = "[gmserver mail: a copy of it quoted in a reply is not read]"
GM_MAIL_END = "[end of gmserver mail]"

_QUOTE_PREFIX = re.compile(r"^[\s>|]*")

# Gmail, Apple Mail and Thunderbird attributions, in English and a few other languages:
# "On Mon, 23 Nov 2026 at 18:02, Anna <a@x> wrote:", "On 23 Nov 2026, at 18:02, Anna wrote:",
# "Le lun. 23 nov. 2026 à 18:02, Anna <a@x> a écrit :", "Am Mo., 23. Nov. 2026 um 18:02 Uhr
# schrieb Anna <a@x>:", "El lun, 23 nov 2026 a las 18:02, Anna (<a@x>) escribió:",
# "Il giorno lun 23 nov 2026 alle ore 18:02 Anna <a@x> ha scritto:", "Op ma 23 nov. 2026 om
# 18:02 schreef Anna <a@x>:", "Em seg., 23 de nov. de 2026 às 18:02, Anna <a@x> escreveu:".
WROTE = re.compile(
    r"^\s*+(?:On\b.{0,300}\bwrote:|.{0,300}\b(?:wrote|a écrit|schrieb|escribió|ha scritto|schreef|escreveu"
    r"|napisał\(a\)|napisał|skrev|kirjoitti)(?:\s+[^:]{0,120})?\s*:)\s*$", re.IGNORECASE)
WROTE_START = re.compile(r"^\s*(?:On|Le|Am|El|Il giorno|Op|Em|W dniu|Den)\b.{0,200}$", re.IGNORECASE)

# Outlook's reply header (desktop, web and Mac; plain text or HTML `<b>From:</b>` turned into
# text), localised: a From line with a Sent/Date line right after it.
_FROM = re.compile(r"^\s*\*?(?:From|Von|De|Da|Van|Fra|Från|Od|Lähettäjä)\s*:\*?\s*\S", re.IGNORECASE)
_SENT = re.compile(
    r"^\s*\*?(?:Sent|Date|Gesendet|Envoyé|Enviado|Inviato|Verzonden|Datum|Sendt|Skickat|Wysłano|Data|Fecha)"
    r"\s*:\*?\s*\S", re.IGNORECASE)
_TO = re.compile(
    r"^\s*\*?(?:To|An|À|A|Para|Aan|Til|Till|Do|Subject|Betreff|Objet|Asunto|Oggetto|Onderwerp|Emne|Ämne"
    r"|Temat|Cc)\s*:\*?", re.IGNORECASE)


def unquoted(line: str) -> str:
    """`line` without its quote prefix ("> ", "| ") and surrounding space."""
    return _QUOTE_PREFIX.sub("", line, count=1).strip()


def is_gm_mail_start(line: str) -> bool:
    """The first line of a copy of gmserver's mail: the marker, or the `:: Game:` line a turn
    report opens with (gmserver.reports.extras.machine_header)."""
    text = unquoted(line)
    # endswith: some clients (Yahoo's plain part) run the attribution and the first quoted
    # line together, or put a byte-order mark before it
    return text.endswith(GM_MAIL_START) or text.startswith(":: Game:")


def is_gm_mail_end(line: str) -> bool:
    return unquoted(line) == GM_MAIL_END


def after_gm_mail(lines: list[str], start: int) -> int:
    """The index of the first line after the copy of gmserver's mail opening at lines[start]: after
    its end marker, or the end of the text when the client cut the marker off."""
    i = start + 1
    while i < len(lines) and not is_gm_mail_end(lines[i]):
        i += 1
    return i + 1


def is_reply_header(lines: list[str], i: int) -> bool:
    """Whether lines[i] opens an Outlook-style header block of a quoted message: "From: ..."
    followed within three lines by "Sent:"/"Date:" and a "To:"/"Subject:" line."""
    if not _FROM.match(lines[i]):
        return False
    following = [line for line in lines[i + 1:i + 6] if line.strip()][:4]
    return any(_SENT.match(line) for line in following[:2]) and any(_TO.match(line) for line in following)


def wrote_at(lines: list[str], i: int) -> int:
    """How many lines an attribution ("... wrote:") starting at lines[i] takes: 0 when there is
    none, 2 when the client wrapped it over two lines."""
    line = lines[i]
    if WROTE.match(line):
        return 1
    if WROTE_START.match(line) and i + 1 < len(lines) and WROTE.match(line + " " + lines[i + 1].strip()):
        return 2
    return 0
