"""One module per `bgboard` subcommand (see bgboard/cli.py for the contract), and the options
several share: number arguments (`numbers.py`), the real board's options (`board_options.py`)."""
