"""The installed jax package, crawled as the embedded default."""

import jax
from sqlalchemy.orm import Session
from versions import seed_line

from jax_errors.crawler.installed import installed_jax_dir, installed_snapshot, read_version
from jax_errors.db.queries import find_snapshot, site_at, sites_of_error
from jax_errors.template import Part

# Where the seed card's raise stands, per jax version this project may install.
SEED_TEMPLATE = "all_gather_reduced only accepts inputs that are varying. Got {x_aval.str_short(True)}"


def test_installed_package_is_pinned_to_its_commit():
    version, git_hash = read_version(installed_jax_dir())
    assert version == jax.__version__
    snapshot = installed_snapshot()
    assert snapshot.tag == f"jax-v{version}"
    assert snapshot.commit == git_hash and len(git_hash) == 40
    assert all(f.path.startswith("jax/") and f.path.endswith(".py") for f in snapshot.files)


def test_seed_site_of_the_installed_version(crawled_db):
    line = seed_line()
    with Session(crawled_db) as session:
        snapshot = find_snapshot(session, f"jax-v{jax.__version__}")
        located = site_at(session, snapshot, "jax/_src/lax/parallel.py", line)
        assert located.site.lineno == line
        assert located.site.template == SEED_TEMPLATE
        assert located.site.exc_class == "ValueError"
        assert located.site.qualname == "_all_gather_reduced_effectful_abstract_eval"
        assert located.site.guard == "not x_aval.mat.varying"
        assert located.site.template_complete
        [again] = sites_of_error(session, located.error_id)
        assert again.site.lineno == line


def test_most_templates_are_fully_rebuilt(crawled_db):
    from jax_errors.db.queries import snapshot_stats

    [stats] = snapshot_stats(crawled_db)
    assert stats.sites > 5000
    assert stats.parse_failures == 0
    assert stats.complete_share > 0.9


# Messages built away from their raise, as the installed version words them (see crawler.messages).
BUILT_AWAY = {"0.10.2": {
    ("jax/_src/api.py", "_mapped_axis_size"): (
        "{name} got inconsistent sizes for array axes to be mapped:\n"
        "  * the `axis_size` argument was {axis_size};\n"
        "  * one axis had size {sz}: axis {ax} of {ex};\n"
        "  * most axes ({ct} of them) had size {sz}, e.g. axis {ax} of {ex};\n"
        "  * one axis had size {sz}: axis {ax} of {ex};\n"
        "  * some axes ({ct} of them) had size {sz}, e.g. axis {ax} of {ex};\n"),
    ("jax/_src/stages.py", "Traced.lower"): "Received incompatible devices for jitted computation.{extra_msg}",
    ("jax/_src/core.py", "check_eval_args"): (
        "Encountered an unexpected tracer. A function transformed by JAX had a side effect, allowing for a "
        "reference to an intermediate value with type {arg.aval.str_short()} wrapped in a {type(arg).__name__} "
        "to escape the scope of the transformation.\nJAX transformations require that functions explicitly "
        "return their outputs, and disallow saving intermediate values to global state.\nThe function being "
        "traced when the value leaked was {dbg.func_src_info} traced for {dbg.traced_for}.\n"
        "------------------------------\nThe leaked intermediate value was created on line "
        "{source_info_util.summarize(line_info)}. \n------------------------------\nWhen the value was created, "
        "the final {num_frames} stack frames (most recent last) excluding JAX-internal frames were:\n"
        "------------------------------\n{source_info_util.summarize(line_info, num_frames=num_frames)}\n"
        "------------------------------\n\nTo catch the leak earlier, try setting the environment variable "
        "JAX_CHECK_TRACER_LEAKS or using the `jax.checking_leaks` context manager.Detail: {detail}"),
}}


BUILT_AWAY["0.12.0.1"] = BUILT_AWAY["0.10.2"]  # worded alike in both releases
# 0.12.1 starts the leak's "Detail:" on a line of its own.
BUILT_AWAY["0.12.1"] = {**BUILT_AWAY["0.10.2"], ("jax/_src/core.py", "check_eval_args"): BUILT_AWAY["0.10.2"][
    ("jax/_src/core.py", "check_eval_args")].replace("manager.Detail", "manager.\nDetail")}


