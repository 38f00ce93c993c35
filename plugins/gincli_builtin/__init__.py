"""gincli's built-in plugins: the variants of play (read from the ``variants``
TOML files), the scoring systems, and the bots. They register through the same
hooks as any third-party plugin, marked ``trylast`` so a plugin can replace them.
"""
