"""How answers are shown to people: the terminal, the report page, the charts."""
