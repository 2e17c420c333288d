"""Passages of JAX's docs on cards: read from `docs/` and `jax/_src/errors.py`, stored per snapshot, matched to cards."""

import json
import textwrap

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.docs import (
    DocPassage,
    docstring_passages,
    markdown_blocks,
    notebook_passages,
    plain_heading,
    read_passages,
    rst_blocks,
    section_anchor,
)
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.sources import SourceFile
from jax_errors.db.engine import open_database
from jax_errors.db.models import DocPassage as DocPassageRow
from jax_errors.db.models import Snapshot, SnapshotDocPassage, SnapshotDocs
from jax_errors.site_gen import records
from jax_errors.site_gen.catalogue import load_catalogue
from jax_errors.site_gen.doc_mentions import ErrorWords, doc_mentions, message_phrases
from jax_errors.template import Part, Template

ERRORS_PY = '''
    class JAXTypeError(TypeError):
        """JAX-specific :class:`TypeError`"""


    class ConcretizationTypeError(JAXTypeError):
        """
        This error occurs when a JAX Tracer object is used in a context where a
        concrete value is required (see :ref:`faq-values`).

        It often comes from Python control flow on a traced value. For example::

            >>> bool(jnp.zeros(()) > 0)  # under jit

        Example::

            >>> jax.jit(lambda x: int(x))(1)
        """

        def __init__(self, tracer, context=""):
            super().__init__(f"Abstract tracer value encountered where concrete value is expected: {tracer}{context}")
'''

GOTCHAS_MD = '''
    ---
    jupytext:
      formats: ipynb,md:myst
    ---

    +++ {"id": "x1"}

    # 🔪 JAX - The Sharp Bits 🔪

    (control-flow)=
    ## 🔪 Control flow with `jit`

    Python control flow on a traced value fails: the value is abstract, and the error says
    that an abstract tracer value was encountered where a concrete value is expected.

    ```{code-cell} ipython3
    :tags: [raises-exception]
    jax.jit(f)(3)
    ```

    :::{note}
    A note about errors inside a directive.
    :::

    ## Out-of-bounds indexing

    Indexing out of bounds clamps the index.
'''

FAQ_RST = '''
    Frequently asked questions (FAQ)
    ================================

    .. comment: nothing to see here

    ``jit`` changes the behavior of my function
    --------------------------------------------

    A function that reads globals raises no error but changes.
    The check is quoted here: vmap got inconsistent sizes for array axes to be mapped, see below::

        jax.vmap(f)(x, y)

    Controlling data and computation placement on devices
    -----------------------------------------------------

    Data placed on a device stays there.
'''

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "source": ["# Custom derivatives\n"]},
        {"cell_type": "markdown", "source": ["## Use `jax.custom_vjp`\n", "\n", "Reverse-mode only rules raise on jvp.\n"]},
        {"cell_type": "code", "source": ["jax.jvp(f, (1.,), (1.,))"], "outputs": [
            {"output_type": "error", "ename": "TypeError",
             "evalue": "can't apply forward-mode autodiff (jvp) to a custom_vjp function.", "traceback": []}]},
    ],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
}

MODULE = '''
    from jax._src.errors import ConcretizationTypeError

    def to_int(x, tracer):
        if tracer:
            raise ConcretizationTypeError(x, "in to_int")
        return int(x)

    def check_sizes(sizes):
        if len(set(sizes)) > 1:
            raise ValueError(f"vmap got inconsistent sizes for array axes to be mapped: {sizes}")

    def custom(f):
        raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")

    def quiet(x):
        raise ValueError(f"nothing in the docs speaks of this one: {x}")
'''


def test_markdown_sections_give_sphinx_anchors_and_skip_markup():
    blocks = markdown_blocks(textwrap.dedent(GOTCHAS_MD).lstrip("\n"))
    texts = [(heading, anchor, kind, text.splitlines()[0]) for _, heading, anchor, kind, text in blocks]
    assert texts == [
        ("🔪 Control flow with jit", "control-flow-with-jit", "prose",
         "Python control flow on a traced value fails: the value is abstract, and the error says"),
        ("🔪 Control flow with jit", "control-flow-with-jit", "code", "jax.jit(f)(3)"),
        ("🔪 Control flow with jit", "control-flow-with-jit", "prose", "A note about errors inside a directive."),
        ("Out-of-bounds indexing", "out-of-bounds-indexing", "prose", "Indexing out of bounds clamps the index."),
    ]
    assert section_anchor("Using {func}`jax.jit` with `static_argnums`") == "using-jax-jit-with-static-argnums"
    assert plain_heading("a :class:`~jax.Array` stays *on its device*; see :ref:`the FAQ <faq>` and [docs](x.md)") == (
        "a Array stays on its device; see the FAQ and docs")


