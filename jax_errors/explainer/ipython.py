"""`%load_ext jax_errors`: the card under a JAX traceback in IPython and Jupyter.

It goes through IPython's own custom-exception hook (`InteractiveShell.set_custom_exc`): IPython
hands it the exceptions a cell raised. It first shows the traceback the way IPython does without
it (`showtraceback`, or the display of a cell that does not compile), so the error output and its
`ename`, `evalue` and `traceback` are the same; then, for an exception JAX raised and a card of
medium or high confidence, one `display` with a text/html block (the example fix collapsed) and a
text/plain fallback; before it, for a module or name of jax said to be missing, one of what the
releases say of it (`hook.releases_for_traceback`). Whatever fails in jax-errors shows nothing more,
and the hook stays in place.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

# What `load_ipython_extension` found in place, kept on the shell: (exception classes, their handler).
_PREVIOUS = "_jax_errors_previous_custom_exc"
# Exceptions a cell may raise while IPython compiles it, each shown as IPython shows it then.
_COMPILE_ERRORS = (OverflowError, SyntaxError, ValueError, TypeError, MemoryError)


def load_ipython_extension(shell: Any) -> None:
    """Show the card under JAX tracebacks in this shell (`%load_ext jax_errors`); loading twice changes nothing."""
    if hasattr(shell, _PREVIOUS):
        return
    setattr(shell, _PREVIOUS, (shell.custom_exceptions, shell.CustomTB))
    shell.set_custom_exc((Exception,), _show_with_card)


def unload_ipython_extension(shell: Any) -> None:
    """Put back the custom-exception handling that was in place before (`%unload_ext jax_errors`)."""
    previous = getattr(shell, _PREVIOUS, None)
    if previous is None:
        return
    shell.custom_exceptions, shell.CustomTB = previous
    delattr(shell, _PREVIOUS)


def _show_with_card(shell: Any, kind: type[BaseException], error: BaseException, tb: TracebackType | None,
                    tb_offset: int | None = None) -> None:
    """IPython's handler: the traceback as IPython shows it, then the card's block, if any."""
    _show_traceback(shell, kind, error, tb, tb_offset)
    try:
        from jax_errors.explainer.hook import card_for_traceback, releases_for_traceback

        said, found = releases_for_traceback(error), card_for_traceback(error)
        if said or found is not None:
            from IPython.display import display

            from jax_errors.explainer.block import mime_bundle, releases_bundle

            if said:
                display(releases_bundle(said), raw=True)
            if found is not None:
                display(mime_bundle(found), raw=True)
    except Exception:  # the traceback is out: jax-errors adds nothing rather than fail
        pass


def _show_traceback(shell: Any, kind: type[BaseException], error: BaseException, tb: TracebackType | None,
                    tb_offset: int | None) -> None:
    """What IPython shows for this exception without the extension (`run_code`, or `run_cell` compiling)."""
    previous_kinds, previous_handler = getattr(shell, _PREVIOUS, ((), None))
    if previous_kinds and issubclass(kind, previous_kinds):
        previous_handler(kind, error, tb, tb_offset)
    elif _raised_compiling(tb) and issubclass(kind, IndentationError):
        shell.showindentationerror()
    elif _raised_compiling(tb) and issubclass(kind, _COMPILE_ERRORS):
        shell.showsyntaxerror()
    else:
        shell.showtraceback((kind, error, tb), tb_offset=tb_offset, running_compiled_code=True)


def _raised_compiling(tb: TracebackType | None) -> bool:
    """Whether the cell failed to compile: IPython calls the handler from `run_code` for what the cell's code raised."""
    return tb is not None and tb.tb_frame.f_code.co_name != "run_code"
