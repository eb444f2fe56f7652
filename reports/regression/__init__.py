"""Regression reports: summary metrics of a run, their comparison between runs, history, suites."""
