"""vramcalc must not import Django (it is the pure core)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_without_django_succeeds() -> None:
    code = (
        "import sys; sys.modules['django'] = None\n"
        "import vramcalc, vramcalc.cli, vramcalc.capacity, vramcalc.serialize, vramcalc.hf_config\n"
        "import vramcalc.safetensors_header, vramcalc.presets\n"
        "from vramcalc.presets import get_preset\n"
        "r = vramcalc.estimate(vramcalc.EstimateInput(model=get_preset('llama-3.1-8b')))\n"
        "assert r.peak_bytes > 0\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules if sys.modules[m])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_package_sources_never_mention_django_imports() -> None:
    package = ROOT / "vramcalc"
    offenders = [
        path.name
        for path in package.rglob("*.py")
        if "tests" not in path.parts and ("import django" in path.read_text() or "from django" in path.read_text())
    ]
    assert offenders == []
