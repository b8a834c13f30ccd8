"""The tool's modules import each other by name (``python tools/mutation/measure.py``): put its folder first."""

import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1]
if str(TOOL) not in sys.path:
    sys.path.insert(0, str(TOOL))
