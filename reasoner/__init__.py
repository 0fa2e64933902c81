"""A logic-programming reasoner for local large-gathering and special-event ordinances."""

__version__ = "0.1.0"
