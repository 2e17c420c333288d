"""A raise's guard in plain words, built from the condition's syntax."""

import pytest

from jax_errors.site_gen.guard_words import guard_words


def _read(condition: str) -> str | None:
    words = guard_words(condition)
    return None if words is None else "".join(f"`{p.text}`" if p.code else p.text for p in words)


@pytest.mark.parametrize("condition, expected", [
    ("not x_aval.mat.varying", "`x_aval.mat.varying` is false or empty"),
    ("not is_smem_load", "`is_smem_load` is false"),
    ("mesh is not None", "`mesh` is not `None`"),
    ("not (mesh is None)", "`mesh` is not `None`"),
    ("len(shape) != 2", "the length of `shape` differs from `2`"),
    ("not len(a) < len(b)", "the length of `a` is at least the length of `b`"),
    ("not isinstance(x, int)", "`x` is not an `int`"),
    ("isinstance(x, (core.Tracer, Array))", "`x` is a `core.Tracer` or an `Array`"),
    ("not hasattr(self.type, 'shape')", "`self.type` has no attribute `shape`"),
    ("not callable(fn)", "`fn` is not callable"),
    ("'in_layouts' in kwargs", "`'in_layouts'` is in `kwargs`"),
    ("a and b is None", "both `a` is true and `b` is `None`"),
    ("not (a and b)", "`a` is false or empty, or `b` is false or empty"),
    ("a or b or c", "`a` is true, or `b` is true, or `c` is true"),
    ("x > 0 and y > 0 and z > 0",
     "all of: `x` is greater than `0`, `y` is greater than `0`, and `z` is greater than `0`"),
    # a nested `or` says "either": not "(a and b) or c"
    ("not isinstance(p, bool) and (nums or names)", "both `p` is not a `bool` and either `nums` is true or `names` is true"),
    ("not all(d >= 0 for d in shape)", "for some `d` in `shape`, `d` is less than `0`"),
    ("any(isinstance(a, int) for a in axes)", "for some `a` in `axes`, `a` is an `int`"),
])
def test_a_condition_reads_as_what_it_tests(condition, expected):
    assert _read(condition) == expected


@pytest.mark.parametrize("condition", [
    "a < b < c",  # a chain: no plain wording here
    "lambda: x",  # a function is no condition to word
    "(y := f(x))",
    "not ((",  # not Python
    "",
    None,
])
def test_a_condition_without_a_plain_wording_gets_none(condition):
    assert guard_words(condition) is None
