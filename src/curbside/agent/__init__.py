"""The consult turn (#18): a clinician's message in; context, triage, tool calls through the
executor, and an answer whose every claim points at a source or a tool result, with a timeline.

Deterministic first: rules triage and plan the common intents; a model only where rules are unsure,
and native tool calling when a capable model is configured.
"""
