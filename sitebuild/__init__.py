"""Build logic of the site: runs, shortcodes, claims, math; the MkDocs hooks live in hooks.py."""
