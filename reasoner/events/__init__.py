"""Events: the event file's model and rules, its loading, its clocks and sun, and its atoms."""
