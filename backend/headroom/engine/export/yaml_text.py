"""YAML as the tools read it: keys in the order written, no aliases."""

from __future__ import annotations

from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump(document: Any) -> str:
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, default_flow_style=False)


def dump_all(documents: list[Any]) -> str:
    return yaml.dump_all(documents, Dumper=_Dumper, sort_keys=False, default_flow_style=False)


def number(x: float) -> float | int:
    """3 significant digits, a whole number written as one."""
    rounded = float(f"{x:.3g}")
    return int(rounded) if rounded.is_integer() else rounded
