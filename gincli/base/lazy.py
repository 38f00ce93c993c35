"""Names a package presents, imported on first use (PEP 562), so that
``gin --help`` and ``gin --version`` start without loading the engine or pluggy."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, names: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: each of ``names`` comes
    from its module (relative to the package) when first asked for, and is kept;
    a submodule by its name too."""

    def __getattr__(name: str) -> Any:
        module = sys.modules[package]
        if name in names:
            value = getattr(importlib.import_module(f".{names[name]}", package), name)
        else:
            try:
                value = importlib.import_module(f".{name}", package)
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        setattr(module, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__
