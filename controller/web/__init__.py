"""The web front end of every table: its aiohttp server with one WebSocket a tab, the guards
(Host, Origin, tokens, pacing), the page's actions and views, the static page, the phone's
board page and the spectators' page, for `bgboard sim` and `bgboard run` alike."""
