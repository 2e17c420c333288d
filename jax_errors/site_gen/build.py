"""Build the static site: cards, index pages, JSON export and the search index, from one database."""

from __future__ import annotations

import shutil
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from importlib import resources
from pathlib import Path

import orjson
from markupsafe import Markup
from sqlalchemy import Engine

from jax_errors.explainer.artifact import EXPLAIN_PATH, EXPLAIN_SCHEMA
from jax_errors.explainer.record import explain_record
from jax_errors.forked import Forked
from jax_errors.long_lived import long_lived
from jax_errors.lookup.browser import (
    LOOKUP_PATH,
    LOOKUP_SCHEMA,
    NAMES_PATH,
    NAMES_SCHEMA,
    catalogue_index,
    lookup_record,
    names_record,
)
from jax_errors.progress import Progress
from jax_errors.reproduce.cases import Case, load_cases
from jax_errors.site_gen import records
from jax_errors.site_gen.archive import zip_bytes
from jax_errors.site_gen.card_digest import card_digest
from jax_errors.site_gen.catalogue import STATUS_ORDER, Card, Catalogue, load_catalogue
from jax_errors.site_gen.circumstances import circumstances_of, guard_sentence
from jax_errors.site_gen.knowledge import DEFAULT_KNOWLEDGE_DIR, check_knowledge, load_knowledge
from jax_errors.site_gen.links import card_json_path, card_path, diff_path, relative_root, report_link, slug
from jax_errors.site_gen.output import SiteOutput, digest
from jax_errors.site_gen.related import related_errors
from jax_errors.site_gen.render import environment, render_page
from jax_errors.site_gen.search import BUNDLE_DIR
from jax_errors.site_gen.search_index import SearchIndex
from jax_errors.site_gen.search_sources import SOURCES_DIR

TOP_GROUPS = 12
ARCHIVE = "api/all.zip"
INDEX_PATH = "api/errors.json"


@dataclass(frozen=True)
class SiteConfig:
    """What to build from and where."""

    out: Path
    knowledge_dir: Path = DEFAULT_KNOWLEDGE_DIR
    cases_dir: Path = Path("cases")
    search: bool = True
    validate: bool = True
    incremental: bool = True  # keep an earlier build's unchanged pages (see `output`)
    base_url: str | None = None  # where the site is published: recorded for `explain`'s links
    report_url: str | None = None  # where "Report a problem with this card" leads: `{id}` and `{title}` filled in


@dataclass
class BuildReport:
    out: Path
    cards: int = 0
    curated: int = 0
    reproduced: int = 0
    pages: int = 0
    json_files: int = 0
    indexed: int | None = None
    searched: bool = False  # Pagefind ran: what it indexes changed since the last index was made
    rendered: int = 0  # cards rendered, not reused from the last build
    rewritten: int = 0  # files whose bytes changed
    unchanged: int = 0
    removed: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    def summary(self) -> str:
        search = (f", {self.indexed} pages searchable ({'indexed again' if self.searched else 'index kept'})"
                  if self.indexed is not None else ", no search index")
        warned = f"; {len(self.warnings)} warnings" if self.warnings else ""
        return (
            f"built {self.out}: {self.cards} cards ({self.curated} curated, {self.reproduced} reproduced), "
            f"{self.pages} pages, {self.json_files} JSON files{search}; {self.rendered} cards rendered, "
            f"{self.rewritten} files rewritten, {self.unchanged} unchanged, {self.removed} removed; "
            f"{self.seconds:.1f} s{warned}"
        )


@dataclass(frozen=True)
class Group:
    """A set of cards an index page lists: one module, one exception class or one status."""

    name: str
    href: str  # site-relative
    cards: tuple[Card, ...]
    note: str = ""
    code: bool = True  # the name is an identifier (a module, a class, a status)


