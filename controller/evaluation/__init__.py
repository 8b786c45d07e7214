"""GNU Backgammon's judgement of positions: the layer between the engine and the bots and analysis.

`numpy_network.NumpyNetwork` evaluates positions at 0 ply as the gnubg program does, from
its weight file (Debian's `gnubg` installs it on a Raspberry Pi as on a laptop), for the
release the weights belong to (`generation`: 1.07 or 1.08); where the x86-64 `gnubg-nn`
wheel is installed it evaluates part of the positions in C. `analysis.network.load_network()`
gives it to the analysis behind `backend.NetworkBackend`.
"""
