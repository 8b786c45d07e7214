"""The club room (issue 36): a hub that runs a club night's tournament on paired boards.

`club.tournament` holds the formats as pure functions (Swiss, knockout with a consolation
bracket), `club.state` the night as one JSON file, `club.hub` the talk with the boards
(controller/web's `/club/v1/`, the contract in the lead's notes), `club.room` the read-only
page for the club's screen. Nothing in controller/ or sim/ imports this package.
"""
