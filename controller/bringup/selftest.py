"""Running the selftest: the chosen steps in order, each verdict reported as it comes."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from controller.bringup import steps
from controller.bringup.requests import StepResult
from controller.bringup.rig import Operator, Rig
from controller.engine.wording import counted


async def run_selftest(rig: Rig, op: Operator, names: Sequence[str], *,
                       link_seconds: float = 10.0, colours: tuple[str, ...] = ("white", "black"),
                       report: Callable[[StepResult], None] = lambda result: None,
                       ) -> list[StepResult]:
    """Run the steps `names` (keys of `steps.STEPS`, run in that table's order)."""
    results: list[StepResult] = []
    for name in steps.STEPS:
        if name not in names:
            continue
        if name == "link":
            result = await steps.link(rig, op, link_seconds)
        elif name == "sensors":
            result = await steps.sensor_map(rig, op, colours)
        else:
            result = await steps.STEPS[name](rig, op)
        report(result)
        results.append(result)
    return results


def verdict(results: Sequence[StepResult]) -> str:
    """The last line: all passed, or which failed."""
    failed = [r.name for r in results if not r.passed]
    if not failed:
        return f"selftest: {'all ' if len(results) != 1 else ''}{counted(len(results), 'step')} passed"
    return f"selftest: {len(failed)} of {len(results)} steps failed: {', '.join(failed)}"
