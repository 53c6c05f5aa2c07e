"""From a command to pixels: the dispatch of each command type to its operation, replay, edits of named objects."""
