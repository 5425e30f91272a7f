"""The hidden tests of the tokens-to-vectors assignment."""
