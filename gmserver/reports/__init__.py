"""What players receive by mail, as plain values: the context of the templates in `templates/player`.

Pure: no I/O, no clock. Each `build_*` function turns engine outcomes, order readings and times
into a frozen dataclass whose fields are exactly what its template prints; `Composer.render`
(gmserver.mail.compose) turns one into a mail body. Orders keep the engine's notation beside
the province names ("A Paris -> Burgundy (A PAR - BUR)") so a player can copy either.

One module per kind of mail: turn (the turn report), replies (confirmation and rejection of an
order set), reminders, requests (answers to players' requests), extras (the map, chart and
calendar attachments), links (the web pages' links in a copy), words (names, times and orders in
words), codec (a stored report's JSON). Import what you use from its module: this package loads
none of them (`gmserver game show` needs `words` alone, and the rest costs a command a tenth of a
second).
"""
