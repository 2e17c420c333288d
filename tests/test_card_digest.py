"""A card's digest hashes its fields, nested values included, and nothing a card computes and keeps."""

from dataclasses import replace

import pytest

from jax_errors.site_gen import output, records
from jax_errors.site_gen.card_digest import card_digest
from jax_errors.site_gen.catalogue import Related, load_catalogue


@pytest.fixture
def card(fresh_db, git_repo, two_errors):
    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository

    commit = git_repo.commit(two_errors, "one")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(fresh_db, repository.snapshot(commit))
    return next(card for card in load_catalogue(fresh_db).cards.values() if card.location.path == "jax/core.py")


def test_the_digest_is_the_same_before_and_after_the_card_is_rendered(card):
    before = card_digest(card)
    records.card_record(card)  # computes and keeps the title, template and callers
    assert {"title", "template", "callers"} <= vars(card).keys()
    assert card_digest(card) == before


def test_a_change_deep_in_a_card_changes_its_digest(card):
    digest = card_digest(card)
    moved = replace(card, location=replace(card.location, lineno=card.location.lineno + 1))
    related = replace(card, related=(Related("0123456789abcdef", "another", "same function", 0.5),))
    renamed = replace(card, location=replace(card.location, snapshot=replace(card.location.snapshot, tag="v9")))
    assert len({digest, card_digest(moved), card_digest(related), card_digest(renamed)}) == 4
    assert card_digest(replace(card)) == digest


def test_a_raise_site_read_from_the_database_is_hashed_by_what_it_says_not_where_it_is_stored(card):
    from sqlalchemy.orm import make_transient

    digest = card_digest(card)
    site = card.site
    make_transient(site)
    site.id, site.blob_sha = site.id + 1, "0" * 40  # the same raise, stored again for a file that changed elsewhere
    assert card_digest(card) == digest
    site.guard = "x < 0 and y"
    assert card_digest(card) != digest


def test_a_value_it_cannot_hash_is_named(card):
    with pytest.raises(TypeError) as raised:
        card_digest(replace(card, aliases=(object(),)))
    assert str(raised.value.__cause__) == "a card holds a object, which card_digest cannot hash"


def test_the_generator_is_the_whole_package_not_only_the_site_generator(tmp_path, monkeypatch):
    package = tmp_path / "jax_errors"
    (package / "site_gen").mkdir(parents=True)
    (package / "site_gen" / "build.py").write_text("pages = 1\n")
    (package / "template.py").write_text("title = 'a'\n")
    monkeypatch.setattr(output.resources, "files", lambda name: package if name == "jax_errors" else None)
    before = output.generator_fingerprint()
    (package / "template.py").write_text("title = 'b'\n")
    assert output.generator_fingerprint() != before


def test_another_python_or_library_version_is_another_generator(monkeypatch):
    before = output.generator_fingerprint()
    real = output.metadata.version
    monkeypatch.setattr(output.metadata, "version", lambda name: "9.9" if name == "markdown-it-py" else real(name))
    assert output.generator_fingerprint() != before
    monkeypatch.setattr(output.metadata, "version", real)
    monkeypatch.setattr(output.sys, "version", "3.99.0 (another build)")
    assert output.generator_fingerprint() != before


def test_a_curated_file_is_hashed_by_its_name_not_by_where_the_checkout_stands(card, tmp_path):
    from pathlib import Path

    from jax_errors.site_gen.knowledge import parse_knowledge

    entry = parse_knowledge(Path(__file__).parent.parent / "knowledge" / sorted(
        p.name for p in (Path(__file__).parent.parent / "knowledge").glob("*.md"))[0])
    here = replace(card, knowledge=entry)
    elsewhere = replace(card, knowledge=replace(entry, path=tmp_path / "deeper" / "knowledge" / entry.path.name))
    renamed = replace(card, knowledge=replace(entry, path=entry.path.with_name("another.md")))
    assert card_digest(here) == card_digest(elsewhere) != card_digest(renamed)
