"""Reading a valid event without pydantic, for a cold `reasoner evaluate`: importing pydantic and building the event
models costs more than clingo's whole work on an event.

The models of reasoner/events/model.py stay the one definition of the format. From them a plan is compiled (each part's
fields with their types, bounds, choices and defaults, and the rules of reasoner/events/rules.py that the models run,
in the order pydantic runs them) and cached beside the other package data (reasoner/law/datacache.py), keyed on the
files it comes from and on pydantic's version. A small reader follows the plan and builds light objects that share
each model's behaviour (eventrules' *Base classes).

The reader only ever accepts: it takes a value only in a form whose reading by pydantic is certain (a whole number
as an int, a date as a date or as 2027-07-16, a date-time as 2027-07-16T12:00, ...). Anything else, and any problem
at all, declines, and loading reads the file through pydantic, which gives today's messages.
"""
from __future__ import annotations

import re
import sys
import typing
from datetime import date, datetime, time
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType, UnionType
from typing import Any, Literal, NamedTuple

from reasoner.events import rules as eventrules
from reasoner.law.datacache import cached
from reasoner.law.locator import encodings_folder

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?", re.ASCII)
_TIME = re.compile(r"\d{2}:\d{2}(:\d{2})?", re.ASCII)
# A date, date-time or time as its own type, or as text written only the way pydantic surely reads alike.
_ISO_FORMS = {"date": (date, _DATE), "datetime": (datetime, _DATETIME), "time": (time, _TIME)}
_TEXT_TYPES = ("str", "choice", "date", "datetime", "time")


class Decline(Exception):
    """The reader is not sure the data is valid: pydantic reads it instead."""


Rule = tuple[Any, tuple]   # an eventrules function and the arguments the model gives it


class Field(NamedTuple):
    name: str
    spec: tuple            # ("int", ge, le), ("str", min, max), ("choice", names), ("list", spec), ("model", name), ...
    required: bool
    default: tuple         # ("value", v), ("factory", list or dict) or ("model", name)
    before: tuple[Rule, ...]
    after: tuple[Rule, ...]


class Part(NamedTuple):
    fields: tuple[Field, ...]
    names: frozenset[str]
    before: tuple[Rule, ...]
    after: tuple[Any, ...]             # eventrules methods, each given the part
    private: tuple[tuple[str, Any], ...]
    behaviour: tuple[type, ...]        # the eventrules classes the model inherits its properties and methods from


# Compiling the plan from the models (imports pydantic: done once, then cached).

def _spec(annotation: Any, constraints: dict[str, Any]) -> tuple:
    from pydantic import BaseModel

    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if annotation is type(None):
        return ("none",)
    if origin in (typing.Union, UnionType):
        return ("union", tuple(_spec(a, constraints) for a in arguments))
    if origin is Literal and all(type(a) is str for a in arguments):
        return ("choice", frozenset(arguments))
    if origin is list:
        return ("list", _spec(arguments[0], {}))
    if origin is dict:
        return ("dict", _spec(arguments[0], {}), _spec(arguments[1], {}))
    if annotation is int:
        return ("int", constraints.pop("ge", None), constraints.pop("le", None))
    if annotation is str:
        return ("str", constraints.pop("min_length", None), constraints.pop("max_length", None))
    if annotation in (bool, date, datetime, time):
        return (annotation.__name__,)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return ("model", annotation.__name__)
    raise TypeError(f"the fast reader has no reading for {annotation!r}")


def _rule(function: Any, model: type, field: str | None) -> Rule:
    """The eventrules function (and arguments) behind one of the models' validators."""
    if hasattr(function, "per_field"):
        check, arguments_of = function.per_field
        return check, tuple(arguments_of(model, field))
    if hasattr(function, "rule"):
        return function.rule
    raise TypeError(f"{model.__name__}: the validator {function!r} is not a rule of reasoner/events/rules.py")


