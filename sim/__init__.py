"""The simulator: the virtual board running the real firmware code, and the web page."""
