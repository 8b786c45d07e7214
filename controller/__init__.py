"""bgboard: the brain of an electronic backgammon board.

`controller.engine` is the pure rules engine; the other subpackages talk to the
hardware (or the simulated hardware) and must never be imported by the engine.
"""
