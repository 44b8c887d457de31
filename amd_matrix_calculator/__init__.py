"""AMD matrix instruction calculator: the installed package.

Its subpackages and modules are the clone's top-level folders and modules
(instructions/, layouts/, formats/, matrix_api.py, ...), linked here in the clone
and mapped here by pyproject.toml when installed."""
