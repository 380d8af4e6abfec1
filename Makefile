# Two commands on a fresh machine: `make site` builds the digest, `make test` tests it.
PYTHON ?= python3
# Material prints a banner about MkDocs 2.0 on every build; it is not about this site.
export NO_MKDOCS_2_WARNING := 1
VENV   := .venv
PY     := $(VENV)/bin/python
KATEX  := docs/assets/katex

.PHONY: site docs serve test bench clean

# The virtualenv gets what the site needs (requirements.txt) for `make site`, and what the
# tests need on top (requirements-test.txt) for `make test`; each again when its pins change.
$(VENV)/.site-installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.test-installed: $(VENV)/.site-installed requirements-test.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	touch $@

# KaTeX is served by the site itself (no CDN): copied from the pinned npm package.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

$(KATEX)/katex.min.js: node_modules/.package-lock.json
	rm -rf $(KATEX) && mkdir -p $(KATEX)/fonts
	cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css $(KATEX)/
	cp node_modules/katex/dist/fonts/*.woff2 $(KATEX)/fonts/

# Generate the Markdown pages and papers.json from seeds/ into docs/.
docs: $(VENV)/.site-installed $(KATEX)/katex.min.js
	$(PY) -m generator build

# The static site, built into site/ by the site step (generator/site/build.py): it writes only
# the files whose bytes changed, stages the next site beside site/ by hard links and swaps it in
# whole; `mkdocs build --strict` (not --quiet: it drops the warnings that --strict counts) runs
# only when what it renders changed, and renders one frame for the paper pages rather than each
# of them: the generator fills every paper into it (generator/site/stamp.py, compact.py).
# A plain `mkdocs build` renders the same site, many times slower.
# SITE_URL=https://.../ (mkdocs.yml reads it) gives the pages absolute canonical and Open Graph
# addresses and the sitemaps; without it the build says what it left out.
site: docs
	$(PY) -m generator site

# Live preview: serves site/ at once, rebuilds (generator and site step, only what changed)
# when a seed, hand-written page, template or mkdocs.yml is saved, and reloads the page.
# the preview's address: make serve ADDR=0.0.0.0:8080
ADDR ?= 127.0.0.1:8000

serve: $(VENV)/.site-installed $(KATEX)/katex.min.js
	$(PY) -m generator.serve --addr $(ADDR)

test: $(VENV)/.test-installed $(KATEX)/katex.min.js
	$(PY) -m pytest

bench: $(VENV)/.test-installed $(KATEX)/katex.min.js
	$(PY) -m benchmarks.pipeline
	$(PY) -m benchmarks.site

clean:
	rm -rf site .site.* .cache $(KATEX) $$($(PYTHON) -m generator.core.outputs docs)
