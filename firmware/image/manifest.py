# MicroPython freeze manifest: the rp2 port's own Python modules (_boot.py mounts the
# flash filesystem, rp2.py) plus the bgboard firmware, so one .uf2 holds everything and
# the frozen main.py starts the board at power-up. Used by build-uf2.sh; paths are
# relative to this file. MicroPython's tools/manifestfile.py runs it with freeze() defined.
MYPY = False
if MYPY:  # type checkers only
    def freeze(path: str, script: tuple[str, ...] | None = None) -> None: ...

freeze("$(PORT_DIR)/modules")
freeze("..", ("wire.py", "chain.py", "levels.py", "fastlevels.py", "calstore.py", "debounce.py",
               "board.py", "link.py", "pins.py", "fastfront.py", "main.py"))
