"""The dialogue on top: the manager that turns an utterance into commands and replies, the window's session, assembly."""
