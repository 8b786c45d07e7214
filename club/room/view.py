"""What the room's page shows of the night, as JSON: the boards with the match each has,
each tournament's standings or places, the results with their records' links. Built field
by field from the state: the boards' keys and addresses never leave the hub."""
from __future__ import annotations

from collections.abc import Mapping

from club.report import record_name, rows
from club.state import night
from club.state.model import ClubState
from controller.json_value import JsonObject


def room_view(state: ClubState, live: Mapping[str, JsonObject]) -> JsonObject:
    playing = {board_id: match_id for match_id, board_id in state.assignments.items()
               if match_id not in state.results}
    boards = []
    for board in state.boards:
        pairing = night.pairing(state, playing.get(board.board_id, ""))
        boards.append({"board_id": board.board_id, "name": board.name,
                       "match": None if pairing is None else
                       {"match_id": pairing.match_id, "white": pairing.white, "black": pairing.black},
                       "live": live.get(board.board_id)})
    tournaments = []
    for tournament in state.tournaments:
        head, body = rows(state, tournament)
        tournaments.append({"label": tournament.prefix.rstrip("-"), "kind": tournament.kind,
                            "rounds": f"{len(tournament.rounds)} of {tournament.rounds_planned}",
                            "head": list(head[1:]), "rows": [list(r[1:]) for r in body]})
    results = [{"match_id": r.match_id, "white": r.white, "black": r.black, "score": list(r.score),
                "winner": r.winner_name(), "correction": None if r.correction is None else r.correction.reason,
                "record": f"records/{record_name(r)}"} for r in state.results.values()]
    return {"type": "room", "hub_name": state.hub_name, "boards": boards, "tournaments": tournaments,
            "results": results}
