"""What a document is, read from the document itself (its kind: filing, policy, contract or other)."""