def _part(model: type) -> Part:
    from pydantic import BaseModel

    if model.model_config.get("extra") != "forbid":
        raise TypeError(f"{model.__name__}: the fast reader declines extra fields, as the models must")
    decorators = model.__pydantic_decorators__
    fields = []
    for name, info in model.model_fields.items():
        if info.alias or info.validation_alias or info.discriminator:
            raise TypeError(f"{model.__name__}.{name}: the fast reader reads fields by their own names")
        constraints = {}
        for item in info.metadata:
            for key in ("ge", "le", "min_length", "max_length"):
                if hasattr(item, key):
                    constraints[key] = getattr(item, key)
        if len(constraints) != len(info.metadata):
            raise TypeError(f"{model.__name__}.{name}: the fast reader knows no constraint in {info.metadata!r}")
        spec = _spec(info.annotation, constraints)
        if constraints:
            raise TypeError(f"{model.__name__}.{name}: constraints {constraints} on a type that takes none")
        if info.is_required():
            default: tuple = ("value", None)
        elif info.default_factory is not None:
            factory = info.default_factory
            if isinstance(factory, type) and issubclass(factory, BaseModel):
                default = ("model", factory.__name__)
            elif factory in (list, dict):
                default = ("factory", factory)
            else:
                raise TypeError(f"{model.__name__}.{name}: no fast reading for the default {factory!r}")
        elif info.default is None or type(info.default) in (str, int, bool):
            default = ("value", info.default)
        else:
            raise TypeError(f"{model.__name__}.{name}: no fast reading for the default {info.default!r}")
        validators = [d for d in decorators.field_validators.values() if name in d.info.fields or "*" in d.info.fields]
        if any(d.info.mode not in ("before", "after") for d in validators):
            raise TypeError(f"{model.__name__}.{name}: the fast reader runs before and after validators only")
        # pydantic runs before-validators last declared first, after-validators in order
        before = tuple(_rule(d.func, model, name) for d in reversed(validators) if d.info.mode == "before")
        after = tuple(_rule(d.func, model, name) for d in validators if d.info.mode == "after")
        fields.append(Field(name, spec, info.is_required(), default, before, after))
    model_before = [d for d in decorators.model_validators.values() if d.info.mode == "before"]
    model_after = [d.func for d in decorators.model_validators.values() if d.info.mode == "after"]
    if len(model_before) + len(model_after) != len(decorators.model_validators) or any(
            getattr(f, "__module__", None) != eventrules.__name__ for f in model_after):
        raise TypeError(f"{model.__name__}: a model validator is not a rule of reasoner/events/rules.py")
    if decorators.root_validators or decorators.validators or decorators.field_serializers:
        raise TypeError(f"{model.__name__}: the fast reader knows no such validator")
    private = []
    for name, attribute in model.__private_attributes__.items():
        if attribute.default_factory is not None:
            raise TypeError(f"{model.__name__}.{name}: no fast reading for a private default_factory")
        private.append((name, attribute.default))
    behaviour = tuple(base for base in model.__mro__ if base.__module__ == eventrules.__name__)
    return Part(tuple(fields), frozenset(model.model_fields), tuple(_rule(d.func, model, None) for d in reversed(model_before)),
                tuple(model_after), tuple(private), behaviour)


def compile_plan() -> dict[str, Part]:
    """Every part of the event format, by model name, read from reasoner/events/model.py's models."""
    from pydantic import BaseModel

    from reasoner.events import model as event

    models = [value for value in vars(event).values() if isinstance(value, type) and issubclass(value, BaseModel)
              and value.__module__ == event.__name__ and value.model_fields]
    return {model.__name__: _part(model) for model in models}


def _sources() -> list[Path]:
    """What the plan is read from: the models, their rules, the vocabulary (their choices) and pydantic's version."""
    here = Path(__file__).resolve().parent
    pydantic = find_spec("pydantic")
    if pydantic is None or pydantic.origin is None:
        raise Decline("pydantic is not installed")
    return [here / "model.py", here / "rules.py", here / "clocks.py", encodings_folder() / "vocabulary.yaml",
            Path(pydantic.origin).parent / "version.py"]


@cache
def plan() -> dict[str, Part]:
    return cached("eventplan", _sources(), __name__, compile_plan)


# The light objects and the reader.

