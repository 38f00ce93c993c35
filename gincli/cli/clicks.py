"""Every reach into typer's own copy of click, in one place.

typer (0.24 to 0.28, as pyproject.toml pins it) carries click inside itself,
as the private ``typer._click``, and names publicly neither click's exception
classes, the integer range type its options use, nor the shell completion
machinery gin's completion answers through. gincli needs each of them; they
are imported here and only here (``tests/test_architecture.py`` holds every
other module to typer's public names), so that a typer release that moves
them changes this module alone. The completion names load when asked for,
never at start-up."""

from __future__ import annotations

from typing import Any

from typer._click.exceptions import ClickException, UsageError  # noqa: F401  (the classes click raises)
from typer._click.types import IntRange  # noqa: F401  (the type typer's whole-number options are)


def completion_machinery() -> dict[str, Any]:
    """Click's and typer's shell completion: the classes gin's answers go
    through, and click's own reading of a command line being completed."""
    from typer._click.shell_completion import (
        CompletionItem,
        _resolve_context,
        _resolve_incomplete,
        add_completion_class,
    )
    from typer._completion_classes import BashComplete, FishComplete, ZshComplete, completion_init

    return {"CompletionItem": CompletionItem, "add_completion_class": add_completion_class,
            "resolve_context": _resolve_context, "resolve_incomplete": _resolve_incomplete,
            "BashComplete": BashComplete, "ZshComplete": ZshComplete, "FishComplete": FishComplete,
            "completion_init": completion_init}
