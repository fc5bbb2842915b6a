"""VERA's benches and UI drivers, apart from the product (`vera_core`): the Streamlit app run as a subprocess and
Chromium launched for Playwright (`app_server`), the Ask page driven like a user (`ui_driver`), a Streamlit session
spoken to over its websocket (`stream_session`), and `vera bench ui` (`bench_ui`). The product imports none of it;
`vera bench ui` and the query bench's first-load figure reach it when run from a checkout."""
