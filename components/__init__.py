"""Streamlit pieces of the VERA app (the only UI code besides app.py and app_pages/)."""
