"""How the ``gin`` process's memory allocator keeps what it frees.

``gin score`` builds, for each chunk of a thousand records, a few blocks of a
few hundred kilobytes (the lines read, the chunk's output as text, then as
UTF-8) and frees them; the GNU C library gives a freed block at the top of its
heap back to the system once more than a dynamic threshold (about twice the
largest block lately freed) is free there, and maps the next block afresh, so
each chunk's pages were faulted in anew: some 60,000 page faults in the workers
on 300,000 records, a tenth of a second and more of system time (about 40,000,
with ``--workers 1``, in gin's own process; measured in docs/benchmarks.md).
:func:`keep_freed` raises the thresholds (blocks of up to
:data:`MMAP_THRESHOLD` from the heap, up to :data:`TRIM_THRESHOLD` kept free at
its top), once, for the ``gin`` command (:mod:`gincli.entry`): workers forked
from it inherit them. What it keeps is what the chunks' blocks took at their
most, never more than :data:`TRIM_THRESHOLD` beyond what is in use (``gin
score``'s peak on 300,000 records grew by 2 to 3 MB, to 37 MB PSS). A program
importing gincli keeps its own allocator as it is; so does a ``gin`` whose
environment tunes the allocator itself (``MALLOC_*_`` or ``GLIBC_TUNABLES``); elsewhere than the GNU C library, and
where the compiled ``_heap`` is not loaded (not built, or ``GINCLI_PURE=1``:
:func:`~gincli.base.compiled.compiled`), nothing is set."""

from __future__ import annotations

import os

from .compiled import compiled

MMAP_THRESHOLD = 4 << 20  # bytes: a block up to this from the heap
TRIM_THRESHOLD = 32 << 20  # bytes: up to this kept free at the heap's top

#: What in the environment means the allocator is tuned there already.
_TUNED = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")


def keep_freed() -> bool:
    """Set the allocator's thresholds (see the module); True when they were set."""
    if any(name in os.environ for name in _TUNED):
        return False
    module = compiled(f"{__package__}._heap")
    return module is not None and bool(module.keep(MMAP_THRESHOLD, TRIM_THRESHOLD))
