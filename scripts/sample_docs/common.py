"""Where the samples go and what names them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = ROOT / "data" / "samples"
PDF_NAME = "Aurora_Annual_Report_2024.pdf"
GT_NAME = "ground_truth.json"
GENERATOR = "scripts/make_samples.py"


REPORTING_PERIOD_END = "2024-12-31"
"""The sample report's financial year end (its statements' columns are dated from it)."""
