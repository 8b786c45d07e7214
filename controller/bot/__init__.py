"""The computer opponent: the `simple` level and GNU Backgammon's network (`gnubg`)."""
