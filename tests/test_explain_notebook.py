"""`%load_ext jax_errors` in a real Jupyter kernel: the notebook of docs/, executed with nbclient.

The same notebook runs twice, with the extension and without it (its `%load_ext` line made a plain
`import jax_errors`): the error outputs must be the same, the card's block the only addition.
"""

import copy
import re

import nbformat
import pytest
from conftest import REPO_ROOT
from nbclient import NotebookClient

from jax_errors.lookup.stored import stored_index

# A kernel that imports jax and runs a shard_map, twice (~15 s).
pytestmark = pytest.mark.slow

NOTEBOOK = REPO_ROOT / "docs" / "where-the-error-happens.ipynb"
SEED_ID = "252d5ba9437acc7a"  # ValueError: all_gather_reduced only accepts inputs that are varying
JIT_ID = "27cc8dc922f17076"  # TracerBoolConversionError: Attempted boolean conversion of traced array
LOAD = "%load_ext jax_errors"
RERUN_SEED = 'jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(jnp.arange(4.0))'
# Cells after the notebook's own, by what each shows.
EXTRA = {
    "not jax": '{}["missing"]',
    "no compile": "1 +",
    "break the block": "import jax_errors.explainer.block as block\n\nshown = block.mime_bundle\n"
                       "block.mime_bundle = lambda found: 1 / 0",
    "broken block": RERUN_SEED,
    "break the index": "block.mime_bundle = shown\n"
                       "os.environ['JAX_ERRORS_EXPLAIN_INDEX'] = os.path.abspath('broken.json')",
    "broken index": RERUN_SEED,
    "mend": "del os.environ['JAX_ERRORS_EXPLAIN_INDEX']",
    "mended": RERUN_SEED,
}
FIRST_EXTRA = 4  # the notebook's own cells: a markdown one, the set-up, the seed error, the jit error


@pytest.fixture(scope="module")
def runs(site_db_path, tmp_path_factory):
    """The notebook executed with the extension and without it: (with, without)."""
    folder = tmp_path_factory.mktemp("notebook")
    (folder / "broken.json").write_text("{not json")
    settings = folder / "config.toml"
    settings.write_text(f'[explain]\ndb = "{site_db_path}"\nknowledge = "{REPO_ROOT / "knowledge"}"\n'
                        f'cases = "{REPO_ROOT / "cases"}"\n')
    stored_index(str(site_db_path))  # made here, not at the kernel's first exception
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert LOAD in notebook.cells[1].source
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in EXTRA.values()]
    without = copy.deepcopy(notebook)
    without.cells[1].source = notebook.cells[1].source.replace(LOAD, "import jax_errors")
    with pytest.MonkeyPatch.context() as patch:
        for name in ("JAX_ERRORS_EXPLAIN_INDEX", "JAX_ERRORS_DB", "JAX_ERRORS_BASE_URL"):
            patch.delenv(name, raising=False)
        patch.setenv("JAX_ERRORS_CONFIG", str(settings))
        patch.setenv("JAX_ERRORS_CACHE", str(folder / "cache"))
        patch.setenv("JAX_PLATFORMS", "cpu")
        for nb in (notebook, without):
            NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                           resources={"metadata": {"path": str(folder)}}).execute()
    return notebook, without


def outputs(notebook, name: str) -> list:
    index = FIRST_EXTRA + list(EXTRA).index(name)
    return notebook.cells[index].outputs


def cards(cell_outputs) -> list[str]:
    """The error ids of the card blocks among a cell's outputs."""
    return [re.search(r'data-error-id="([0-9a-f]{16})"', o.data["text/html"])[1]
            for o in cell_outputs if o.output_type == "display_data"]


def normalized(output) -> dict:
    """An output as it would read from any kernel: the kernel's process id left out of file names."""
    return {key: re.sub(r"ipykernel_\d+", "ipykernel_N", str(value)) for key, value in output.items()}


def test_the_card_shows_under_the_seed_error_and_the_jit_tracer_error(runs):
    notebook, _ = runs
    seed, jit = notebook.cells[2].outputs, notebook.cells[3].outputs
    assert [o.output_type for o in seed] == ["error", "display_data"] and cards(seed) == [SEED_ID]
    assert seed[0].ename == "ValueError" and "all_gather_reduced only accepts inputs that are varying" in seed[0].evalue
    block = seed[1].data
    assert block["text/plain"].splitlines() == [
        f"jax-errors: all_gather_reduced needs an input that is varying  [card {SEED_ID}, score 1.00, high]",
        "  Try: Apply `lax.pcast(x, 'i', to='varying')` before `all_gather_reduced` (releases before 0.10 also had "
        "`pvary` for it).",
        f"  See: errors/{SEED_ID}.html  (or: jax-errors explain {SEED_ID})",
    ]
    summary = "<details><summary>Example fix (case <code>all_gather_reduced_not_varying</code>)</summary>"
    assert summary in block["text/html"]
    assert "jax.lax.pcast(x, &quot;x&quot;, to=&quot;varying&quot;)" in block["text/html"]
    assert [o.output_type for o in jit] == ["error", "display_data"] and cards(jit) == [JIT_ID]
    assert jit[0].ename == "TracerBoolConversionError"
    assert "Python bool() of a traced value" in jit[1].data["text/plain"]
    assert cards(outputs(notebook, "not jax")) == [] and cards(outputs(notebook, "no compile")) == []


def test_the_extension_leaves_every_error_output_as_it_was(runs):
    notebook, without = runs
    assert len(notebook.cells) == len(without.cells)
    for cell, plain in zip(notebook.cells, without.cells, strict=True):
        if cell.cell_type != "code":
            continue
        errors = [normalized(o) for o in cell.outputs if o.output_type != "display_data"]
        assert errors == [normalized(o) for o in plain.outputs], cell.source
        assert all(o.output_type != "display_data" for o in plain.outputs)
    syntax = outputs(notebook, "no compile")
    assert [(o.output_type, o.ename) for o in syntax] == [("error", "SyntaxError")]


def test_a_failure_inside_the_extension_shows_the_traceback_alone(runs):
    notebook, without = runs
    for name in ("broken block", "broken index"):
        assert [normalized(o) for o in outputs(notebook, name)] == [normalized(o) for o in outputs(without, name)]
        assert [o.output_type for o in outputs(notebook, name)] == ["error"], name
    assert cards(outputs(notebook, "mended")) == [SEED_ID]  # the hook stayed in place
    streams = [o.text for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
               if o.output_type == "stream"]
    assert not any("Custom TB Handler" in text for text in streams)
