"""The installed packages' entry points of one group, and their versions, read
straight from their metadata folders (``*.dist-info``, ``*.egg-info`` on
``sys.path``).

``importlib.metadata`` answers the same, but importing it (with the email
parser it reads every package's metadata with) costs a gin command about a
tenth of its start-up; this reads the ``entry_points.txt`` of each folder and,
for the few packages that have an entry point of the group, the first lines of
their metadata. The same answers, in the same order (tests/test_plugins.py
holds the two side by side); where a ``sys.path`` entry is not a folder (a zip
file), ``importlib.metadata`` is asked instead.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from dataclasses import dataclass
from typing import Any

_NAME = re.compile(r"[-_.]+")


@dataclass(frozen=True)
class Package:
    """A distribution, as its metadata names it."""

    name: str
    version: str


@dataclass(frozen=True)
class EntryPoint:
    """``name = module:attr`` of a group, and the package that declares it."""

    name: str
    value: str
    group: str
    dist: Package

    def load(self) -> Any:
        """The object the entry point names (importing its module)."""
        module, _, attrs = self.value.partition(":")
        obj = importlib.import_module(module.strip())
        for attr in attrs.split("[", 1)[0].strip().split(".") if attrs.strip() else ():
            obj = getattr(obj, attr)
        return obj


def normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return _NAME.sub("-", name).lower()


def entry_points(group: str) -> list[EntryPoint]:
    """Every entry point of ``group``, each distribution once (the first one on
    ``sys.path``), as ``importlib.metadata.entry_points(group=group)`` lists them."""
    if not all(os.path.isdir(p or ".") or not os.path.exists(p or ".") for p in sys.path):
        return _from_importlib(group)
    found: list[EntryPoint] = []
    seen: set[str] = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            stem, dot, kind = folder.rpartition(".")
            if kind not in ("dist-info", "egg-info") or not dot:
                continue
            key = normalized(stem.partition("-")[0])
            if key in seen:
                continue
            seen.add(key)
            path = os.path.join(entry or ".", folder)
            points = _group(os.path.join(path, "entry_points.txt"), group)
            if points:
                dist = _package(path, kind, stem)
                found += [EntryPoint(name, value, group, dist) for name, value in points]
    return found


def version(package: str) -> str | None:
    """The installed version of ``package``, or None when it is not installed."""
    key = normalized(package)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            stem, dot, kind = folder.rpartition(".")
            if dot and kind in ("dist-info", "egg-info") and normalized(stem.partition("-")[0]) == key:
                return _package(os.path.join(entry or ".", folder), kind, stem).version or None
    return None


def _group(path: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of section ``[group]`` of an entry_points.txt."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    inside = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line:
            name, _, value = line.partition("=")
            out.append((name.strip(), value.strip()))
    return out


def _package(path: str, kind: str, stem: str) -> Package:
    """The name and version the metadata gives (the folder's where it gives none)."""
    name, _, version_ = stem.partition("-")
    fields: dict[str, str] = {}
    try:
        with open(os.path.join(path, "METADATA" if kind == "dist-info" else "PKG-INFO"), encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    break  # the headers end at the first blank line
                key, sep, value = line.partition(":")
                if sep and key in ("Name", "Version") and key not in fields:
                    fields[key] = value.strip()
    except (OSError, UnicodeDecodeError):
        pass
    return Package(fields.get("Name", name), fields.get("Version", version_))


def _from_importlib(group: str) -> list[EntryPoint]:
    from importlib.metadata import entry_points as find

    return [EntryPoint(ep.name, ep.value, group,
                       Package(getattr(ep.dist, "name", "") or "", getattr(ep.dist, "version", "") or ""))
            for ep in find(group=group)]
