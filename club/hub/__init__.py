"""The hub's side of the club protocol (v1): pairing boards, handing them the round's
matches, collecting and acknowledging their results, relaying their live feeds."""
