"""Card effects: the step vocabulary (interpreter), the context effects act through, custom functions."""
