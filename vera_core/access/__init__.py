"""Who may read what: collections of documents, users and their API tokens (`store.py`), and a
workspace narrowed to the documents a caller may read (`scope.py`)."""
