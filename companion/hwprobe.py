"""Quick hardware probes used by ``./run`` to choose between the real table and --demo."""

from __future__ import annotations

import argparse
import glob
import shutil
import sys


def has_camera() -> bool:
    """True when a V4L2 device or a Raspberry Pi camera is present."""
    if glob.glob("/dev/video*"):
        return True
    return shutil.which("rpicam-hello") is not None and bool(glob.glob("/dev/media*"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--has-camera", action="store_true")
    args = parser.parse_args()
    if args.has_camera:
        return 0 if has_camera() else 1
    print(f"camera: {'yes' if has_camera() else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
