"""The Python API (docs/api.md): the commands' work for scripts and notebooks.

``gincli.score``, ``validate``, ``deal`` and ``play_match`` run the same code
as ``gin score``, ``validate``, ``deal`` and ``match`` (the non-Typer parts of
``gincli/cli/``) with the same defaults, rules and one-sentence errors, and
return what those commands write with ``--format json`` as dicts;
``gincli.new_hand`` deals a :class:`GameHand` to step through. The top layer:
it may import every layer below it, the command line's modules included."""
