"""The printed circuit boards: each board kind's parts placed from the one geometry and
its netlist, every net routed, and KiCad 6 making the board, checking it (DRC) and writing
the files a fab takes (Gerbers, drill, BOM, pick-and-place)."""
