"""Figures from documents: the cells a figure or metric question reads, the gates a cell passes before
it is stated, the arithmetic over them, and the cited pieces of the answer. Below the strategies."""
