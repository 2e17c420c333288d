"""The installed jax package, crawled as the embedded default."""

import jax
from sqlalchemy.orm import Session

from jax_errors.crawler.installed import installed_jax_dir, installed_snapshot, read_version
from jax_errors.db.queries import find_snapshot, site_at, sites_of_error

# Where the seed card's raise stands, per jax version this project may install.
SEED_LINES = {"0.10.2": 2491}
SEED_TEMPLATE = "all_gather_reduced only accepts inputs that are varying. Got {x_aval.str_short(True)}"


def test_installed_package_is_pinned_to_its_commit():
    version, git_hash = read_version(installed_jax_dir())
    assert version == jax.__version__
    snapshot = installed_snapshot()
    assert snapshot.tag == f"jax-v{version}"
    assert snapshot.commit == git_hash and len(git_hash) == 40
    assert all(f.path.startswith("jax/") and f.path.endswith(".py") for f in snapshot.files)


def test_seed_site_of_the_installed_version(crawled_db):
    line = SEED_LINES[jax.__version__]
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
