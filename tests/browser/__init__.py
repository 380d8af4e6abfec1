"""Browser tests of the built site (a package, so its conftest and test_site do not shadow tests/conftest.py and tests/test_site.py)."""
