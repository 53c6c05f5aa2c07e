"""Small learned models beside the command model: MITR, the relational speaker, the referent-colour ranker."""
