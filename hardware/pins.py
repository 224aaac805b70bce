"""Choosing gpiozero's pin backend without ever crashing on a laptop.

On a Raspberry Pi the backend is lgpio (Debian's ``python3-lgpio``, seen through a venv
made with ``--system-site-packages``). Elsewhere no backend loads and ``load_factory``
says why, so the caller can run without buttons instead of failing.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

MODEL_PATH = Path("/proc/device-tree/model")


@dataclass
class FactoryChoice:
    """The pin factory to use (``None`` when there is none) and a sentence about it."""

    factory: Any
    name: str
    problem: str | None = None
    owned: bool = True  # we made it, so we close it


def pi_model() -> str | None:
    """The Raspberry Pi model string, or None on anything else."""
    try:
        model = MODEL_PATH.read_text(encoding="utf-8", errors="replace").strip("\x00\n ")
    except OSError:
        return None
    return model if "raspberry pi" in model.lower() else None


def factory_name(factory: Any) -> str:
    """A short backend name for a gpiozero factory object ("lgpio", "mock", ...)."""
    cls = type(factory).__name__
    return cls.removesuffix("Factory").lower() or cls


def _by_name(name: str) -> Any:
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == name or ep.name == name.lower():
            return ep.load()()
    known = sorted(ep.name for ep in entry_points(group="gpiozero_pin_factories"))
    raise LookupError(f"no gpiozero pin factory {name!r} (known: {', '.join(known)})")


def load_factory(name: str | None = None) -> FactoryChoice:
    """The pin factory ``name`` (config), else $GPIOZERO_PIN_FACTORY, else gpiozero's default.

    Never raises: a missing backend gives ``factory=None`` and a ``problem`` that says
    what to install or change.
    """
    name = name or os.environ.get("GPIOZERO_PIN_FACTORY") or None
    try:
        with warnings.catch_warnings():
            # gpiozero warns on each backend it falls back from; the outcome is what counts
            warnings.simplefilter("ignore")
            if name is not None:
                factory = _by_name(name)
            else:
                from gpiozero import Device

                factory = Device._default_pin_factory()
    except Exception as exc:  # ImportError, BadPinFactory, lgpio's own errors...
        return FactoryChoice(None, name or "none", _explain(name, exc))
    return FactoryChoice(factory, factory_name(factory))


def _explain(name: str | None, exc: Exception) -> str:
    if pi_model() is None and name in (None, "lgpio", "native", "rpigpio", "pigpio"):
        return "no GPIO here: this is not a Raspberry Pi (buttons and LEDs are off)"
    if name in (None, "lgpio"):
        return (f"no GPIO backend could load ({exc}); on Raspberry Pi OS run "
                "`sudo apt install python3-lgpio` and make the venv with "
                "--system-site-packages (systemd/install.sh does both)")
    return f"pin factory {name!r} could not load: {exc}"
