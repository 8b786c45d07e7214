"""The tournament formats as pure functions of the players, the pairings made and the
winners known: no I/O, no clock, nothing kept between calls (club/tournament/README.md)."""
