"""Pages: the digest rendered to Markdown, feeds, search index and map, and written to docs/."""
