"""Replaying transcripts move by move through the hand engine and checking
every rule and every claimed result (:mod:`.validate`), with the rule ids of
``gin validate``.

It may import every layer below it, the plugin layer included (a transcript
names its variant and scoring system, looked up in the registry it is given).
"""
