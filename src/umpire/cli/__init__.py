"""The ``umpire`` command line (typer + rich)."""
