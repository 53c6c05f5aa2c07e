"""Reading requests: one lexicon of words, clause splitting, scope, the rule registry and the reader."""
