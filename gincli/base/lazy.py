"""Names a package presents, imported on first use (PEP 562), so that
``gin --help`` and ``gin --version`` start without loading the engine or pluggy;
and the module paths of earlier releases, which still import (:func:`alias_modules`)."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not imported: this runs at every start, before anything else (see gincli.entry)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any
else:
    Loader = object  # importlib.abc is not imported at start-up: the import system takes any object with its methods


def lazy_names(package: str, names: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: each of ``names`` comes
    from its module (relative to the package) when first asked for, and is kept;
    a submodule by its name too."""

    def __getattr__(name: str) -> Any:
        import importlib

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


def alias_modules(aliases: Mapping[str, str]) -> None:
    """Make each old module path of ``aliases`` (``gincli.melds``) import the
    module now at the new one (``gincli.rulebook.melds``): the same module
    object, so that plugins written against earlier releases run unchanged.
    Nothing is imported until an old path is (not even importlib's own helpers:
    this runs at every start)."""
    sys.meta_path.insert(0, _Aliases(aliases))  # first: an old package path must not load its modules again


class _Aliases(Loader):
    """A finder and loader of old module paths."""

    def __init__(self, aliases: Mapping[str, str]):
        self.aliases = aliases
        self.specs: dict[str, ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.aliases:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(fullname, self)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        import importlib

        module = importlib.import_module(self.aliases[spec.name])
        self.specs[spec.name] = module.__spec__  # the import system sets the alias's: given back below
        return module

    def exec_module(self, module: ModuleType) -> None:
        spec = module.__spec__
        if spec is not None:
            module.__spec__ = self.specs.pop(spec.name, spec)


def keep_names(package: str, names: frozenset[str] | set[str]) -> None:
    """Keep each of ``names`` the package's own (a function of its API) when a
    module of the same old path is imported (``gincli.validate``, the module
    path of an earlier release, is also :func:`gincli.validate`): the import
    system then sets the package's attribute to the module, which is left out
    here; the module still imports (``from gincli.validate import Report``)."""
    module_type = type(sys)

    class _Package(module_type):  # type: ignore[misc, valid-type]
        def __setattr__(self, name: str, value: Any) -> None:
            if name in names and isinstance(value, module_type):
                return
            super().__setattr__(name, value)

    sys.modules[package].__class__ = _Package
