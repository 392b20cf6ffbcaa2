"""Terraform plumbing.

``toolchain`` finds the engine (or ``bundled``), ``cliconfig`` writes the CLI
config, ``hcl`` and ``tfvars`` read a module, ``workspace`` copies and
initialises it, ``provider`` and ``schema_proxy`` run the provider, ``runner``
runs one terraform command, ``planfile`` reads a saved plan.
"""
