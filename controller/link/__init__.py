"""The serial link to the sensor board: the pure frame codec and the pyserial reader."""
