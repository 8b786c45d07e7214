"""The physical board: hardware profiles, readings of the sensors, reconciling with the engine."""
