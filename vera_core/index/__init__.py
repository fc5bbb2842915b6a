"""Indexes over chunks: the offline embedding model and BM25."""
