# bgboard firmware: per-sensor debouncing.
#
# A sensor's reported value changes only after `count` consecutive scans agree on
# the new value; a checker sliding over a slot or a flickering comparator does not
# produce a SCAN. Same Python subset as wire.py.

try:
    from firmware import wire
except ImportError:
    import wire  # type: ignore[import-not-found,no-redef,unused-ignore]


class Debouncer:
    def __init__(self, n: int, count: int = 3) -> None:
        self.n = n
        self.count = count if count > 0 else 1
        self.stable = [0] * n
        self.candidate = [0] * n
        self.runs = [0] * n
        self.unsettled = 0   # sensors part-way through a run of equal scans
        self.pending = []  # type: list[int]  # their indices
        self.packed = bytearray((n + 3) // 4)  # `stable` in SCAN's packing (wire.set_packed)

    def set_count(self, count: int) -> None:
        self.count = count if count > 0 else 1

    def update(self, raw: list[int], only: "list[int] | None" = None) -> bool:
        """Take one scan's raw values; return True when any stable value changed.

        `only`: the sensors whose raw value may differ from the last scan's (the caller
        compared the chain bytes). Every other settled sensor still reads its stable value,
        so only those and the ones part-way through a run need a look (on the Pico a
        loop over all 182 sensors costs 2 ms)."""
        changed = False
        pending = []
        stable = self.stable
        candidate = self.candidate
        runs = self.runs
        need = self.count
        if only is None:
            indices = range(self.n)  # type: list[int] | range
        else:
            indices = sorted(set(only) | set(self.pending))
        for i in indices:
            r = raw[i]
            if r == stable[i]:
                runs[i] = 0
                continue
            if r == candidate[i] and runs[i] > 0:
                runs[i] += 1
            else:
                candidate[i] = r
                runs[i] = 1
            if runs[i] >= need:
                stable[i] = r
                wire.set_packed(self.packed, i, r)
                runs[i] = 0
                changed = True
            else:
                pending.append(i)
        self.pending = pending
        self.unsettled = len(pending)
        return changed

    def idle(self) -> bool:
        """True when every sensor's raw value equals its stable value (nothing pending)."""
        return self.unsettled == 0

    def values(self) -> list[int]:
        return list(self.stable)
