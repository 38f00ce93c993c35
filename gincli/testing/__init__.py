"""A plugin author's kit (docs/plugins.md, "Testing a plugin"): load a plugin
from its file, its folder or its module, beside gincli's built-ins and nothing
else installed (:func:`load_plugin`); play a short match under it with the
built-in bots, validate the transcripts with it on, and check its contract,
what registration checks and play and validation agreeing
(:meth:`LoadedPlugin.check`). The template ``gin plugins new`` writes tests
with it.

A face beside the command line, the Python API and the learning
environments: it may import the layers up to the work below them, never
gincli.cli, gincli.api or gincli.rl."""

from .kit import LoadedPlugin, Played, PluginCheckFailed, load_plugin

__all__ = ["LoadedPlugin", "Played", "PluginCheckFailed", "load_plugin"]
