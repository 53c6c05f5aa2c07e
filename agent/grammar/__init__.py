"""The command grammar: command types that parse, format, validate and say what they did; no pixels."""
