"""gincli's version: what ``gin --version`` says and the package is built as."""

__version__ = "0.1.0"
