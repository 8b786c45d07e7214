"""The computer opponent: the `simple` level and GNU Backgammon's network (`gnubg`).

`base.make_bot(level)` returns a `base.Bot`; decisions take a position (from the player on
roll), dice and a `base.MatchContext` seen by the computer. `simple` (`simple`,
`evaluation`, `cube_rules`) runs anywhere; `gnubg` uses the gnubg-nn wheel
(`gnubg_level`) or the gnubg program (`gnubg_process`); `pubeval` is the public benchmark;
`duel` plays them against each other for the bench and the tests.
"""
