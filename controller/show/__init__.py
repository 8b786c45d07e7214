"""What the board shows: the scene (pure), LED strip and display backends."""
