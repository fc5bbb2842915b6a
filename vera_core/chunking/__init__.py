"""Chunking: blocks -> llama-index TextNodes with the flat chunk metadata contract."""
