"""GNU Backgammon's judgement of positions: the layer between the engine and the bots and analysis.

`backend.load_network()` gives the primitives the analysis needs (`NetworkBackend`): the
`gnubg-nn` wheel where it is installed (x86-64 only), else gnubg 1.07's own networks
evaluated here with numpy from the weight file of Debian's `gnubg` program, which installs
on a Raspberry Pi as on a laptop.
"""
