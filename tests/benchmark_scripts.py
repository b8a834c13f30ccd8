"""Load a script of benchmarks/ as a module, as `python benchmarks/<name>.py` would see it (its folder first on
sys.path, so the scripts' shared `timing` module imports)."""

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark_script(name: str):
    """The module of benchmarks/<name>.py, freshly executed."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
