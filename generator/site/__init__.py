"""The site step: MkDocs renders what changed of its part and the frames, the generator fills
the pages into them, and the next site, staged beside site/, is swapped in whole."""
