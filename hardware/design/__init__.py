"""The default board's physical design as code: one geometry (where every slot, LED and
module sits), the magnet's field at the sensors, the modules' pin-level netlists with their
rules check, and the BOM and drawings generated from them.

Everything a maker reads in hardware/ (bom.md, margins.md, drawings/*.svg, the README's
figures) is written by `python -m hardware.design` from these modules, and
tests/test_hardware_design*.py regenerate them and compare, so the documents cannot
disagree with one another or with the profile (hardware/profiles/default.toml).
"""
