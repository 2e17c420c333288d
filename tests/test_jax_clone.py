"""Checks on real JAX history; they need a clone (JAX_ERRORS_JAX_CLONE) and skip without one."""

import jax
import pytest
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.installed import installed_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.queries import find_snapshot, site_at

pytestmark = [pytest.mark.slow, pytest.mark.jax_clone]  # crawls real JAX releases from the clone

PARALLEL = "jax/_src/lax/parallel.py"
SEED_AT_0_10_2 = 2491
# The clone's HEAD moves when it is refreshed; the seed card was measured at this commit.
SEED_COMMIT = "cec06d116c05f0d52adfceee3d3b730fdbcb0ce5"
SEED_AT_SEED_COMMIT = 2587


@pytest.fixture(scope="module")
def clone_db(jax_clone, tmp_path_factory):
    from jax_errors.db.engine import open_database

    engine = open_database(tmp_path_factory.mktemp("clone") / "clone.db")
    with JaxRepository(jax_clone) as repository:
        try:
            repository.commit(SEED_COMMIT)
        except Exception:
            pytest.skip(f"the JAX clone at {jax_clone} does not have commit {SEED_COMMIT}")
        for rev in ("jax-v0.10.2", SEED_COMMIT):
            crawl_snapshot(engine, repository.snapshot(rev), jobs=2)
    return engine


def test_seed_site_keeps_its_id_across_versions(clone_db):
    with Session(clone_db) as session:
        old = site_at(session, find_snapshot(session, "jax-v0.10.2"), PARALLEL, SEED_AT_0_10_2)
        new = site_at(session, find_snapshot(session, SEED_COMMIT), PARALLEL, SEED_AT_SEED_COMMIT)
        assert old.site.lineno == SEED_AT_0_10_2 and new.site.lineno == SEED_AT_SEED_COMMIT
        assert old.site.template == new.site.template
        assert old.error_id == new.error_id


def test_head_has_every_raise_the_brief_counted(clone_db, jax_clone):
    """The brief counted 667 files and 5,706 raise sites at HEAD; 110 of those files are test code. Of the 557 others,
    the crawl finds 5,588 raises, and 53 names modules removed (entries of their deprecation tables that raise)."""
    from jax_errors.crawler.sources import is_test_code

    with Session(clone_db) as session:
        snapshot = find_snapshot(session, SEED_COMMIT)
        assert (snapshot.file_count, snapshot.site_count, snapshot.parse_failures) == (557, 5588 + 53, 0)
    with JaxRepository(jax_clone) as repository:
        listed = repository.repo.git.ls_tree("-r", "--name-only", SEED_COMMIT, "--", "jax/").split()
    python = [p for p in listed if p.endswith(".py")]
    assert len(python) == 667 and sum(is_test_code(p) for p in python) == 110


def test_installed_wheel_matches_its_tag_but_for_version_py(jax_clone):
    installed = {f.path: f.blob_sha for f in installed_snapshot().files}
    tag = f"jax-v{jax.__version__}"
    with JaxRepository(jax_clone) as repository:
        if tag not in repository.release_tags():
            pytest.skip(f"the JAX clone at {jax_clone} has no tag {tag} (the installed release): "
                        f"`git -C {jax_clone} fetch origin tag {tag}` brings it")
        tagged = {f.path: f.blob_sha for f in repository.snapshot(tag).files}
    # The wheel leaves out some test utilities and examples; whatever it ships is byte-identical.
    differing = {p for p in installed if installed[p] != tagged.get(p)}
    assert differing == {"jax/version.py"}
    assert len(installed) > 0.9 * len(tagged)
