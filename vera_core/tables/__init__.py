"""Structured tables: every table chunk's cell grid, with labels, periods, scale and boxes."""

from vera_core.tables.document import document_grids

__all__ = ["document_grids"]
