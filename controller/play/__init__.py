"""The controller's jobs, one module each: what is possible now (`possible`)."""
