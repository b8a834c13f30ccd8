"""The tool's modules import each other by name (``python tools/mutation/measure.py``): put its folder first."""

import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1]
if str(TOOL) not in sys.path:
    sys.path.insert(0, str(TOOL))

# measure.py reads pyproject.toml with tomllib (Python >= 3.11); on 3.10, which the package supports, the tool's
# driver and report tests are not collected (the operators' tests still run).
collect_ignore = ["test_mutation_measure.py", "test_mutation_report.py"] if sys.version_info < (3, 11) else []
