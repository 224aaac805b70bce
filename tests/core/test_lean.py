"""companion.lean: the serving process's memory settings."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import os
os.environ.pop("OPENBLAS_NUM_THREADS", None)
from companion.lean import lean_process
lean_process()
lean_process()  # safe twice
import numpy
print(os.environ["OPENBLAS_NUM_THREADS"], os.environ["OMP_NUM_THREADS"])
"""


def test_lean_process_keeps_openblas_to_one_thread() -> None:
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["1", "1"]


def test_the_environment_wins() -> None:
    out = subprocess.run([sys.executable, "-c", CHECK.replace(
        'os.environ.pop("OPENBLAS_NUM_THREADS", None)', 'os.environ["OMP_NUM_THREADS"] = "2"')],
        capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "2"]