class LightPart:
    """A part of an event read without pydantic: its fields as attributes, and its model's behaviour."""

    def __new__(cls, **data: Any) -> Any:   # built as the model is, Session(start=..., end=...), and so checked
        return _read(cls.__name__, data)

    def __init__(self, **data: Any) -> None:
        pass

    @classmethod
    def model_validate(cls, data: Any) -> Any:
        return _read(cls.__name__, data)

    def model_copy(self, update: dict[str, Any] | None = None) -> Any:
        """A copy with some fields replaced, unchecked (as pydantic's model_copy)."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(update or {})
        return copy

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items() if not k.startswith('_'))})"


@cache
def classes() -> dict[str, type]:
    return {name: type(name, (LightPart, *part.behaviour), {"__module__": __name__}) for name, part in plan().items()}


def __getattr__(name: str) -> Any:
    """The light class of a model (eventplan.Session), as reasoner.events.model has the model: eventrules.family."""
    found = classes().get(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found


_LIGHT: ModuleType = sys.modules[__name__]


_PYTHON_TYPES = {"int": int, "bool": bool, "list": list, "dict": dict, "date": date, "datetime": datetime, "time": time}


def _fits(spec: tuple, value: Any) -> bool:
    """Whether `value` is of a Python type that a member of a union reads (no two members read the same type)."""
    kind = spec[0]
    if kind == "none":
        return value is None
    if kind == "model":
        return type(value) is dict or type(value) is classes()[spec[1]]
    return type(value) is _PYTHON_TYPES.get(kind) or (kind in _TEXT_TYPES and type(value) is str)


def _typed(spec: tuple, value: Any) -> Any:
    kind = spec[0]
    if kind == "int":
        if type(value) is int and (spec[1] is None or value >= spec[1]) and (spec[2] is None or value <= spec[2]):
            return value
    elif kind == "str":
        if type(value) is str and (spec[1] is None or len(value) >= spec[1]) and (spec[2] is None or len(value) <= spec[2]):
            return value
    elif kind == "choice":
        if type(value) is str and value in spec[1]:
            return value
    elif kind == "bool":
        if type(value) is bool:
            return value
    elif kind == "none":
        if value is None:
            return value
    elif kind in _ISO_FORMS:
        form, written = _ISO_FORMS[kind]
        if type(value) is form:
            return value
        if type(value) is str and written.fullmatch(value):
            return form.fromisoformat(value)
    elif kind == "list":
        if type(value) is list:
            return [_typed(spec[1], item) for item in value]
    elif kind == "dict":
        if type(value) is dict:
            return {_typed(spec[1], key): _typed(spec[2], item) for key, item in value.items()}
    elif kind == "model":
        if type(value) is classes()[spec[1]]:
            return value
        if type(value) is dict:
            return _read(spec[1], value)
    elif kind == "union":
        members = [member for member in spec[1] if _fits(member, value)]
        if len(members) == 1:
            return _typed(members[0], value)
    raise Decline(f"{value!r} as {spec}")


def _read(name: str, data: Any) -> Any:
    """A part read from `data` by the plan, or Decline (or the error of a rule, which also declines)."""
    part = plan()[name]
    for check, arguments in part.before:
        data = check(data, *arguments, family=_LIGHT)
    if type(data) is not dict or not part.names.issuperset(data):
        raise Decline(f"{name}: not a mapping of its fields")
    found = object.__new__(classes()[name])
    values = found.__dict__
    values.update(part.private)
    for field in part.fields:
        if field.name in data:
            value = data[field.name]
            for check, arguments in field.before:
                value = check(value, *arguments, family=_LIGHT)
            value = _typed(field.spec, value)
            for check, arguments in field.after:
                value = check(value, *arguments, family=_LIGHT)
        elif field.required:
            raise Decline(f"{name}.{field.name} is missing")
        elif field.default[0] == "value":
            value = field.default[1]
        elif field.default[0] == "factory":
            value = field.default[1]()
        else:
            value = _read(field.default[1], {})
        values[field.name] = value
    for check in part.after:
        found = check(found)
    return found


def read_event(record: Any) -> Any:
    """The record as a light event, or None if the reader is not sure of it."""
    try:
        return _read("Event", record)
    except Exception:  # any doubt at all: pydantic decides, and words the error
        return None


def read_events(records: list[Any]) -> list[Any] | None:
    """Every record read as a light event, or None if the reader is not sure of one (pydantic reads them all then)
    or one has unknown facts (whose reasoning works on the models)."""
    events = []
    for record in records:
        event = read_event(record)
        if event is None or event.has_unknowns:
            return None
        events.append(event)
    return events
