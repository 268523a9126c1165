"""JSON conversion for the engine's frozen dataclasses.

`to_jsonable` turns dataclasses, tuples, frozensets and mappings into plain JSON values;
`from_jsonable` rebuilds a typed value from them using the dataclass's type hints. Both
handle the small set of types engine state uses: int, str, bool, float, None, Literal, tuples
(`tuple[X, ...]` and fixed), frozenset, `dict[str, X]`, unions with None, and nested
dataclasses. Nothing else lives here.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache
from typing import Any, Union


def to_jsonable(value: Any) -> Any:
    """A plain JSON value (dicts, lists, str, int, float, bool, None) for `value`."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.init}
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(to_jsonable(v) for v in value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from what `to_jsonable` produced.

    Raises ValueError with the path of the first field that does not fit.
    """
    return _build(tp, data, "$")


def _build(tp: Any, data: Any, path: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return data
    if origin is typing.Literal:
        if data not in args:
            raise ValueError(f"{path}: expected one of {list(args)}, got {data!r}")
        return data
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _build(arg, data, path)
            except (ValueError, TypeError) as exc:
                errors.append(str(exc))
        raise ValueError(f"{path}: {data!r} fits none of {tp}: {'; '.join(errors)}")
    if dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected an object for {tp.__name__}, got {data!r}")
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if not f.init:
                continue
            if f.name in data:
                kwargs[f.name] = _build(hints[f.name], data[f.name], f"{path}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{path}: missing field {f.name!r} of {tp.__name__}")
        unknown = set(data) - {f.name for f in dataclasses.fields(tp)}
        if unknown:
            raise ValueError(f"{path}: unknown field(s) {sorted(unknown)} for {tp.__name__}")
        return tp(**kwargs)
    if origin is tuple:
        if not isinstance(data, (list, tuple)):
            raise ValueError(f"{path}: expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if args and len(args) != len(data):
            raise ValueError(f"{path}: expected {len(args)} items, got {len(data)}")
        return tuple(_build(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if origin is frozenset:
        if not isinstance(data, (list, tuple)):
            raise ValueError(f"{path}: expected a list, got {data!r}")
        return frozenset(_build(args[0], v, f"{path}[]") for v in data)
    if origin in (dict, typing.Mapping) or tp is dict:
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected an object, got {data!r}")
        vt = args[1] if args else Any
        return {k: _build(vt, v, f"{path}.{k}") for k, v in data.items()}
    if tp is bool:
        if not isinstance(data, bool):
            raise ValueError(f"{path}: expected true/false, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"{path}: expected a whole number, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise ValueError(f"{path}: expected a number, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise ValueError(f"{path}: expected text, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise ValueError(f"{path}: expected null, got {data!r}")
        return None
    if isinstance(tp, type) and hasattr(tp, "__members__"):  # Enum
        try:
            return tp(data)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
    raise TypeError(f"{path}: cannot rebuild type {tp!r}")
