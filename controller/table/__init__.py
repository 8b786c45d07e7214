"""One table for every front end: `open_table(profile, BackendChoice(...))` gives a
`Table` (controller + LEDs + display + buttons + buzzer + computer + store + link) that
`bgboard run`, `bgboard sim --headless` and `bgboard sim` drive alike."""
from controller.table.backends import BackendChoice
from controller.table.open import make_bot, open_table
from controller.table.table import Seating, Table

__all__ = ["BackendChoice", "Seating", "Table", "make_bot", "open_table"]