def build_site(engine: Engine, config: SiteConfig, *, progress: Progress | None = None) -> BuildReport:
    """Render the catalogue in `engine` into `config.out`.

    Raises:
        SiteError: `config.out` is a folder holding something other than an earlier build.
        KnowledgeError, CaseError: a curated file is malformed.
        RecordError: a JSON record breaks its schema.
        SearchIndexError: Pagefind failed.
    """
    started = time.perf_counter()
    with long_lived() as loaded:
        # The cases are read on the second core while the catalogue's rows are: they join the cards last.
        cases_dir = Path(config.cases_dir)
        parsed = Forked(partial(_cases, cases_dir), fork=cases_dir.is_dir())
        try:
            knowledge = load_knowledge(config.knowledge_dir)
            catalogue = load_catalogue(engine, knowledge=knowledge, cases=_when_iterated(parsed))
            cases = parsed.result()
        finally:
            parsed.stop()
        # The report link is on every card: another one means every card is written again.
        out = SiteOutput.open(Path(config.out), incremental=config.incremental, settings=config.report_url or "",
                              search=config.search)
        # The second core makes the catalogue-wide records, which show no related errors, meanwhile.
        catalogue_wide = Forked(partial(_catalogue_records, catalogue, config, out.previous_inputs))
        try:
            catalogue = with_related(catalogue)
            loaded()
            report = _write_site(out, catalogue, catalogue_wide, config, progress)
        finally:
            catalogue_wide.stop()
    report.warnings[:0] = [str(problem) for problem in check_knowledge(
        knowledge, known_ids=catalogue.cards.keys(), case_names={case.name for case in cases})]
    report.seconds = time.perf_counter() - started
    return report


def _cases(folder: Path) -> list[Case]:
    return load_cases(folder) if folder.is_dir() else []


def _when_iterated(parsed: Forked[list[Case]]) -> Iterator[Case]:
    """The cases, waited for only when `load_catalogue` goes through them (after reading its rows)."""
    yield from parsed.result()


def _write_site(out: SiteOutput, catalogue: Catalogue, catalogue_wide: Forked[list[Record]], config: SiteConfig,
                progress: Progress | None) -> BuildReport:
    report = BuildReport(Path(config.out))
    cards = catalogue.sorted_cards()
    groups = {"modules": _by_module(cards), "classes": _by_class(cards), "status": _by_status(cards)}
    total = len(cards) + sum(len(g) for g in groups.values()) + 1
    tick = _ticker(progress, total)
    digests = {card.id: card_digest(card) for card in cards}
    entries = _write_cards(out, catalogue, cards, digests, config, report, tick)
    search = SearchIndex(out) if config.search else None
    try:
        _write_the_rest(out, catalogue, cards, groups, ErrorRows(out, digests), entries, catalogue_wide, config,
                        report, tick)
    except BaseException:
        if search is not None:
            search.abandon()
        raise
    tick("search index")
    if search is not None:
        report.indexed, report.searched = search.finish()
    else:  # an earlier build's index: a build without search has none
        for made_for_search in (BUNDLE_DIR, SOURCES_DIR):
            shutil.rmtree(out.out / made_for_search, ignore_errors=True)
    report.rewritten, report.unchanged, report.removed = out.rewritten, out.unchanged, out.removed
    report.cards = len(cards)
    report.json_files = len(entries)
    report.curated = sum(1 for c in cards if c.knowledge)
    report.reproduced = sum(1 for c in cards if c.status == "reproduced")
    return report


def _write_cards(out: SiteOutput, catalogue: Catalogue, cards: list[Card], digests: Mapping[str, str],
                 config: SiteConfig, report: BuildReport, tick) -> dict[str, str | Callable[[], str]]:
    """Write the cards that changed (by `card_digest`); returns each card's record text, or what reads back the
    last build's."""
    entries: dict[str, str | Callable[[], str]] = {}
    for card in cards:
        data = card_json_path(card.id)
        text = _write_card(out, card, digests[card.id], catalogue, config, report)
        entries[data.removeprefix("api/")] = text if text is not None else partial(out.read, data)
        tick(card.id)
    report.pages += len(cards)
    return entries


