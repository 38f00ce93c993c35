"""The plugin layer, the composition root: the hook specifications
(:mod:`.hookspecs`) and the registry (:mod:`.registry`), which builds pluggy's
plugin manager, loads the plugins in their order of precedence (the built-ins
through the very same hooks), and collects what each registers: variants,
scoring systems, bots, move sets, match backends and commands, each checked as
it arrives.

It may import every layer below it; only replay and the CLI import it.
"""
