"""Answering: the answer contract, deterministic synthesis, grounding and numeric verification."""
