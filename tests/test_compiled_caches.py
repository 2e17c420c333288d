"""What a build compiles (schema validators, page templates) is kept compiled in the cache folder."""

import fastjsonschema
import pytest

from jax_errors.site_gen import records, render


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_validator_is_compiled_once_then_read_back_and_checks_as_fastjsonschema_does(cache, monkeypatch):
    entry, code = records._validator_code("index.schema.json")
    [kept] = (cache / "validators").iterdir()
    monkeypatch.setattr(fastjsonschema, "compile_to_code", lambda *a, **k: pytest.fail("compiled again"))
    assert records._validator_code("index.schema.json") == (entry, code)
    namespace = {}
    exec(code, namespace)
    check = namespace[entry]
    with pytest.raises(fastjsonschema.JsonSchemaException, match="must contain"):
        check({"schema_version": records.SCHEMA_VERSION})
    kept.write_bytes(kept.read_bytes()[:100])  # cut short: compiled again
    monkeypatch.undo()
    monkeypatch.setenv("JAX_ERRORS_CACHE", str(cache))
    assert records._validator_code("index.schema.json")[0] == entry
    assert len(kept.read_bytes()) > 100


def test_templates_are_kept_compiled_and_render_the_same(cache):
    bytecode = render._compiled_templates()
    assert bytecode is not None
    made = [render.environment.__wrapped__() for _ in range(2)]  # as a build's, not the one this process keeps
    first = made[0].get_template("_macros.html")
    kept = list((cache / "templates").rglob("*.cache"))
    assert len(kept) == 1
    made[1].compile = lambda *args, **kwargs: pytest.fail("compiled again")
    second = made[1].get_template("_macros.html")  # loaded from the kept bytecode
    assert first.module.__dict__.keys() == second.module.__dict__.keys()
    assert first.render() == second.render()


def test_an_unwritable_cache_folder_means_templates_compiled_in_memory(cache):
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("a file where the folder should be")
    assert render._compiled_templates() is None
