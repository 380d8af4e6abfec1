"""The nouns and helpers every stage shares: the paper record, errors, schemas, text."""
