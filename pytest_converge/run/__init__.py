"""The runs a test asks for.

``stack`` is the facade a test calls, ``scenario`` the one scenario runner,
``matrix`` the grouped fault matrix, ``loop`` the continuous agent, ``upgrade``
the upgrade from a released revision, ``results`` what they return and
``protocol`` the Stack as its runners see it.
"""
