"""The file formats of FORMATS.md: the containers records and transcripts
come in, streamed in bounded memory (:mod:`.containers`), hand records and their
scoring (:mod:`.records`), transcripts as gincli writes them
(:mod:`.transcripts`), and files written safely: one writer a file, pages
written whole (:mod:`.files`).

It may import :mod:`gincli.base`, :mod:`gincli.rulebook` and :mod:`gincli.hand`;
what it needs of the plugins (the variants and scoring systems a record names)
is a registry handed to it.
"""
