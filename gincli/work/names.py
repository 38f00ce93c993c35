"""How the command line names players: bots named after their bots, the bots
of a ``--bots`` list, your name in gin play. Plain functions, shared by the
options, the commands and the completion (which the options import: so these
cannot live there)."""

from __future__ import annotations


def default_name() -> str:
    """Your name in gin play when --name is not given: the login name (not root's)."""
    import os

    user = os.environ.get("USER") or os.environ.get("USERNAME") or ""
    return user if user and user != "root" and "," not in user else "player"


def bot_names(specs: list[str], reserved: tuple[str, ...] = ()) -> list[str]:
    """Names for players given by their bots (``--bots``): the bot's name without
    its parameters (``external`` for an ``exec:`` program), numbered where two
    would share one or a name is taken."""
    base = ["external" if spec.startswith("exec:") else spec.partition(":")[0] for spec in specs]
    out = []
    for i, b in enumerate(base):
        if base.count(b) > 1 or b in reserved:
            n = base[:i].count(b) + 1
            while f"{b}-{n}" in reserved:
                n += 1
            out.append(f"{b}-{n}")
        else:
            out.append(b)
    return out


def split_bots(text: str) -> list[str]:
    """The bots of ``--bots``: separated by commas, but for commas inside quotes
    (``exec:python3 -c "print('a', 'b')"``); a bots file names any command."""
    parts: list[str] = []
    current: list[str] = []
    quote_char = ""
    for ch in text:
        if quote_char:
            if ch == quote_char:
                quote_char = ""
        elif ch in "'\"":
            quote_char = ch
        elif ch == ",":
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts
