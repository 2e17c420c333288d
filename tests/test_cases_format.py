"""The case format: every case in the repo parses, and malformed cases are one clear CaseError."""

import textwrap
from pathlib import Path

import pytest

from jax_errors.exceptions import CaseError
from jax_errors.reproduce.cases import load_case, load_cases

CASES = Path(__file__).parent.parent / "cases"

GOOD = '''\
"""Reshaped to the wrong size.

More words.
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
TAGS = ["shapes"]
MESSAGE_CONTAINS = "cannot reshape"
ERROR_ID = "0123456789abcdef"


def trigger():
    # six elements do not fill four slots
    x = jnp.arange(6)
    return x.reshape(4)


def fixed():
    return jnp.arange(6).reshape(2, 3)
'''


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    return path


def test_every_case_in_the_repo_loads():
    cases = load_cases(CASES)
    assert len(cases) >= 40
    assert len({case.name for case in cases}) == len(cases)
    for case in cases:
        assert case.summary and "\n" not in case.summary
        assert case.tags and case.message_contains
        assert case.trigger_source and case.fixed_source
        assert not case.trigger_source[0].isspace() and not case.fixed_source[0].isspace()


def test_seed_case_fields():
    [case] = load_cases(CASES, ["all_gather_reduced_not_varying"])
    assert case.expected == "ValueError"
    assert case.tags == ("shard_map", "collectives", "vma")
    assert case.message_contains == "all_gather_reduced only accepts inputs that are varying. Got"
    assert case.error_id == "252d5ba9437acc7a"
    assert case.summary.startswith("all_gather(..., to='reduced') inside shard_map")
    assert case.trigger_source.splitlines()[:4] == [
        "import jax", "import jax.numpy as jnp", "from jax.sharding import PartitionSpec as P", ""]
    assert 'mesh = jax.make_mesh((8,), ("x",))' in case.trigger_source.splitlines()
    assert case.trigger_source.splitlines()[-1].startswith("jax.shard_map(body")  # the return, as an expression
    assert "pcast" in case.fixed_source and "pcast" not in case.trigger_source


def test_a_good_case(tmp_path):
    case = load_case(write(tmp_path, "reshape", GOOD))
    assert case.name == "reshape"
    assert case.summary == "Reshaped to the wrong size."
    assert case.description == "Reshaped to the wrong size.\n\nMore words."
    assert case.error_id == "0123456789abcdef"
    assert case.trigger_source == (
        "import jax.numpy as jnp\n\n# six elements do not fill four slots\nx = jnp.arange(6)\nx.reshape(4)"
    )
    assert case.fixed_source == "import jax.numpy as jnp\n\njnp.arange(6).reshape(2, 3)"


SNIPPETS = '''"""Snippets keep decorators, helpers and the imports they use."""
import functools
import jax
import jax.numpy as jnp
from jax import lax, random

EXPECTED = "TypeError"
TAGS = ["jit"]
MESSAGE_CONTAINS = "x"
SCALE = 2.0


def helper(x):
    return SCALE * x


def trigger():
    @jax.jit
    def f(x):
        return lax.cond(x > 0, helper, helper, x)

    return f(jnp.ones(()))


def fixed():
    for _ in range(2):
        if jnp.ones(()) > 0:
            return 1
    return 0
'''


def test_a_snippet_keeps_decorators_helpers_and_the_imports_it_uses(tmp_path):
    """The nested function keeps its `@jax.jit`; `helper` and its constant come along; unused imports do not."""
    case = load_case(write(tmp_path, "snippets", SNIPPETS))
    assert case.trigger_source == (
        "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\nSCALE = 2.0\n\ndef helper(x):\n"
        "    return SCALE * x\n\n@jax.jit\ndef f(x):\n    return lax.cond(x > 0, helper, helper, x)\n\n"
        "f(jnp.ones(()))"
    )
    # A return inside a loop cannot be top-level code: the function stays, and is called.
    assert case.fixed_source.startswith("import jax.numpy as jnp\n\ndef fixed():\n    for _ in range(2):")
    assert case.fixed_source.endswith("    return 0\n\n\nfixed()")


def test_names_select_cases_in_order(tmp_path):
    write(tmp_path, "a", GOOD)
    write(tmp_path, "b", GOOD)
    write(tmp_path, "_helper", "x = 1\n")
    assert [c.name for c in load_cases(tmp_path)] == ["a", "b"]
    assert [c.name for c in load_cases(tmp_path, ["b", "a.py"])] == ["b", "a"]
    with pytest.raises(CaseError, match="cannot read it"):
        load_cases(tmp_path, ["missing"])


@pytest.mark.parametrize(("change", "reason"), [
    (lambda s: s.replace('"""Reshaped to the wrong size.\n\nMore words.\n"""\n', ""), "no module docstring"),
    (lambda s: s.replace('EXPECTED = "TypeError"\n', ""), "no EXPECTED"),
    (lambda s: s.replace('EXPECTED = "TypeError"', 'EXPECTED = TypeError.__name__'), "EXPECTED must be a literal"),
    (lambda s: s.replace('EXPECTED = "TypeError"', "EXPECTED = 3"), "EXPECTED must be a non-empty string"),
    (lambda s: s.replace('TAGS = ["shapes"]', 'TAGS = "shapes"'), "TAGS must be a list of strings"),
    (lambda s: s.replace('ERROR_ID = "0123456789abcdef"', "ERROR_ID = None"), "ERROR_ID must be a non-empty"),
    (lambda s: s.replace('ERROR_ID = "0123456789abcdef"', 'ERROR_ID = "0123456789abcdef"\nFORMER_ERROR_IDS = "ab"'),
     "FORMER_ERROR_IDS must be a list of error ids"),
    (lambda s: s.replace('ERROR_ID = "0123456789abcdef"', 'FORMER_ERROR_IDS = ["ab"]'), "FORMER_ERROR_IDS needs an ERROR_ID"),
    (lambda s: s.replace("def fixed():", "def repaired():"), r"no function fixed\(\)"),
    (lambda s: s.replace("def trigger():", "def trigger(x):"), r"trigger\(\) must take no arguments"),
    (lambda s: s + "\nprint(trigger())\n", "only imports and definitions may run at module level"),
    (lambda s: s + "\nif True:\n    pass\n", "only imports and definitions"),
    (lambda s: s + "\ndef broken(:\n", "line 2[0-9]: "),
])
def test_malformed_cases_are_case_errors(tmp_path, change, reason):
    path = write(tmp_path, "bad", change(GOOD))
    with pytest.raises(CaseError, match=reason) as info:
        load_case(path)
    assert info.value.path == str(path)
    assert str(info.value).startswith(f"bad case {path}: ")


def test_a_bad_case_file_is_skipped_and_named_not_fatal_to_the_others(tmp_path):
    write(tmp_path, "good", GOOD)
    (tmp_path / "latin1.py").write_bytes(GOOD.replace('"""Reshape', '"""R\xe9shape').encode("latin-1"))
    write(tmp_path, "broken", GOOD.replace("def fixed", "def fixed(x"))
    skipped: list[CaseError] = []
    cases = load_cases(tmp_path, skipped=skipped)
    assert [case.name for case in cases] == ["good"]
    assert sorted(Path(error.path).name for error in skipped) == ["broken.py", "latin1.py"]
    assert any("is not UTF-8" in str(error) for error in skipped)
    with pytest.raises(CaseError, match="broken.py: line 19: invalid syntax"):
        load_cases(tmp_path)  # without `skipped`, the first bad file (by name) is the error
