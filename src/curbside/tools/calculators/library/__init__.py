"""The calculators, one module per clinical area; each module exports ``CALCULATORS``."""
