"""``python -m gincli``: the same as the ``gin`` command."""

from .entry import main

if __name__ == "__main__":
    main()
