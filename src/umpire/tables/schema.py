"""Pydantic models of a table file, used only at the edge to validate raw TOML.

The schema is strict: unknown keys are errors because they are usually typos. The one
exception is a row's ``effects``, a free payload for the rules module that reads it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LimitModel(_Strict):
    """How often an outcome may happen: per game day and/or per game."""

    per_day: int | None = Field(default=None, ge=1)
    per_game: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _one_limit(self) -> LimitModel:
        if self.per_day is None and self.per_game is None:
            raise ValueError("a limit needs per_day and/or per_game")
        return self


class RowModel(_Strict):
    """One row of a table as written in the file."""

    range: str
    id: str = Field(pattern=ID_PATTERN)
    text: str = Field(min_length=1)
    label: Literal["default", "reading"] | None = None
    reason: str | None = Field(default=None, min_length=1)
    effects: dict[str, Any] = Field(default_factory=dict)
    ref: str | None = Field(default=None, pattern=ID_PATTERN)
    limit: LimitModel | None = None

    @field_validator("range", mode="before")
    @classmethod
    def _range_text(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            raise ValueError("range must be a string such as '3' or '12-16', or an integer")
        return value


class TableModel(_Strict):
    """One ``[[table]]`` block as written in the file."""

    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    formula: str = Field(min_length=1)
    source: str = Field(min_length=1)
    notes: str | None = None
    row: list[RowModel] = Field(min_length=1)


class TableFileModel(_Strict):
    """A whole table file: one or more ``[[table]]`` blocks."""

    table: list[TableModel] = Field(min_length=1)
