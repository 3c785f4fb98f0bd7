"""The default run of the experiment is a session fixture of tests/conftest.py."""
