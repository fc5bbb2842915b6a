"""Earnings-call transcripts: speakers, roles and turns."""
