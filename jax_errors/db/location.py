"""Where the catalogue is when no `--db` names one: a light module, so the CLI starts without SQLAlchemy."""

DEFAULT_DB = "jax_errors.db"


def is_url(value: str) -> bool:
    """Whether `value` is a URL (`postgresql+psycopg://...`, `https://...`), not a file path."""
    return "://" in value
