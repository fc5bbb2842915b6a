"""The `vera` command line."""
