"""Match chat (issue 28): the players talk (`say`), the spectators talk among themselves
(`kibitz`).

A line is stored in its own append-only table (`ChatMessage`), never as a match event: a chat
line never changes a game. It is either a text (1 to 300 characters once trimmed, no control
characters, no bidi override or isolate characters: they would turn the lines around it) or a
quick message's code (shown in each reader's language). It is refused for a player muted or
banned from chat (matches/services/reports.py), and a `say` between two players one of whom
blocked the other. Who may read what: matches/selectors/community.py `may_read_kibitz`.
The rate limit is the API's (matches/api/throttling.py `ChatThrottle`, HTTP and socket alike).

Once the line is committed, the hooks of the setting `TAVLA_CHAT` are called with it (the
WebSocket's push, matches/streams/publish.py `chat`); the core never learns how it is sent.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from matches.errors import MatchNotFound, NotAPlayer, StoreError
from matches.store.community_models import MAX_CHAT, ChatMessage
from matches.store.models import Match

from . import blocks, reports
from .access import check_can_read, is_seated

logger = logging.getLogger(__name__)

BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
QUICK = frozenset(ChatMessage.Quick.values)


class InvalidMessage(StoreError):
    code = "invalid_message"


class SpectatorsOnly(StoreError):
    """A player wrote in the spectators' chat."""

    code = "permission_denied"

    def __init__(self) -> None:
        self._say("chat_kibitz")


def clean(text: Any) -> str:
    """The text of a line as stored, or InvalidMessage saying why not."""
    if not isinstance(text, str):
        raise InvalidMessage.because("chat_text")
    text = text.strip()
    if not text:
        raise InvalidMessage.because("chat_empty")
    if len(text) > MAX_CHAT:
        raise InvalidMessage.because("chat_long", max=MAX_CHAT)
    for ch in text:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) == "Cc":
            raise InvalidMessage.because("chat_controls")
    return text


def say(
    *,
    user: Any,
    match_id: Any,
    channel: str,
    text: Any = None,
    quick: Any = None,
) -> ChatMessage:
    """Store one line of `user` in the match's chat and push it once committed."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound(match_id)
    check_can_read(match, user)
    seated = is_seated(match, user)
    if channel == ChatMessage.Channel.SAY and not seated:
        raise NotAPlayer.because("chat_say")
    if channel == ChatMessage.Channel.KIBITZ and seated:
        raise SpectatorsOnly()
    if (text is None) == (quick is None):
        raise InvalidMessage.because("chat_one")
    if quick is not None and quick not in QUICK:
        raise InvalidMessage.because("chat_quick")
    line = None if text is None else clean(text)
    reports.check_chat(user.pk)
    if channel == ChatMessage.Channel.SAY:
        other = match.player1_id if user.pk == match.player0_id else match.player0_id
        if other is not None and other != user.pk:
            blocks.check_between(user.pk, other)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            match=match, channel=channel, author=user, text=line, quick=quick
        )
        transaction.on_commit(lambda: deliver(message))
    return message


@cache
def hooks() -> tuple[Callable[[ChatMessage], object], ...]:
    return tuple(import_string(path) for path in getattr(settings, "TAVLA_CHAT", ()))


def deliver(message: ChatMessage) -> None:
    for hook in hooks():
        try:
            hook(message)
        except Exception:
            logger.exception("chat hook %s failed for message %s", hook, message.pk)
