"""The room's page: every board live, the standings beside, read-only (club/room/server.py)."""
