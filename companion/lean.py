"""A lean serving process: settings that keep ``companion serve`` within a Pi's memory.

Measured on ``companion bench web`` (the real stack with the synthetic camera): each of
these costs megabytes for nothing on a table.

- glibc gives every thread that allocates its own malloc arena (up to 8 per core), and
  freed memory stays in them: two arenas are enough for one writer thread, a camera and
  a small web pool (``mallopt(M_ARENA_MAX)``; ``MALLOC_ARENA_MAX`` in the environment
  wins).
- glibc serves a large block (a camera frame, 2.7 MB) by mmap until the first such block
  is freed, then raises its threshold and serves the next ones from the heap, where they
  stay after they are freed: a fixed threshold (``M_MMAP_THRESHOLD``) gives every frame
  back when it is dropped, and ``M_TRIM_THRESHOLD`` returns a freed heap top sooner.
- numpy's and OpenCV's OpenBLAS start one thread per core with its own buffers, for
  matrix products the table never does (``OPENBLAS_NUM_THREADS=1``; read when numpy or
  cv2 is first imported, so call ``lean_process`` before that).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os

log = logging.getLogger(__name__)

#: glibc's mallopt parameters and the values set
M_TRIM_THRESHOLD, TRIM_BYTES = -1, 128 * 1024
M_MMAP_THRESHOLD, MMAP_BYTES = -3, 128 * 1024
M_ARENA_MAX, ARENAS = -8, 2


def lean_process() -> None:
    """Apply the settings above to this process (safe twice; a no-op off glibc)."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    path = ctypes.util.find_library("c")
    if path is None:
        return
    try:
        mallopt = ctypes.CDLL(path).mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to set
        log.debug("mallopt is not available here")
        return
    for env, param, value in (("MALLOC_ARENA_MAX", M_ARENA_MAX, ARENAS),
                              ("MALLOC_MMAP_THRESHOLD_", M_MMAP_THRESHOLD, MMAP_BYTES),
                              ("MALLOC_TRIM_THRESHOLD_", M_TRIM_THRESHOLD, TRIM_BYTES)):
        if env not in os.environ:  # the environment wins
            mallopt(param, value)


__all__ = ["lean_process"]
