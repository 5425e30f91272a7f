"""The tokenization assignment's hidden suite (spec: the course's assignment.md)."""
