"""One module per `bgboard` subcommand (see bgboard/cli.py for the contract)."""
