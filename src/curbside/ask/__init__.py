"""The ask pipeline: clarify, compose the query, search, answer (generated or extractive), assemble."""
