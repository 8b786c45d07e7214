"""GNU Backgammon's judgement: match analysis (`bgboard analyze`), hints and the tutor."""
