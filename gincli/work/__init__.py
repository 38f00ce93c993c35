"""The work of the commands, below the faces that ask for it: planning a match
or a tournament and running its sessions, scoring and validating records in
chunks over the worker pool, dealing, the checks they share. It returns data;
the command line (:mod:`gincli.cli`) reads options, calls this and renders
(what people read is drawn by a function the command hands in, applied in the
workers); the Python API (:mod:`gincli.api`) checks arguments, calls this and
returns.

It imports the layers below it (base up to replay), never a face (cli, api, rl)."""
