"""Lookup: from a message (or a traceback) a user pasted to the card that explains it, here and in the browser."""
