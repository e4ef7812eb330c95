"""The base of the result documents jobs store as JSON and the API serves.

A stored document may have been written by an earlier version: a field added since then
is optional with a default, and a field this version does not know is kept as it is
(``extra="allow"``), so reading a document and serving it never drops data."""

from typing import ClassVar, TypeAlias

from pydantic import BaseModel, ConfigDict
from pydantic.json_schema import JsonSchemaValue

# a JSON number kept as written (an int stays an int), so a document is served as stored
Real: TypeAlias = int | float


def _contract_only(schema: JsonSchemaValue) -> None:
    """Kept keys of other versions are served but are no part of the published contract."""
    schema.pop("additionalProperties", None)


class Document(BaseModel):
    """A part of a stored result document."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_contract_only)


class VersionedDocument(Document):
    """A whole stored result document; ``VERSION`` counts its shapes (each later one only
    adds optional fields, so every earlier document validates against the current model)."""

    VERSION: ClassVar[int] = 1
