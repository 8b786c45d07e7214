"""The simulator's web page: an aiohttp server with one WebSocket, over a `SimBackend`."""
