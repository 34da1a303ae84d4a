"""Rule-variant flags: a frozen, keyword-only dataclass per game, validated in one place."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

R = TypeVar("R", bound="RulesBase")


def flag(default: Any, *, choices: Iterable[Any] | None = None, minimum: int | None = None,
         maximum: int | None = None, ledger: str = "", doc: str = "") -> Any:
    """Declare one variant flag: its default, allowed values (choices, or an int range), ledger entry and meaning."""
    if (minimum is not None or maximum is not None) and (choices is not None or type(default) is not int):
        raise TypeError("minimum/maximum apply to int flags without choices")
    meta = {"choices": tuple(choices) if choices is not None else None, "minimum": minimum, "maximum": maximum,
            "ledger": ledger, "doc": doc}
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class FlagSpec:
    """What one flag is: name, type, default, allowed values, ledger reference and meaning."""

    name: str
    kind: type
    default: Any
    choices: tuple[Any, ...] | None
    ledger: str
    doc: str
    minimum: int | None = None
    """The smallest allowed value of an int flag (None: no lower limit)."""
    maximum: int | None = None
    """The largest allowed value of an int flag (None: no upper limit)."""

    def describe_values(self) -> str:
        """The allowed values, as a person would type them: ``4, 6``, ``true, false``, ``1-4``, ``0 or more``.

        >>> FlagSpec("deck_size", int, 25, None, "", "", minimum=4, maximum=60).describe_values()
        '4-60'
        >>> FlagSpec("energy", int, 0, None, "", "", minimum=0).describe_values()
        '0 or more'
        """
        if self.choices is not None:
            return ", ".join(_show(c) for c in self.choices)
        if self.kind is bool:
            return "true, false"
        if self.kind is int:
            if self.minimum is not None and self.maximum is not None:
                return f"{self.minimum}-{self.maximum}"
            if self.minimum is not None:
                return f"{self.minimum} or more"
            if self.maximum is not None:
                return f"{self.maximum} or less"
            return "any whole number"
        return "any text"

    def allows(self, value: Any) -> bool:
        """True if ``value`` is of the flag's type and among its choices or in its range."""
        if not isinstance(value, self.kind) or (self.kind is not bool and isinstance(value, bool)):
            return False
        if self.choices is not None:
            return value in self.choices
        number: Any = value
        if self.minimum is not None and number < self.minimum:
            return False
        return self.maximum is None or number <= self.maximum


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True, kw_only=True)
class RulesBase:
    """Base of every game's rules: subclasses add their flags with ``flag(...)``."""

    GAME: ClassVar[str] = ""
    RULES_VERSION: ClassVar[int] = 1

    @property
    def rules_version(self) -> int:
        """The version of the rules implementation; records carry it."""
        return self.RULES_VERSION

    @classmethod
    def flag_specs(cls) -> list[FlagSpec]:
        """Every flag of this game, in declaration order."""
        specs = []
        for f in dataclasses.fields(cls):
            meta = f.metadata
            kind = type(f.default)
            specs.append(FlagSpec(f.name, kind, f.default, meta.get("choices"), meta.get("ledger", ""), meta.get("doc", ""),
                                  meta.get("minimum"), meta.get("maximum")))
        return specs

    @classmethod
    def from_flags(cls: type[R], **flags: Any) -> R:
        """Build rules from keyword flags, raising ValueError that names the valid choices."""
        specs = {s.name: s for s in cls.flag_specs()}
        for name, value in flags.items():
            spec = specs.get(name)
            if spec is None:
                raise ValueError(
                    f"unknown rule flag {name!r} for {cls.GAME or cls.__name__}; valid flags: {', '.join(specs)}"
                )
            _check_value(spec, value)
        return cls(**flags)

    @classmethod
    def from_strings(cls: type[R], assignments: Iterable[str]) -> R:
        """Build rules from ``flag=value`` strings (command-line form)."""
        return cls.from_flags(**parse_assignments(cls, assignments))

    def flags(self) -> dict[str, Any]:
        """Every flag and its value (JSON-safe), in declaration order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed_flags(self) -> dict[str, Any]:
        """Only the flags whose value differs from the default."""
        return {s.name: getattr(self, s.name) for s in self.flag_specs() if getattr(self, s.name) != s.default}


def _check_value(spec: FlagSpec, value: Any) -> None:
    if not spec.allows(value):
        raise ValueError(f"rule flag {spec.name!r} must be one of: {_values_phrase(spec)}; got {value!r}")


def _values_phrase(spec: FlagSpec) -> str:
    """The allowed values for an error message (``the whole numbers 4-60``)."""
    if spec.kind is int and spec.choices is None and (spec.minimum is not None or spec.maximum is not None):
        return f"the whole numbers {spec.describe_values()}"
    return spec.describe_values()


def parse_value(spec: FlagSpec, text: str) -> Any:
    """Convert the command-line text of a flag value to its type, or raise ValueError."""
    value: Any
    if spec.kind is bool:
        low = text.strip().lower()
        if low in ("true", "yes", "on", "1"):
            value = True
        elif low in ("false", "no", "off", "0"):
            value = False
        else:
            raise ValueError(f"rule flag {spec.name!r} must be one of: true, false; got {text!r}")
    elif spec.kind is int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"rule flag {spec.name!r} must be one of: {_values_phrase(spec)}; got {text!r}") from None
    else:
        value = text
    _check_value(spec, value)
    return value


def parse_assignments(cls: type[RulesBase], assignments: Iterable[str]) -> dict[str, Any]:
    """Parse ``flag=value`` strings into a typed flag mapping for ``cls``."""
    specs = {s.name: s for s in cls.flag_specs()}
    out: dict[str, Any] = {}
    for item in assignments:
        name, sep, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep:
            raise ValueError(f"rule flag {item!r} must be written flag=value")
        spec = specs.get(name)
        if spec is None:
            raise ValueError(f"unknown rule flag {name!r} for {cls.GAME or cls.__name__}; valid flags: {', '.join(specs)}")
        out[name] = parse_value(spec, text)
    return out


def rules_from_mapping(cls: type[R], data: Mapping[str, Any]) -> R:
    """Build rules from a JSON mapping (records, positions)."""
    return cls.from_flags(**dict(data))


def parse_setup(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` setup options (ints, true/false and strings) as a mapping."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"setup option {item!r} must be written key=value")
        value: Any = text.strip()
        low = value.lower()
        if low in ("true", "false"):
            value = low == "true"
        elif re.fullmatch(r"[+-]?\d+", value):
            value = int(value)
        out[key.strip().replace("-", "_")] = value
    return out
