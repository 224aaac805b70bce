"""GPIO buttons, LEDs and buzzer through gpiozero (see docs/wiring.md).

``attach(table, gpio, signals)`` is the one entry point ``companion serve`` uses. The
gpiozero pin backends are imported inside the adapters, so this package imports on any
machine; where there is no GPIO, ``attach`` returns an inactive appliance that says so.
"""

from __future__ import annotations

from hardware.appliance import Appliance, ApplianceStatus, attach, inactive
from hardware.buttons import ButtonBank, ButtonSpec, PressTracker, button_specs
from hardware.patterns import DESCRIPTIONS, Step, pattern
from hardware.pins import FactoryChoice, load_factory, pi_model

__all__ = [
    "Appliance", "ApplianceStatus", "attach", "inactive", "ButtonBank", "ButtonSpec",
    "PressTracker", "button_specs", "DESCRIPTIONS", "Step", "pattern", "FactoryChoice",
    "load_factory", "pi_model",
]
