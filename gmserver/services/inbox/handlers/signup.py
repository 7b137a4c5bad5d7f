"""Open sign-up mail (gmserver/commands/players/signup.py): a command anyone may send, carried out
by its command's `open_run` before intake decides whose power a message speaks for; and a reply to
a sign-up answer's one-time address, which confirms the request (services/commands/signup_mail.py).
Each is answered in the sender's thread under the sign-up answers' limits (services.base.reply_limits)."""

from __future__ import annotations

from collections.abc import Collection

from gmserver.commands.player_command import OpenCall, OpenReply
from gmserver.commands.registry import OPEN_COMMANDS
from gmserver.reports.requests import Answer
from gmserver.services.commands import signup_mail
from gmserver.services.inbox.handlers import notice
from gmserver.services.inbox.handlers.mail import Mail


def handle(mail: Mail) -> str:
    """Carry out the open command the classifier named (mail.kind.topic); the inbound row's outcome."""
    command = OPEN_COMMANDS[mail.kind.topic or ""]
    assert command.open_run is not None
    reply = command.open_run(OpenCall(mail.session, mail.services, mail.envelope.sender, mail.kind.argument,
                                      mail.now, mail.row.id))
    return _send(mail, reply)


def confirm(mail: Mail, tokens: Collection[str]) -> str | None:
    """A reply to a sign-up answer or a standby offer; None when the tokens are no sign-up's."""
    answered = signup_mail.answer_reply(mail.session, mail.services, mail.envelope, mail.order_text, tokens, mail.now)
    return None if answered is None else _send(mail, OpenReply(*answered))


def _send(mail: Mail, reply: OpenReply) -> str:
    answer: Answer = reply.answer
    notice.answer(mail, answer.template, {"title": answer.title, "sections": answer.sections}, signup=True,
                  token=reply.token)
    return reply.outcome
