"""bgammon.org's vocabulary, with no connection: a server's address (`address`) and the
command lines a client sends (`commands`).

It sits below the settings (which check `online_server` and a join target when config.toml
is read) and below online play (controller/online, which sends these lines), so neither
imports the other's package for it.
"""
