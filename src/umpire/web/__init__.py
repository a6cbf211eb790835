"""The web table: ``umpire serve`` (see docs/web.md)."""
