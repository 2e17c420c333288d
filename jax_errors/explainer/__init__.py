"""The card where the error happens: `explain()`, the excepthook, the IPython extension, `jax-errors explain`."""
