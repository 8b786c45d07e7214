"""The `bgboard` program: its command line (`bgboard.cli`), one module per subcommand
(`bgboard.commands`) and per bench section (`bgboard.bench`). It sits above every front end,
the simulator (sim/) among them, so that controller/ never imports the simulator."""
