"""The options of a command that opens the real board, said once: `run`, `selftest` and
`calibrate` each described the profile, the serial port and the settings file in words of
their own (three wordings of where the settings are read), and `online` the settings too."""
from __future__ import annotations

import argparse

from controller.settings import SYSTEM_CONFIG


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """`--config`: the settings file, with where it is looked for when not given."""
    parser.add_argument("--config", help=f"settings file (default: {SYSTEM_CONFIG}, "
                                         "then the user's ~/.config/bgboard/config.toml)")


def add_board_options(parser: argparse.ArgumentParser) -> None:
    """`--profile`, `--port` (the sensor board's serial port) and `--config`."""
    parser.add_argument("--profile", help="hardware profile: a name in hardware/profiles or a path "
                                          "(default: the settings' profile)")
    parser.add_argument("--port", help="the sensor board's serial port (default: the settings' port)")
    add_config_option(parser)
