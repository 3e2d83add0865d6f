"""`python manage.py estimate …`: `python -m vramcalc` plus the catalog table (lots and prices).

Takes exactly the flags of `python -m vramcalc` (same parser), so the same flags give the same numbers.
"""

from __future__ import annotations

import io
import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gpurent.core.errors import ApplicationError
from vramcalc import InvalidInput
from vramcalc.cli import build_parser, inputs_from_args, render
from vramcalc.units import format_bytes

from ...calculation import Sizing, size_workload


class Command(BaseCommand):
    help = "Estimate GPU memory per card (the flags of `python -m vramcalc`) and fit it against the catalog."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # The engine's own parser is the parent, so the flags (and their meaning) cannot drift apart.
        engine: ArgumentParser = build_parser()
        return super().create_parser(prog_name, subcommand, parents=[engine], conflict_handler="resolve", **kwargs)

    def handle(self, *args: Any, **options: Any) -> None:
        engine_args = build_parser().parse_args([])
        for name in vars(engine_args):
            setattr(engine_args, name, options.get(name))
        if engine_args.list_presets:
            raise CommandError("use `python -m vramcalc --list-presets`")
        try:
            inp = inputs_from_args(engine_args)
            sizing = size_workload(inp)
        except (InvalidInput, OSError, json.JSONDecodeError) as error:
            raise CommandError(str(error)) from error
        except ApplicationError as error:
            raise CommandError(error.message) from error
        if options["json"]:
            payload = {
                "inputs": sizing.inputs_dict(),
                "estimate": sizing.result.to_dict(),
                "usable_pct": sizing.usable_pct,
                "catalog_fit": sizing.fit_api(),
            }
            self.stdout.write(json.dumps(payload, indent=2))  # ends with the newline OutputWrapper adds
            return
        text = io.StringIO()
        render(sizing.result, inp, text)  # the engine's own breakdown, byte for byte
        self.stdout.write(text.getvalue() + self._table(sizing), ending="")

    @staticmethod
    def _table(sizing: Sizing) -> str:
        lines = [
            "",
            f"Catalog fit (a card fits when the high end of the peak is within {sizing.usable_pct}% of its memory, "
            "tight when only the expected peak is; per card, never pooled):",
            f"{'GPU':<20} {'lots':>5} {'cards':>5} {'peak/card':>12} {'headroom':>12} "
            f"{'3 days':>11} {'7 days':>11} {'30 days':>11}",
        ]
        for row in sizing.fit:
            if row.prices is None:
                cells = f"{'-':>5} {'-':>5} {format_bytes(row.peak_bytes):>12} {format_bytes(row.headroom_bytes):>12}"
                lines.append(f"{row.gpu.name:<20} {cells}  does not fit within 10 lots")
                continue
            prices = " ".join(f"{row.prices[term].display():>11}" for term in sorted(row.prices))
            lines.append(
                f"{row.gpu.name:<20} {row.lots:>5} {row.cards:>5} {format_bytes(row.peak_bytes):>12} "
                f"{format_bytes(row.headroom_bytes):>12} {prices}  {row.status}"
            )
        return "\n".join(lines) + "\n"
