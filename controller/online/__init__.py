"""Playing on bgammon.org (or any server speaking its protocol) from the board.

- `events`: the server's JSON events as typed values, decoded line by line.
- `commands`: the lines the client sends.
- `perspective`: the one place where the server's view (every game seen from player 1's
  side) becomes the engine's positions and steps, and back.
- `client`: one TCP connection: log-in, keep-alive, lines in and out.
- `session`: the connection kept alive across drops (backoff, log-in, rejoin) and the
  saved state that lets a restart resume the same server match.
- `remote`: the remote player as an opponent of the table, like the computer.
"""
