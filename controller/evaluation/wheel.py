"""The `gnubg-nn` wheel (x86-64 only), the fast path where it is installed."""
from __future__ import annotations

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
