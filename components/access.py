"""Who is using the app, and the store as they may see it.

With no user defined the app is one analyst's (`make run` asks for nothing). Once a user exists,
every session identifies itself before any page draws: behind the team proxy by a header the proxy sets
after its own sign-in (`VERA_TRUSTED_USER_HEADER`, for example X-Forwarded-User: the proxy must strip
it from what browsers send), else with an API token typed once per session. Every page then reads the
store narrowed to the documents of the user's collections (`vera_core.access.scope`)."""

from __future__ import annotations

import streamlit as st

from components.workspace import shared_workspace
from vera_core.access.scope import scoped
from vera_core.store.access import OPEN, AccessError, AccessStore, Principal
from vera_core.workspace import Workspace

TOKEN = "vera_token"


def signed_in() -> Principal | None:
    """The session's user (OPEN on a store without users); None after drawing the sign-in form."""
    ws = shared_workspace()
    access = AccessStore(ws.catalog)
    if not access.has_users():
        return OPEN
    header = ws.settings.trusted_user_header
    user = st.context.headers.get(header) if header else None
    if user:
        try:
            return access.principal_of_user(user)
        except AccessError as exc:
            st.error(f"{exc} Ask an administrator to add you (`vera users add`).")
            return None
    token = st.session_state.get(TOKEN)
    if token:
        try:
            return access.authenticate(token)  # NOTE: every run, so a revoked token stops at once
        except AccessError as exc:
            st.session_state.pop(TOKEN, None)
            st.error(str(exc))
    with st.form("sign_in"):
        st.subheader("Sign in to VERA")
        typed = st.text_input("API token", type="password", help="`vera tokens create USER --collection C` makes one.")
        if st.form_submit_button("Sign in") and typed:
            try:
                who = access.authenticate(typed.strip())
            except AccessError as exc:
                st.error(str(exc))
                return None
            st.session_state[TOKEN] = typed.strip()
            st.rerun()
    return None


def readable() -> frozenset[str] | None:
    """The document ids this session may read (None: every one)."""
    who = signed_in_quietly()
    return AccessStore(shared_workspace().catalog).readable(who)


def signed_in_quietly() -> Principal:
    """The session's user without drawing anything (the app stops before a page runs unsigned)."""
    ws = shared_workspace()
    access = AccessStore(ws.catalog)
    if not access.has_users():
        return OPEN
    header = ws.settings.trusted_user_header
    user = st.context.headers.get(header) if header else None
    try:
        return access.principal_of_user(user) if user else access.authenticate(st.session_state.get(TOKEN))
    except AccessError:
        return Principal("", frozenset())  # reads nothing


def session_workspace() -> Workspace:
    """The store as this session may read it."""
    return scoped(shared_workspace(), readable())


def upload_collection() -> str | None:
    """The collection this session's uploads join (its user's first collection; None on an open store)."""
    who = signed_in_quietly()
    return None if who.everything or not who.collections else sorted(who.collections)[0]
