"""Every calculator, found in the modules of ``library/`` (each exports ``CALCULATORS``)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from curbside.tools.calculators import library
from curbside.tools.calculators.kit import Calculator

__all__ = ["calculator", "calculators"]


@cache
def calculators() -> dict[str, Calculator]:
    """Calculators by id, sorted; a duplicate id is a developer's mistake and raises."""
    found: dict[str, Calculator] = {}
    for module_info in sorted(pkgutil.iter_modules(library.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{library.__name__}.{module_info.name}")
        for calc in getattr(module, "CALCULATORS", ()):
            if calc.id in found:
                raise ValueError(f"calculator id {calc.id!r} is declared twice (in {module_info.name})")
            found[calc.id] = calc
    return dict(sorted(found.items()))


def calculator(calc_id: str) -> Calculator:
    from curbside.errors import NotFoundError

    try:
        return calculators()[calc_id]
    except KeyError:
        raise NotFoundError(
            f"No calculator {calc_id!r}. Known: {', '.join(calculators())} (curbside calc --list)."
        ) from None