def test_messages_built_away_from_the_raise_read_as_users_see_them(crawled_db):
    from sqlalchemy import select

    from jax_errors.db.models import Occurrence, RaiseSite

    expected = BUILT_AWAY[jax.__version__]
    with Session(crawled_db) as session:
        found = {(path, qualname): template for path, qualname, template in session.execute(
            select(Occurrence.path, RaiseSite.qualname, RaiseSite.template)
            .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
            .where(RaiseSite.kind == "raise", RaiseSite.exc_class.in_(
                ["ValueError", "jax._src.errors.UnexpectedTracerError"]))
            .order_by(Occurrence.path, RaiseSite.lineno)  # of one function's raises, the last
        ) if (path, qualname) in expected}
    assert found == expected


def test_cards_say_in_words_what_the_class_words(crawled_db):
    """`raise TracerBoolConversionError(arg)`: the card shows the words the class's __init__ builds."""
    from jax_errors.site_gen.catalogue import load_catalogue

    cards = load_catalogue(crawled_db).cards.values()
    [bool_card] = [c for c in cards if c.site.qualname == "concretization_function_error.<locals>.error"
                   and c.class_name == "TracerBoolConversionError"]
    assert bool_card.site.template == "{arg}"
    # _JAXErrorMixin, which the class's base mixes in, appends a line naming the class's documentation.
    assert bool_card.template.text == (
        "Attempted boolean conversion of {tracer._error_repr()}.{tracer._origin_msg()}"
        "\nSee https://docs.jax.dev/en/latest/101/errors.html#jax.errors.TracerBoolConversionError")
    assert bool_card.title == "Attempted boolean conversion of …"
    # A raise that spells its own words keeps them, and the mixin's line follows them; so does one raising what
    # `core.escaped_tracer_error` makes, from `core.py` or from another module (`mlir.py`).
    leaks = [c for c in cards if c.class_name == "UnexpectedTracerError"]
    assert all(c.template.text.endswith(
        "\nSee https://docs.jax.dev/en/latest/101/errors.html#jax.errors.UnexpectedTracerError") for c in leaks)
    worded = [c for c in leaks if c.site.template.startswith("Encountered")]
    assert worded and all(c.template.text.startswith(c.site.template) for c in worded)
    assert all(c.worded_by == ("jax._src.errors.UnexpectedTracerError",) for c in worded)
    assert {"jax/_src/core.py", "jax/_src/interpreters/mlir.py"} <= {c.location.path for c in leaks}
    assert all("<locals>" not in c.title and c.title.strip("… ") for c in cards)
    # jit's path: pjit.py calls stages._device_assignment_mismatch_error, a helper of another module.
    [devices] = [c for c in cards if c.location.path == "jax/_src/pjit.py" and c.site.template.startswith("{stages.")]
    assert devices.template.text == "Received incompatible devices for {api_name}ted computation.{extra_msg}"
    assert devices.worded_by == ("jax._src.stages._device_assignment_mismatch_error",)
    assert bool_card.worded_by == ("jax._src.errors.TracerBoolConversionError",)
    # What a raise passes to a class that words its message around it tells its card from the others: in the
    # statement, or assigned in its function to a name it passes (`lookup.said`), what `+=` adds optional.
    [deleted] = [c for c in cards if c.site.qualname == "Tracer.delete"]
    [function] = [c for c in cards if c.site.qualname == "concretization_function_error.<locals>.error"
                  and c.class_name == "ConcretizationTypeError"]
    assert [t.text for t in deleted.passed] == ["The delete() method was called on {self._error_repr()}."
                                                "{self._origin_msg()}"] and bool_card.passed == ()
    [context] = function.passed
    assert context.parts[:3] == (Part("lit", "The problem arose with the `"), Part("expr", "fname"),
                                 Part("lit", "` function. "))
    assert context.parts[3].kind == "opt_begin" and context.text.endswith("or `jnp.array(x, {fun.__name__})` instead.")
