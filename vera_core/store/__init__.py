"""Persistent stores: the SQLite catalog and the Chroma vector store."""
