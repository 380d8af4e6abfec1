"""Deriving: deduplicate, curate, title, tag, related papers, the map's layout."""
