"""The club night's state: players, boards, tournaments, assignments and results, as one
frozen value (`model`), changed by pure functions (`night`), kept in one JSON file
(`codec`, `store`) written atomically after every change."""
