"""`vera api`: the HTTP API (FastAPI under uvicorn) over the store, and `vera users`, `vera tokens`,
`vera collections`: who may read what."""

from __future__ import annotations

import ipaddress
import json

from vera_core.store.access import AccessStore
from vera_core.config import VeraSettings
from vera_core.errors import VeraError
from vera_core.workspace import Workspace


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run_api(args, settings: VeraSettings) -> int:
    import uvicorn

    from vera_core.api.app import create_app
    from vera_core.telemetry import configure, configure_logging
    configure_logging(settings.log_format)
    configure(settings.trace_exporter)
    ws = Workspace(settings)
    if not _loopback(args.host) and not AccessStore(ws.catalog).has_users():
        raise VeraError(f"vera api will not listen on {args.host} while the store has no users: anyone who reaches "
                        "the port could read every document. Add a user and a token (`vera users add NAME`, "
                        "`vera tokens create NAME --collection C`), or listen on 127.0.0.1.")
    app = create_app(ws, timeout_s=settings.api_timeout_s)
    print(f"VERA API on http://{args.host}:{args.port} (OpenAPI: /openapi.json, /docs)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0


def run_access(args, settings: VeraSettings) -> int:
    access = AccessStore(Workspace(settings).catalog)
    if args.command == "users":
        if args.action == "add":
            access.add_user(args.name)
            print(f"user {args.name} added")
        else:
            print("\n".join(access.users()) or "no users: the store is open to whoever reaches it on this machine")
        return 0
    if args.command == "tokens":
        if args.action == "create":
            token_id, token = access.create_token(args.user, args.collection)
            print(f"token {token_id} for {args.user}, reading {', '.join(sorted(set(args.collection)))}:\n{token}\n"
                  "It is shown this once; only its hash is stored.")
        elif args.action == "revoke":
            access.revoke(args.token_id)
            print(f"token {args.token_id} revoked")
        else:
            print(json.dumps(access.tokens(), indent=2))
        return 0
    ws = Workspace(settings)
    if args.action == "create":
        access.create_collection(args.name)
        print(f"collection {args.name} created")
    elif args.action in ("add", "remove"):
        doc_ids = [ws.catalog.resolve(ref).doc_id for ref in args.docs]
        (access.add_documents if args.action == "add" else access.remove_documents)(args.name, doc_ids)
        print(f"{len(doc_ids)} document(s) {'added to' if args.action == 'add' else 'removed from'} {args.name}")
    else:
        names = {d.doc_id: d.name for d in ws.catalog.documents()}
        for name, doc_ids in access.collections().items():
            print(f"{name}: {', '.join(names.get(d, d) for d in doc_ids) or '(empty)'}")
    return 0
