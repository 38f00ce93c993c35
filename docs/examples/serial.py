# file: serial.py
from gincli import MatchBackend, hookimpl


class Serial(MatchBackend):
    name = "serial"
    description = "Every session in this process, one chunk after another (an example)."

    def start(self, options, workers):
        return 1  # how many chunks may run at once

    def map(self, work, chunks):
        for chunk in chunks:  # lists of session indices: [0, 1, ..., 15], [16, ...]
            yield work(chunk)  # plays them here; a backend yields in the order of the chunks


@hookimpl
def gincli_register_match_backends(register):
    register(Serial())
