"""Data files the code reads, shipped inside the package: the metric library (`metrics.md`) and the topic
synonyms (`synonyms.md`). Each is also the documentation of what it defines: edit it here."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
"""This folder, wherever the package is installed."""
