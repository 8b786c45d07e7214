"""gnubg's table of e^(k/10) / 10 for its sigmoid (lib/sigmoid.h), which both builds'
sigmoids read (`net`, `sse`)."""
from __future__ import annotations

import numpy as np

E = (np.exp(np.arange(101) / 10.0) / 10.0).astype(np.float32)
E[100] = E[99]  # the table's "one extra" entry repeats the last one
