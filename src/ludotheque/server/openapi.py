"""Request schemas for ``/api/docs`` of bodies the handlers read by hand (to answer 400, never 422).

A handler that reads its body itself declares no body parameter, so FastAPI would document
none: ``request_body(Model)`` gives the operation's ``openapi_extra`` instead, with the model's
JSON schema self-contained (its ``$defs`` inlined, since a path's schema cannot reach them).

>>> from ludotheque.server.schemas import CreateGame
>>> schema = request_body(CreateGame)["requestBody"]["content"]["application/json"]["schema"]
>>> [option["properties"]["type"]["const"] for option in schema["properties"]["clock"]["anyOf"][0]["oneOf"]]
['fischer', 'correspondence']
>>> "$defs" in schema
False
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

REF_PREFIX = "#/$defs/"


def request_body(model: type[BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` declaring a required JSON body of ``model``'s shape."""
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _inlined(schema, definitions)}},
        }
    }


def _inlined(node: Any, definitions: dict[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/X"}`` replaced by X's schema."""
    if isinstance(node, list):
        return [_inlined(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith(REF_PREFIX):
        return _inlined(definitions[reference.removeprefix(REF_PREFIX)], definitions)
    inlined = {key: _inlined(value, definitions) for key, value in node.items()}
    discriminator = inlined.get("discriminator")
    if isinstance(discriminator, dict):  # its mapping names $defs that are now inlined
        inlined["discriminator"] = {k: v for k, v in discriminator.items() if k != "mapping"}
    return inlined
