"""The pytest side: the only code that imports pytest.

``pytest_plugin`` is the ``pytest11`` entry point; ``options``, ``session``,
``fixtures``, ``progress``, ``hookspecs`` and ``collect/`` (zero-code mode) sit
beside it.
"""
