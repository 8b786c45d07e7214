# bgboard firmware: per-sensor debouncing.
#
# A sensor's reported value changes only after `count` consecutive scans agree on
# the new value; a checker sliding over a slot or a flickering comparator does not
# produce a SCAN. Same Python subset as wire.py.


class Debouncer:
    def __init__(self, n: int, count: int = 3) -> None:
        self.n = n
        self.count = count if count > 0 else 1
        self.stable = [0] * n
        self.candidate = [0] * n
        self.runs = [0] * n
        self.unsettled = 0   # sensors part-way through a run of equal scans

    def set_count(self, count: int) -> None:
        self.count = count if count > 0 else 1

    def update(self, raw: list[int]) -> bool:
        """Take one scan's raw values; return True when any stable value changed."""
        changed = False
        unsettled = 0
        stable = self.stable
        candidate = self.candidate
        runs = self.runs
        need = self.count
        for i in range(self.n):
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
                runs[i] = 0
                changed = True
            else:
                unsettled += 1
        self.unsettled = unsettled
        return changed

    def idle(self) -> bool:
        """True when every sensor's raw value equals its stable value (nothing pending)."""
        return self.unsettled == 0

    def values(self) -> list[int]:
        return list(self.stable)