def _write_the_rest(out: SiteOutput, catalogue: Catalogue, cards: list[Card], groups: dict[str, list[Group]],
                    rows: ErrorRows, entries: dict[str, str | Callable[[], str]],
                    catalogue_wide: Forked[list[Record]], config: SiteConfig, report: BuildReport, tick) -> None:
    """Every file but the cards and the search index: group pages, home, changes, records, archive, static files."""
    for kind, kind_groups in groups.items():
        report.pages += _write_groups(out, kind, kind_groups, rows, tick)
    out.write("index.html", render_page("home.html", "index.html", **home_context(catalogue, groups)))
    out.write("search.html", render_page("search.html", "search.html", newest=catalogue.newest))
    curated = Group("Curated errors", "curated.html", tuple(c for c in cards if c.knowledge),
                    "a person explained them, with solutions and, where a case exists, a fix", code=False)
    _write_group(out, curated, rows, heading="Home", index_page="index.html")
    report.pages += 3 + _write_diffs(out, catalogue)
    for made in catalogue_wide.result():
        text = _write_record(out, made, lambda page=made.page: _made_again(page, catalogue, config))
        if made.page == INDEX_PATH:  # the archive holds it too
            entries[INDEX_PATH.removeprefix("api/")] = text
    kept = {name for name, entry in entries.items() if not isinstance(entry, str)}
    out.write(ARCHIVE, zip_bytes(entries, previous=out.previous_bytes(ARCHIVE), unchanged=kept))
    _copy_static(out)
    out.finish()


def with_related(catalogue: Catalogue) -> Catalogue:
    related = related_errors(catalogue.cards.values())
    cards = {key: replace(card, related=related[key]) for key, card in catalogue.cards.items()}
    return replace(catalogue, cards=cards)


# Pages ---------------------------------------------------------------------------------------

def _write_card(out: SiteOutput, card: Card, fingerprint: str, catalogue: Catalogue, config: SiteConfig,
                report: BuildReport) -> str | None:
    """Write a card's page and JSON record, or keep last build's when its record is the same.

    A card's page and record are made from its fields alone (and the generator, which `SiteOutput`
    fingerprints), so unchanged fields (by `fingerprint`, see `card_digest`) mean unchanged files.
    Returns the record's text, or None when the last build's was kept.
    """
    page, data = card_path(card.id), card_json_path(card.id)
    if out.reusable(f"card:{card.id}", fingerprint, [page, data]):
        return None
    record = records.card_record(card)
    if config.validate:
        records.validate(record, records.ERROR_SCHEMA, name=data)
    text = records.dumps(record)
    out.write(page, render_card(card, catalogue, report_url=config.report_url))
    out.write(data, text)
    report.rendered += 1
    return text


def render_card(card: Card, catalogue: Catalogue, *, report_url: str | None = None) -> str:
    circumstances = circumstances_of(card)
    lead, code = guard_sentence(circumstances.guard_kind, circumstances.guard)
    verified = sorted({r.jax_version for r in card.runs
                       if card.case and r.case_name == card.case.name and r.status == "reproduced" and r.fixed_ok})
    return render_page(
        "card.html", card_path(card.id), card=card, circumstances=circumstances, lead=lead, code=code,
        verified=verified, newest=catalogue.newest, report_href=report_link(report_url, card.id, card.title),
        module_slug=slug(card.module), class_slug=slug(card.exc_class),
    )


def home_context(catalogue: Catalogue, groups: dict[str, list[Group]]) -> dict:
    cards = catalogue.sorted_cards()
    by_size = lambda gs: sorted(gs, key=lambda g: (-len(g.cards), g.name))[:TOP_GROUPS]  # noqa: E731
    return {
        "counts": {
            "errors": len(cards), "modules": len(groups["modules"]), "classes": len(groups["classes"]),
            "curated": sum(1 for c in cards if c.knowledge), "snapshots": len(catalogue.snapshots),
            "reproduced": sum(1 for c in cards if c.status == "reproduced"),
        },
        "top_classes": by_size(groups["classes"]), "top_modules": by_size(groups["modules"]),
        "curated": [c for c in cards if c.knowledge], "snapshots": catalogue.snapshots,
        "newest": catalogue.newest,
    }


