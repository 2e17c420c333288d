"""The static site and JSON export: one card per error id (with its curated knowledge), index pages, offline search."""
