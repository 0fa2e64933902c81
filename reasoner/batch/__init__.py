"""Many events from files: their sources, worker processes, checkpoints and rows."""
