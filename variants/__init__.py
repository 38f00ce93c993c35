"""The built-in variants of play, as TOML data (this file only makes the folder
installable as package data; the variants are the ``*.toml`` files)."""
