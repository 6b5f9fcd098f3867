"""Curbside: a clinical consult engine with cited answers, tools, PHI protection and an audit trail."""

__version__ = "0.1.0"
