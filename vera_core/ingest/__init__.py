"""Ingestion: validate a file, parse it into blocks, chunk, embed and store it atomically."""
