"""This process and the processes it starts: dying with the parent.

Workers (:mod:`.pool`) and the external bots a match starts both ask the
kernel for a signal when their parent dies, through ``prctl`` looked up once
before any fork (a child may not allocate between fork and exec).
"""

from __future__ import annotations

import os
import sys
from typing import Any

PR_SET_PDEATHSIG = 1
_prctl: Any = None


def prctl() -> Any:
    """libc's ``prctl`` (Linux), looked up once, before any fork; ``None`` elsewhere."""
    global _prctl
    if _prctl is None:
        _prctl = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                _prctl = ctypes.CDLL(None, use_errno=True).prctl
            except (OSError, AttributeError):
                pass
    return _prctl or None


def die_with_parent(sig: int, parent: int) -> None:
    """Have ``sig`` sent to this process when its parent dies, where the kernel
    can (Linux); ``parent`` is the pid expected, in case it died already.
    Safe between fork and exec: no allocation once :func:`prctl` was looked up."""
    call = _prctl or None
    if call is not None:
        call(PR_SET_PDEATHSIG, sig, 0, 0, 0)
    if os.getppid() != parent:
        os.kill(os.getpid(), sig)
