"""The base every layer stands on: gincli's exceptions and exit statuses
(:mod:`.errors`), the checks of the commands' and the API's arguments with their
sentences (:mod:`.arguments`), the plugin contract checked wherever plugin code hands a value
back (:mod:`.contract`: a fault is a sentence naming the plugin), JSON read and
written the same way everywhere (:mod:`.jsonio`), the user's folders and the
TOML files gincli reads (:mod:`.config`), the installed packages' entry points
and versions (:mod:`.packages`), the worker pool every command that works in
chunks uses (:mod:`.pool`: ordered, bounded, never hanging; it knows no game),
processes that die with their parent (:mod:`.processes`), and the version.

It imports nothing of gincli's; every other layer may import it. The contract
lives here, not with the registry, because the rule book, the hand and the
sessions call plugin code themselves (a variant's knock limit, a move set's
moves, a scoring system's session) and check it where it crosses.
"""