def test_rst_titles_paragraphs_and_literal_blocks():
    blocks = rst_blocks(textwrap.dedent(FAQ_RST).lstrip("\n"))
    assert [(heading, anchor, kind) for _, heading, anchor, kind, _ in blocks] == [
        ("jit changes the behavior of my function", "jit-changes-the-behavior-of-my-function", "prose"),
        ("jit changes the behavior of my function", "jit-changes-the-behavior-of-my-function", "code"),
        ("Controlling data and computation placement on devices",
         "controlling-data-and-computation-placement-on-devices", "prose"),
    ]
    assert blocks[1][4] == "jax.vmap(f)(x, y)" and blocks[0][0] == 9


def test_a_notebook_gives_its_cells_and_the_errors_its_outputs_show():
    passages = list(notebook_passages("docs/notebooks/Custom.ipynb", NOTEBOOK))
    output = passages[-1]
    assert output.kind == "output" and output.text.startswith("TypeError: can't apply forward-mode autodiff")
    assert output.url == "https://docs.jax.dev/en/latest/notebooks/Custom.html#use-jax-custom-vjp"
    assert [p.kind for p in passages] == ["prose", "code", "output"]


def test_docstrings_of_the_error_classes_are_the_errors_page():
    passages = docstring_passages("jax/_src/errors.py", textwrap.dedent(ERRORS_PY).encode())
    by_class = {p.heading: p for p in passages}
    concretization = by_class["ConcretizationTypeError"]
    assert concretization.url == "https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError"
    assert concretization.text == ("This error occurs when a JAX Tracer object is used in a context where a concrete "
                                   "value is required (see :ref:`faq-values`).\n\nIt often comes from Python control "
                                   "flow on a traced value.")


def test_a_markdown_twin_of_a_notebook_is_read_from_the_notebook():
    files = [SourceFile.from_bytes("docs/notebooks/Custom.ipynb", json.dumps(NOTEBOOK).encode()),
             SourceFile.from_bytes("docs/notebooks/Custom.md", b"# Custom derivatives\n\nThe twin, without outputs.\n"),
             SourceFile.from_bytes("docs/broken.ipynb", b"{not json"), SourceFile.from_bytes("docs/logo.svg", b"<svg/>")]
    passages = read_passages(files, [])
    assert {p.path for p in passages} == {"docs/notebooks/Custom.ipynb"}


def lit(text):
    return Part("lit", text)


def test_message_phrases_are_literal_runs_of_enough_words_without_glued_ones():
    template = Template((lit("got "), Part("expr", "n"), lit("D arrays where the shape must match exactly, but "),
                         Part("expr", "x"), lit("s differ")))
    assert message_phrases(template) == [("arrays", "where", "the", "shape", "must", "match", "exactly", "but")]
    assert message_phrases(Template((lit("short words only"),))) == []


def passage(text, kind="prose", path="docs/a.md", heading="A"):
    return DocPassage(path, 1, heading, f"https://docs.jax.dev/en/latest/{path[5:-3]}.html", kind, text)


def test_mentions_quote_the_message_name_the_class_and_skip_boilerplate():
    shared = lit("Please open an issue at https://github.com/jax-ml/jax/issues so we can fix it")
    errors = [ErrorWords(str(i), Template((lit(f"check {i} failed. "), shared)), "ValueError") for i in range(4)]
    errors.append(ErrorWords("quoted", Template((lit("the carry must keep one shape across iterations: "),
                                                 Part("expr", "x"))), "TypeError"))
    errors.append(ErrorWords("classy", Template((Part("expr", "x"),)), "jax._src.core.ConcretizationTypeError"))
    docs = [passage("If you see an error, please open an issue at https://github.com/jax-ml/jax/issues so we can "
                    "fix it."),
            passage("A scan raises: The carry must keep one shape\nacross iterations: (3,) vs (4,).", path="docs/b.md"),
            passage("autosummary\n  ConcretizationTypeError\n  TracerBoolConversionError", kind="code",
                    path="docs/api.md"),
            passage("ConcretizationTypeError: Abstract tracer value", kind="code", path="docs/c.md"),
            DocPassage("jax/_src/errors.py", 46, "ConcretizationTypeError",
                       "https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError", "docstring",
                       "This error occurs when a tracer is used where a concrete value is required.")]
    found = doc_mentions(errors, docs)
    assert set(found) == {"quoted", "classy"}  # the shared phrase names none of the four errors
    assert [(m.names, m.passage.path) for m in found["quoted"]] == [("message", "docs/b.md")]
    # The docstring first, then code showing the class raised; a list of API names is no mention.
    assert [(m.names, m.passage.kind, m.passage.path) for m in found["classy"]] == [
        ("class", "docstring", "jax/_src/errors.py"), ("class", "code", "docs/c.md")]
    assert found["quoted"][0].to_json()["words"] == "the carry must keep one shape across iterations"


