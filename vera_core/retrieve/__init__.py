"""Retrieval: intent routing, document scope, hybrid BM25 + dense search, coverage scopes."""
