"""What JSON carries, as types: the saved match, the settings, the page's snapshots.

One definition for every module that writes or reads JSON, so that a boundary says "JSON"
and not `Any`. A `JsonObject` is built for `json.dumps` (its values are JSON's own: None,
bool, int, float, str, lists and objects of them); what `json.loads` or TOML gave is read as
`object` and narrowed with isinstance before it is believed, so a wrong file is named in one
line instead of failing deep inside (the values' type is `object`, not a recursive union,
because Python's dict is invariant: a `dict[str, str]` is no `dict[str, JsonValue]`).
"""
from __future__ import annotations

from typing import TypeAlias

#: a JSON object as built for `json.dumps`, or as read from `json.loads` before it is checked
JsonObject: TypeAlias = dict[str, object]


def json_object(value: object, what: str) -> JsonObject:
    """`value` as a JSON object, or TypeError naming `what` it should have been: for the
    parts of a snapshot or a record that are objects themselves."""
    if not isinstance(value, dict):
        raise TypeError(f"{what} is {type(value).__name__}, not a JSON object")
    return value
