"""Checks of the law's own files: the linter, the scenario coverage, the scaffold of a new text."""
