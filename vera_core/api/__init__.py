"""VERA's HTTP API (`vera api`): questions, documents, pages and jobs over HTTP, each request checked
against the collections its token may read."""