_GROUP_PAGES = {
    "modules": ("Errors by module", "Module", "Every module of jax that raises, with the errors it raises."),
    "classes": ("Errors by exception class", "Exception class",
                "Every exception class jax raises; unresolved ones are named by the raised expression."),
    "status": ("Errors by reproduction status", "Status",
               "Whether a reproduction case raised the error at its catalogued raise site, on which jax."),
}
_STATUS_NOTES = {
    "reproduced": "a case raised it at this raise site, with a matching message",
    "message-mismatch": "raised at this site, but the message did not fit",
    "wrong-site": "the case's error came from elsewhere",
    "no-error": "the case ran without raising",
    "crashed": "the case's worker crashed",
    "timeout": "the case ran out of time",
    "unverified": "no case has been run",
}


class ErrorRows:
    """The rows of a group's error table: each card's is rendered once per folder depth, since a card is
    listed by its module, its class and its status; and kept from the last build while the card is the same
    (`SiteOutput.piece`)."""

    def __init__(self, out: SiteOutput, digests: Mapping[str, str]) -> None:
        self._out, self._digests = out, digests
        self._row = environment().get_template("_macros.html").module.error_row

    def of(self, group: Group) -> Markup:
        """The rows of `group`'s table, as one piece of HTML."""
        return Markup("".join(self._rows(group)))  # rows the error_row macro made (HTML), kept as text

    def keep(self, group: Group) -> None:
        """Carry `group`'s rows into this build's manifest, for its page kept from the last build."""
        for _ in self._rows(group):
            pass

    def _rows(self, group: Group) -> Iterator[str]:
        root = relative_root(group.href)
        return (self._out.piece(f"row:{root}{card.id}", self._digests[card.id], partial(self._row, card, root))
                for card in group.cards)

    def fingerprint(self, group: Group, *values: str) -> str:
        """What `group`'s page is made of: its own fields, each card's by `card_digest`, and `values`."""
        return digest(orjson.dumps([group.name, group.href, group.note, group.code, *values,
                                    [[card.id, self._digests[card.id]] for card in group.cards]]))


def _write_groups(out: SiteOutput, kind: str, groups: list[Group], rows: ErrorRows, tick) -> int:
    """A kind's index of groups, and each group's page.

    Group pages do not name the newest snapshot (cards do not either): a refresh rewrites those whose errors
    changed, and renders no other.
    """
    heading, column, intro = _GROUP_PAGES[kind]
    page = f"{kind}/index.html"
    out.write(page, render_page("groups.html", page, heading=heading, column=column, intro=intro, groups=groups,
                                newest=None))
    written = 1
    for group in groups:
        if group.cards:
            _write_group(out, group, rows, heading=heading, index_page=page)
            written += 1
        tick(group.name)
    return written


def _write_group(out: SiteOutput, group: Group, rows: ErrorRows, *, heading: str, index_page: str) -> None:
    """A group's page, kept from the last build when made of the same rows (`ErrorRows.fingerprint`)."""
    inputs = rows.fingerprint(group, heading, index_page)
    if out.reusable(f"group:{group.href}", inputs, [group.href]):
        rows.keep(group)
    else:
        out.write(group.href, render_page("group.html", group.href, group=group, rows=rows.of(group),
                                          heading=heading, index_page=index_page, newest=None))


def _write_diffs(out: SiteOutput, catalogue: Catalogue) -> int:
    """The changes page, and one page per consecutive pair of snapshots."""
    out.write("diffs/index.html", render_page("diffs.html", "diffs/index.html", diffs=catalogue.diffs,
                                              newest=catalogue.newest))
    for diff in catalogue.diffs:
        page = diff_path(diff.old.label, diff.new.label)
        out.write(page, render_page("diff.html", page, diff=diff, cards=catalogue.cards, newest=catalogue.newest))
    return 1 + len(catalogue.diffs)


