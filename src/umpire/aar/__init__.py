"""After-action reports (issue 24): ``collect`` reads a saved game, ``html`` writes the file."""
