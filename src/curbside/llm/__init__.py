"""Language models: the OpenAI-compatible client, endpoint choice, prompts, citation markers
and the extractive answerer used when no model is configured or the model fails."""
