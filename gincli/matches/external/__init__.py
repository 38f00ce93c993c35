"""External bots: programs in any language, speaking the JSON-lines protocol of
docs/bot-protocol.md (``gincli-bot/2``).

- :mod:`.process`: a bot's process (its own process group, killed whole, dying
  with its parent), its output cut into lines in linear time, its standard
  error kept to quote;
- :mod:`.protocol`: the conversation (the ``hello``/``ready`` handshake, a
  request id echoed by every reply, stale replies discarded) and the
  :class:`~gincli.hand.bots.Bot` that speaks it;
- :mod:`.botsfile`: named bots defined in a TOML file.
"""

from __future__ import annotations

from .process import MAX_REPLY, LineBuffer, Program, close_all, end_fault, restart_counts
from .protocol import (
    DEFAULT_START_TIME_LIMIT,
    DEFAULT_TIME_LIMIT,
    PROTOCOL,
    BotStartFailure,
    ExternalSpec,
    configure,
    external_bot,
    identities,
    is_external,
    view_to_json,
)

__all__ = ["MAX_REPLY", "LineBuffer", "Program", "close_all", "end_fault", "restart_counts", "DEFAULT_START_TIME_LIMIT",
           "DEFAULT_TIME_LIMIT", "PROTOCOL", "BotStartFailure", "ExternalSpec", "configure", "external_bot",
           "identities", "is_external", "view_to_json"]
