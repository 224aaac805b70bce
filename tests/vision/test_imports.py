"""Vision imports on a machine without camera libraries (the real adapters load them).

Cycles and layering are checked by ``lint-imports`` (pyproject.toml), not here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_core_vision_modules_import_without_camera_libraries() -> None:
    code = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"cv2", "picamera2", "pyzbar", "zxingcpp"}:
            raise ModuleNotFoundError(name, name=name)
sys.meta_path.insert(0, Block())
import vision.frames, vision.backends, vision.decoding, vision.sources
import vision.tracking, vision.pipeline, vision.replay, bench.vision
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
