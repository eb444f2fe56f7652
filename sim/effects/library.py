"""Imports every module of registered effect functions, so that card files can name them."""

from sim.effects import highland, imperial, legends, sylvan  # noqa: F401
