"""Bring-up tools for a newly built board: `bgboard selftest` and `bgboard calibrate`.

The steps talk to the hardware through a `Rig` and to the person through an `Operator`,
so the very same steps run on a Raspberry Pi with a person at the board and in the
simulator, where `SimOperator` acts on the virtual board and looks at the simulated LEDs,
display and buzzer.
"""
