"""The work of the commands, below the faces that ask for it: planning a match
or a tournament and running its sessions, scoring and validating chunks of
records, dealing, the checks they share. The command line (:mod:`gincli.cli`)
reads options, calls this and renders; the Python API (:mod:`gincli.api`)
checks arguments, calls this and returns.

It imports the layers below it (base up to replay), never a face (cli, api, rl)."""
