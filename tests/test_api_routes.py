"""The API's shape (issue 27): routes live in routers by what they serve, over the shared dependencies of
`api/deps.py`; every route takes the caller (so none can answer without the token check of its dependency)."""

from __future__ import annotations

from fastapi.routing import APIRoute

from tests.conftest import settings_for
from vera_core.api import deps, document_routes, job_routes, query_routes
from vera_core.api.app import create_app
from vera_core.workspace import Workspace


def test_every_route_is_a_routers_and_takes_the_caller(tmp_path):
    app = create_app(Workspace(settings_for(tmp_path)))
    routes = [r for m in (query_routes, document_routes, job_routes) for r in m.router.routes if isinstance(r, APIRoute)]
    served = {(path, method.upper()) for path, ops in app.openapi()["paths"].items() for method in ops}
    assert served == {(r.path, m) for r in routes for m in r.methods}, "the app serves its routers' routes, no other"
    assert {(r.path, m) for r in routes for m in r.methods} == {
        ("/query", "POST"), ("/export", "POST"), ("/documents", "GET"), ("/documents", "POST"),
        ("/documents/{doc_id}", "GET"), ("/documents/{doc_id}", "DELETE"), ("/documents/{doc_id}/pages/{page}.png", "GET"),
        ("/jobs/{job_id}", "GET")}
    for route in routes:
        assert route.endpoint.__module__ in ("vera_core.api.query_routes", "vera_core.api.document_routes",
                                             "vera_core.api.job_routes"), route.path
        calls = {d.call for d in route.dependant.dependencies}
        assert deps._principal in calls and deps._state in calls, route.path
