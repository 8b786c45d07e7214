"""Playing on bgammon.org (or any server speaking its protocol) from the board.

- `events`: the server's JSON events as typed values, decoded line by line.
- `commands`: the lines the client sends.
- `perspective`: the one place where the server's view (every game seen from player 1's
  side) becomes the engine's positions and steps, and back.
- `client`: one TCP connection: log-in, keep-alive, lines in and out.
- `session`: the connection kept alive across drops (backoff, log-in, rejoin) and the
  saved state that lets a restart resume the same server match.
- `remote`: the remote player as an opponent of the table, like the computer.
- `seat`: the remote player seated at a running table: the local match set aside (saved),
  the server's match played, the local match given back on leaving.
- `door`: the way in and out of online play at one table (the page's dialog, the menu).
- `choice`: what to play as whom, from the settings or the page's form, checked once.
- `play`: `bgboard online`: a table opened for the match; `hands`: a computer level's
  hands on the virtual board (a headless board plays by itself).
- `watch`: `bgboard online --watch`: a read-only spectator of a server match, shown on the
  display and the LEDs.
"""
