"""Reading seeds: files, abstracts, ids and venues."""
