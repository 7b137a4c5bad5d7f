"""Open sign-up by mail, from anyone, player or not: `join GAME England, France` (or `any`),
`leave GAME`, `standby GAME`, `observe GAME`, `unobserve GAME`, `record`, `list open`, and
`takeover` (in a reply to a standby offer). Each request is answered by a mail whose Reply-To is
the sender's own address at the GM; a reply to it confirms it (services/commands/signup_mail.py)."""

from __future__ import annotations

from gmserver.commands.player_command import OpenCall, OpenReply, OpenRun, PlayerCommand, open_only


def _ask(kind: str) -> OpenRun:
    """The open_run of one kind of request."""
    def run(call: OpenCall) -> OpenReply:
        from gmserver.services.commands import signup_mail  # noqa: PLC0415  (imported when it runs)

        return OpenReply(*signup_mail.ask(call.session, call.services, call.sender, kind, call.argument, call.now))
    return run


def _record(call: OpenCall) -> OpenReply:
    from gmserver.services.commands import signup_mail  # noqa: PLC0415

    return OpenReply(*signup_mail.record(call.session, call.services, call.sender))


def _list_open(call: OpenCall) -> OpenReply:
    from gmserver.services.commands import signup_mail  # noqa: PLC0415

    return OpenReply(*signup_mail.list_open(call.session))


def _takeover(call: OpenCall) -> OpenReply:
    from gmserver.services.commands import signup_mail  # noqa: PLC0415

    return OpenReply(*signup_mail.takeover_by_word(call.session))


JOIN = PlayerCommand("join", ("join",), "join a game open for sign-up, with the powers you want in order",
                     "join lepanto England, France, Austria", open_only, open_run=_ask("join"),
                     usage_text="join GAME England, France, Austria (or: join GAME any)")
LEAVE = PlayerCommand("leave", ("leave",), "take back your join of a game before it starts, or stop standing by",
                      "leave lepanto", open_only, open_run=_ask("leave"), usage_text="leave GAME")
STANDBY = PlayerCommand("standby", ("standby",), "stand by for a game: you are offered a power that needs a new "
                        "player", "standby lepanto", open_only, open_run=_ask("standby"), usage_text="standby GAME")
OBSERVE = PlayerCommand("observe", ("observe",), "observe a game: its reports and public press, never orders or "
                        "private press", "observe lepanto", open_only, open_run=_ask("observe"),
                        usage_text="observe GAME")
UNOBSERVE = PlayerCommand("unobserve", ("unobserve",), "stop observing a game", "unobserve lepanto", open_only,
                          open_run=_ask("unobserve"), usage_text="unobserve GAME")
TAKEOVER = PlayerCommand("takeover", ("takeover",), "take over the power you were offered (reply to the offer)",
                         "takeover", open_only, open_run=_takeover)
RECORD = PlayerCommand("record", ("record",), "your own record on this server: turns on time and missed, civil "
                       "disorders, resignations, takeovers, solos and draws", "record", open_only, open_run=_record,
                       read_only=True)
LIST_OPEN = PlayerCommand("list-open", ("list open",), "the games open for sign-up, one line each with their rules",
                          "list open", open_only, open_run=_list_open, read_only=True)

COMMANDS = (JOIN, LEAVE, STANDBY, OBSERVE, UNOBSERVE, TAKEOVER, RECORD, LIST_OPEN)
