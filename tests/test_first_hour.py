"""What a newcomer meets in the first hour (issue 19): one sentence for a
forgotten file, screens that fit, results for a spreadsheet, summaries of
many records, play sessions that go on, the same outcome whatever the split
of the work, progress and headlines that tell the truth, completion of names,
and words that say what they mean."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command, what", [("score", "hand records"), ("validate", "transcripts"),
                                           ("report", "the transcripts of a match")])
def test_a_forgotten_file_is_one_sentence_saying_how_to_give_it(run, command, what):
    res = run(command)
    assert res.exit_code == 2
    lines = res.stderr.splitlines()
    assert lines == [f"gin: error: gin {command} needs {what} to read: give one or more files, or - for standard "
                     f"input (gin {command} --help says more)"]
    assert res.stdout == ""
