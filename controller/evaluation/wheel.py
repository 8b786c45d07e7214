"""The `gnubg-nn` wheel (x86-64 only): gnubg's networks in C, several times faster than
numpy, where it computes what the gnubg program computes (`numpy_network` decides;
`wheel_net.WheelNet` holds it with one set of weights)."""
from __future__ import annotations

import importlib.util
import os
from types import ModuleType


def load_gnubg_nn() -> ModuleType | None:
    """The wheel's module, or None when it is not installed (or hidden by
    BGBOARD_NETWORK=numpy, which the tests use to run every judgement without it)."""
    if os.environ.get("BGBOARD_NETWORK") == "numpy":
        return None
    try:
        import gnubg_nn
    except ImportError:
        return None
    return gnubg_nn


def wheel_installed() -> bool:
    """Whether `load_gnubg_nn` would find the wheel, without importing it (its import
    loads its own networks and databases: some 40 MB, for a level that may never use them)."""
    if os.environ.get("BGBOARD_NETWORK") == "numpy":
        return False
    try:
        return importlib.util.find_spec("gnubg_nn") is not None
    except (ImportError, ValueError):
        return False
