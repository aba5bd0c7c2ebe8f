"""An audit run on disk: its directory, the question bank, the six step functions, metrics and the report."""
