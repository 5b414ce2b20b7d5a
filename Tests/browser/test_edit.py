"""Editing records in the web app (see below)."""