def _grouped(cards: Iterable[Card], key: Callable[[Card], str]) -> dict[str, list[Card]]:
    groups: dict[str, list[Card]] = defaultdict(list)
    for card in cards:
        groups[key(card)].append(card)
    return groups


def _sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (c.location.path, c.location.lineno, c.id)))


def _by_module(cards: list[Card]) -> list[Group]:
    return [Group(name, f"modules/{slug(name)}.html", _sorted_cards(members))
            for name, members in sorted(_grouped(cards, lambda c: c.module).items())]


def _by_class(cards: list[Card]) -> list[Group]:
    groups = _grouped(cards, lambda c: c.exc_class)
    return [Group(name, f"classes/{slug(name)}.html", _sorted_cards(groups[name]))
            for name in sorted(groups, key=lambda n: (-len(groups[n]), n))]


def _by_status(cards: list[Card]) -> list[Group]:
    groups = _grouped(cards, lambda c: c.status)
    return [Group(status, f"status/{status}.html", _sorted_cards(groups.get(status, ())), _STATUS_NOTES[status])
            for status in STATUS_ORDER]


# Files ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Record:
    """A catalogue-wide record made ready to write (it may be made on the second core)."""

    page: str
    fingerprint: str
    text: str | None  # checked against its schema; None where the last build wrote the same content


def _record(page: str, data: dict, schema: str, config: SiteConfig, previous: Mapping[str, str], *,
            compact: bool = False) -> Record:
    """`data` as a record: checked and written out only if the last build's (`previous` fingerprints) differs."""
    fingerprint = records.fingerprint(data)
    if previous.get(f"record:{page}") == fingerprint:
        return Record(page, fingerprint, None)
    if config.validate:
        records.validate(data, schema, name=page)
    return Record(page, fingerprint, records.dumps(data, compact=compact))


def _write_record(out: SiteOutput, record: Record, again: Callable[[], Record]) -> str | Callable[[], str]:
    """Write a record, or keep the last build's; returns its text, or what reads it back.

    `again` makes it whole, for when the last build's file is gone.
    """
    if out.reusable(f"record:{record.page}", record.fingerprint, [record.page]):
        return partial(out.read, record.page)
    if record.text is None:
        record = again()
    out.write(record.page, record.text)
    return record.text


def _catalogue_records(catalogue: Catalogue, config: SiteConfig, previous: Mapping[str, str]) -> list[Record]:
    """api/errors.json, api/lookup.json and api/explain.json, which share the catalogue's lookup index, and
    api/names.json."""
    index = catalogue_index(catalogue)
    return [
        _record(INDEX_PATH, records.index_record(catalogue), records.INDEX_SCHEMA, config, previous),
        _record(LOOKUP_PATH, lookup_record(catalogue, index), LOOKUP_SCHEMA, config, previous, compact=True),
        _record(NAMES_PATH, names_record(catalogue), NAMES_SCHEMA, config, previous, compact=True),
        _record(EXPLAIN_PATH, explain_record(catalogue, index, base_url=config.base_url), EXPLAIN_SCHEMA, config,
                previous, compact=True),
    ]


def _made_again(page: str, catalogue: Catalogue, config: SiteConfig) -> Record:
    return next(record for record in _catalogue_records(catalogue, config, {}) if record.page == page)


def _copy_static(out: SiteOutput) -> None:
    static = resources.files("jax_errors.site_gen") / "static"
    for item in sorted(static.iterdir(), key=lambda i: i.name):
        if item.is_file():
            out.write(f"static/{item.name}", item.read_bytes())


def _ticker(progress: Progress | None, total: int):
    done = 0

    def tick(what: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(min(done, total), total, what)
    return tick
