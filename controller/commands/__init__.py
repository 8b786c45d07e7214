"""One module per `bgboard` subcommand (see controller/cli.py for the contract)."""
