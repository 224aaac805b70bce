"""Whether this machine's kernel does what the network tests need, asked the way they use
it: a network namespace entered with ``ip -n``, and nftables over netlink.

A root where the tools exist may still lack them: in the emulated arm64 root
(``scripts/arm64-test.sh``) ``ip -n`` cannot remount ``/`` inside a chroot, and qemu-user
does not carry nftables' netlink messages. The tests are then skipped with that reason;
on a Raspberry Pi and natively they run.
"""

from __future__ import annotations

import os
import subprocess

#: a ruleset that any working nft accepts
TRIVIAL = "table inet tcprobe {\n}\n"


def _said(res: subprocess.CompletedProcess[str]) -> str:
    return (res.stderr or res.stdout).strip().splitlines()[-1] if (res.stderr or res.stdout) \
        else f"exit {res.returncode}"


def nft_unavailable() -> str | None:
    """None when ``nft -c`` can check a ruleset here, else why not."""
    res = subprocess.run(["nft", "-c", "-f", "-"], input=TRIVIAL, capture_output=True,
                         text=True, timeout=120)
    if res.returncode != 0:
        return f"nft cannot check even a trivial ruleset here: {_said(res)}"
    return None


def netns_unavailable() -> str | None:
    """None when a network namespace can be added and entered (``ip -n``) here."""
    probe = f"tcprobe{os.getpid()}"
    res = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True,
                         timeout=120)
    if res.returncode != 0:
        return f"network namespaces are not allowed here: {_said(res)}"
    try:
        res = subprocess.run(["ip", "-n", probe, "link", "set", "lo", "up"],
                             capture_output=True, text=True, timeout=120)
        if res.returncode != 0:
            return f"a network namespace cannot be entered here: {_said(res)}"
    finally:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=120)
    return None
