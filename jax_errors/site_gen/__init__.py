"""The static site and JSON export: one card per error id, index pages, offline search."""
