"""The production-tokenizers assignment's hidden suite (spec: the course's production.md)."""
