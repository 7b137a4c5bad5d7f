"""Players' private web page links (gmserver/web/): a token of their own, in a table of their own,
never the reply-address secret (which travels in every Reply-To).

A token is bound to the player's secret as it was when the token was issued: whatever rotates the
secret (an address change, a replacement player, the GM's reset) makes the old link answer 404,
and the next mail that carries a link issues a new one. Tokens are compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime
from urllib.parse import quote

from sqlalchemy.orm import Session, object_session

from gmserver.db.models import Game, PageToken, Player
from gmserver.db.queries import pages as page_queries


def secret_digest(player: Player) -> str:
    return hashlib.sha256((player.secret or "").encode()).hexdigest()


def page_token(session: Session, player: Player, now: datetime) -> str:
    """The player's page token, issued now if none is bound to their present secret (the tokens
    of earlier secrets are deleted)."""
    digest = secret_digest(player)
    current = None
    for row in page_queries.tokens_of_player(session, player.id):
        if hmac.compare_digest(row.secret_digest, digest):
            current = row
        else:
            session.delete(row)
    if current is not None:
        return current.token
    token = secrets.token_urlsafe(32)
    session.add(PageToken(game_id=player.game_id, player_id=player.id, token=token, secret_digest=digest,
                          created_at=now))
    session.flush()
    return token


def player_of_token(session: Session, game: Game, token: str) -> Player | None:
    """The player whose present link is `token`: every token of the game is compared, in constant
    time, whether or not one matched before; a token of a rotated secret matches nobody."""
    given = token.encode()
    found = None
    players = {p.id: p for p in game.players}
    for row in page_queries.tokens_of_game(session, game.id):
        player = players.get(row.player_id)
        same = hmac.compare_digest(row.token.encode(), given)
        current = player is not None and hmac.compare_digest(row.secret_digest, secret_digest(player))
        if same and current:
            found = player
    return found


def page_link(base_url: str, game_name: str, token: str) -> str:
    """The player's private link under `[web] base_url`."""
    return f"{game_link(base_url, game_name)}/p/{token}"


def game_link(base_url: str, game_name: str) -> str:
    return f"{base_url.rstrip('/')}/games/{quote(game_name, safe='')}"


def own_link(base_url: str, player: Player, now: datetime) -> str | None:
    """The player's own page link for a mail to them (in the player's session); None without
    `[web] base_url`, so that no mail changes when the pages are off."""
    if not base_url:
        return None
    session = object_session(player)
    assert session is not None, "a player row of an open transaction"
    return page_link(base_url, player.game.name, page_token(session, player, now))


def pages_public(setting: bool | None, default: bool) -> bool:
    """Whether a game's pages show without a player's link or the GM's password: the game's own
    setting (`game create --private|--public`, `game set NAME pages`), else `[web] public`."""
    return default if setting is None else setting


def report_links(base_url: str, player: Player, phase: str, now: datetime, *, public: bool = True) -> tuple[str, ...]:
    """The links of a player's copy of the report of `phase`: its page, then the player's own. The
    phase's page of a private game (`public` False) is under the player's own link: its public
    address shows nothing."""
    own = own_link(base_url, player, now)
    if not own:
        return ()
    return (f"{game_link(base_url, player.game.name)}/phases/{phase}" if public else f"{own}/phases/{phase}", own)