def test_crawled_docs_reach_the_cards_and_are_stored_once(git_repo, tmp_path):
    docs = {"docs/notebooks/Common_Gotchas.md": GOTCHAS_MD, "docs/faq.rst": FAQ_RST,
            "docs/tracing.md": "# Tracing\n\n(faq-values)=\n## Different kinds of JAX values\n\nTracers and arrays.\n",
            "docs/notebooks/Custom.ipynb": json.dumps(NOTEBOOK), "jax/_src/errors.py": ERRORS_PY,
            "jax/_src/mod.py": MODULE}
    git_repo.commit(docs, "one", tag="jax-v0.0.1")
    # Two paragraphs at the top move every passage of the FAQ down: each is still stored once.
    git_repo.commit({"docs/faq.rst": "A first paragraph.\n\nMore words about nothing.\n\n" + textwrap.dedent(FAQ_RST)},
                    "two", tag="jax-v0.0.2")
    engine = open_database(tmp_path / "catalogue.db")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    with Session(engine) as session:
        stored = session.scalar(select(func.count()).select_from(DocPassageRow))
        linked = dict(session.execute(select(SnapshotDocPassage.snapshot_id, func.count()).group_by(
            SnapshotDocPassage.snapshot_id)).all())
        read = session.execute(select(SnapshotDocs.pages, SnapshotDocs.passages)).all()
    # Passages speaking of errors: the gotchas' paragraph and note, the FAQ's first paragraph, the
    # notebook's prose and output, two docstrings. The FAQ's new paragraphs speak of none: both
    # snapshots hold the same 7, stored once, each snapshot with its own lines.
    assert read == [(4, 7), (4, 7)] and list(linked.values()) == [7, 7] and stored == 7
    with Session(engine) as session:
        faq_lines = session.execute(select(SnapshotDocPassage.line).join(DocPassageRow).where(
            DocPassageRow.path == "docs/faq.rst").order_by(SnapshotDocPassage.snapshot_id)).scalars().all()
    assert faq_lines == [9, 14]
    cards = {card.site.qualname: card for card in load_catalogue(engine).cards.values()}
    assert [(m.names, m.passage.kind, m.passage.url) for m in cards["to_int"].docs] == [
        ("class", "docstring", "https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError")]
    # The docstring's reference reads as the section it names, as on docs.jax.dev.
    assert "(see Different kinds of JAX values)" in cards["to_int"].docs[0].excerpt
    assert [(m.names, m.passage.url) for m in cards["check_sizes"].docs] == [
        ("message", "https://docs.jax.dev/en/latest/faq.html#jit-changes-the-behavior-of-my-function")]
    assert [(m.names, m.passage.kind) for m in cards["custom"].docs] == [("message", "output")]
    assert cards["quiet"].docs == ()
    record = records.card_record(cards["custom"])
    records.validate(record, records.ERROR_SCHEMA)
    assert record["docs"][0]["url"] == "https://docs.jax.dev/en/latest/notebooks/Custom.html#use-jax-custom-vjp"
    assert record["provenance"]["docs"] == "extracted"


def test_a_snapshot_crawled_before_docs_were_read_reads_them_on_its_next_crawl(git_repo, tmp_path):
    git_repo.commit({"jax/_src/errors.py": ERRORS_PY, "jax/_src/mod.py": MODULE}, "one", tag="jax-v0.0.1")
    engine = open_database(tmp_path / "catalogue.db")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"))
        with Session(engine) as session, session.begin():
            session.query(SnapshotDocs).delete()  # as a catalogue from before 0007 stands
        again = crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"))
        assert not again.skipped
        assert crawl_snapshot(engine, repository.snapshot("jax-v0.0.1")).skipped
    cards = {card.site.qualname: card for card in load_catalogue(engine).cards.values()}
    assert [m.passage.heading for m in cards["to_int"].docs] == ["ConcretizationTypeError"]



