"""The catalogue database: typed SQLAlchemy models, queries, and the history of each error across snapshots."""
