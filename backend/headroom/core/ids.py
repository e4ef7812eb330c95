"""Typed path parameters for row ids: a value outside the id column's range (32-bit
INTEGER on PostgreSQL) is a 422 naming the parameter, never a database error."""

from typing import Annotated

from fastapi import Path

ID_MAX = 2**31 - 1  # the largest value an INTEGER primary key can hold

Id = Annotated[int, Path(ge=1, le=ID_MAX, description="A row id (1 to 2^31 - 1)")]
Index = Annotated[int, Path(ge=0, le=ID_MAX, description="A position, from 0")]