def test_a_commit_changing_no_docs_page_copies_the_passages_and_one_changing_a_page_reads_them(
        git_repo, tmp_path, monkeypatch):
    from jax_errors.crawler import crawl

    read = []
    real_error_passages = crawl.error_passages
    monkeypatch.setattr(crawl, "error_passages", lambda *args: read.append(1) or real_error_passages(*args))
    git_repo.commit({"docs/faq.rst": FAQ_RST, "jax/_src/errors.py": ERRORS_PY, "jax/_src/mod.py": MODULE}, "one",
                    tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/mod.py": "# a comment\n" + textwrap.dedent(MODULE).lstrip("\n")}, "code only",
                    tag="jax-v0.0.2")
    git_repo.commit({"docs/faq.rst": FAQ_RST.replace("raises no error", "raises an error")}, "docs", tag="jax-v0.0.3")
    engine = open_database(tmp_path / "catalogue.db")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
        assert read == [1]  # the second commit's docs are the first's: copied
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.3"))
        assert read == [1, 1]
    with Session(engine) as session:
        links = {snapshot: session.execute(
            select(DocPassageRow.text, SnapshotDocPassage.line, SnapshotDocPassage.position).join(SnapshotDocPassage)
            .where(SnapshotDocPassage.snapshot_id == snapshot).order_by(DocPassageRow.text)).all()
            for snapshot in (1, 2, 3)}
        read_rows = session.execute(select(SnapshotDocs.snapshot_id, SnapshotDocs.pages, SnapshotDocs.passages,
                                           SnapshotDocs.source_digest).order_by(SnapshotDocs.snapshot_id)).all()
    assert links[2] == links[1] and len(links[1]) == 3  # the FAQ's paragraph and two docstrings
    assert links[3] != links[1] and any("raises an error" in text for text, _, _ in links[3])
    assert read_rows[0][1:] == read_rows[1][1:] and read_rows[2][3] != read_rows[0][3]

def test_passages_no_snapshot_holds_are_deleted(git_repo, tmp_path):
    git_repo.commit({"docs/faq.rst": FAQ_RST, "jax/_src/mod.py": MODULE}, "one", tag="jax-v0.0.1")
    third = git_repo.commit({"docs/faq.rst": FAQ_RST.replace("raises no error", "raises an error")}, "two")
    engine = open_database(tmp_path / "catalogue.db")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"))
        with Session(engine) as session, session.begin():
            session.execute(delete(Snapshot))  # its links go with it; the passage stays until a crawl
        crawl_snapshot(engine, repository.snapshot(third))
    with Session(engine) as session:
        texts = session.scalars(select(DocPassageRow.text)).all()
    assert len(texts) == 1 and "raises an error" in texts[0]


def test_a_notebook_section_opened_by_a_cell_without_text_holds_the_cells_after_it():
    notebook = {"cells": [
        {"cell_type": "markdown", "source": "# Title\n\nIntro raising nothing."},
        {"cell_type": "markdown", "source": "## First\n\nText."},
        {"cell_type": "markdown", "source": "## 🔪 Out-of-bounds indexing"},
        {"cell_type": "code", "source": "x[10]", "outputs": [
            {"output_type": "error", "ename": "IndexError", "evalue": "index 10 is out of bounds", "traceback": []}]},
        {"cell_type": "markdown", "source": "## First"},  # a title used before: docutils numbers its id
        {"cell_type": "code", "source": "y", "outputs": []},
    ]}
    passages = list(notebook_passages("docs/nb.ipynb", notebook))
    by_text = {p.text: (p.heading, p.url.rpartition("/")[2]) for p in passages}
    assert by_text["IndexError: index 10 is out of bounds"] == ("🔪 Out-of-bounds indexing",
                                                              "nb.html#out-of-bounds-indexing")
    assert by_text["Intro raising nothing."] == ("Title", "nb.html") and by_text["Text."] == ("First", "nb.html#first")
    assert by_text["y"] == ("First", "nb.html")  # its id is not known: the page


def test_rst_admonitions_are_prose_and_api_lists_are_left_out():
    page = textwrap.dedent('''
        Title
        =====

        .. note::
           A note that raises a ``ValueError``
           over two lines.

        .. autosummary::
           :toctree: _autosummary

           ConcretizationTypeError
           TracerBoolConversionError

        - a list item
          continued below

        Run this::

            f(x)
    ''').lstrip("\n")
    assert [(kind, text) for _, _, _, kind, text in rst_blocks(page)] == [
        ("prose", "A note that raises a ``ValueError``\nover two lines."),
        ("prose", "- a list item\ncontinued below"),
        ("prose", "Run this::"), ("code", "f(x)")]
