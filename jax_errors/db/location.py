"""Where the catalogue is when no `--db` names one: a light module, so the CLI starts without SQLAlchemy."""

DEFAULT_DB = "jax_errors.db"
