"""Who may read what: a workspace narrowed to the documents a caller may read (`scope.py`). The collections, users
and API tokens it reads are tables of the catalog (`store/access.py`, their SQL and migration in one module)."""
