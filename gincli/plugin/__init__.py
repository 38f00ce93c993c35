"""The plugin layer, the composition root: the hook specifications
(:mod:`.hookspecs`); the loading of plugins (:mod:`.loading`: pluggy's plugin
manager, the plugins in their order of precedence, the built-ins through the
very same hooks, each import bounded); the registration (:mod:`.registration`:
what each plugin registers, variants, scoring systems, bots, move sets, match
backends and commands, each checked as it arrives); and the registry
(:mod:`.registry`), the read side the commands look things up in.

It may import every layer below it; only the layers above it (replay, the work, the faces) import it.
"""
