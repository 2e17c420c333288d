"""The catalogue database: typed SQLAlchemy models, Alembic migrations and queries."""
