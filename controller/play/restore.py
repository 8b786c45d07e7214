"""A table set to a `TableState`: each job given back its slice (the reverse of `state()`).

`Controller.from_state` builds a controller for the state's match and then calls
`restore`, so the controller is a function of the one value (`controller.controller.step`).
This is the one place outside the jobs that writes their slices, and it writes each whole,
as the job itself would, at a moment no event is being handled. What the state leaves out
is rebuilt on demand and needs nothing here: the board tracker's expectation and the
tutor's judgement are memos keyed by what they were computed from. The state's objects are
shared, not copied: they are frozen, and sharing keeps the links between slices (the tutor's
held action `is` the match it was judged for) as they were.
"""
from __future__ import annotations

from controller.play.reads import TableReads
from controller.play.table_state import TableState


def restore(table: TableReads, state: TableState) -> None:
    """Set every job of `table` to its slice of `state`, and the dice to its facts."""
    table.flow._state = state.flow
    table.menu_job._state = state.menu
    table.hints._state = state.hint
    table.tutor._state = state.tutor
    table.computer._state = state.computer
    table.questions._state = state.questions
    table.watch._state = state.watch
    table.board_sync.board._reading = state.board
    table.rolls.seat(state.dice.dice())
    table.show._last = state.scene_sent
    table.links = dict(state.links)
    table._setting = state.table
