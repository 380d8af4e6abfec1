"""The site step: MkDocs renders frames, the generator fills and compacts them."""
