"""The analysis modes over the solver's answers: explain, questions, what-if, compare, sweep, readings."""
