"""The bulk archive: a plain zip any reader opens, the same bytes whether records are deflated anew or copied."""

import io
import zipfile

import pytest

from jax_errors.exceptions import SiteError
from jax_errors.site_gen.archive import ZIP_EPOCH, zip_bytes

ENTRIES = {"errors.json": '{"errors": []}\n', "errors/b.json": '{"id": "b"}\n' * 50, "errors/a.json": "{}\n"}


def test_the_archive_opens_in_zipfile_sorted_dated_and_whole():
    with zipfile.ZipFile(io.BytesIO(zip_bytes(ENTRIES))) as archive:
        assert archive.testzip() is None
        assert archive.namelist() == sorted(ENTRIES)
        assert {name: archive.read(name).decode() for name in archive.namelist()} == ENTRIES
        assert {(info.date_time, info.external_attr >> 16, info.compress_type) for info in archive.infolist()} == {
            (ZIP_EPOCH, 0o644, zipfile.ZIP_DEFLATED)}


def test_records_copied_from_the_last_archive_are_not_read_and_give_the_same_bytes():
    previous = zip_bytes(ENTRIES)
    changed = dict(ENTRIES, **{"errors/a.json": '{"id": "a"}\n', "errors/c.json": "[]\n"})

    def unread(name):
        def read():
            raise AssertionError(f"{name} was read, not copied")
        return read

    lazy = dict(changed, **{name: unread(name) for name in ("errors.json", "errors/b.json")})
    copied = zip_bytes(lazy, previous=previous, unchanged={"errors.json", "errors/b.json"})
    assert copied == zip_bytes(changed)
    with zipfile.ZipFile(io.BytesIO(copied)) as archive:
        assert archive.testzip() is None and archive.read("errors/a.json") == b'{"id": "a"}\n'


def test_a_broken_last_archive_is_not_copied_from_and_the_records_are_read():
    lazy = {name: (lambda text=text: text) for name, text in ENTRIES.items()}
    assert zip_bytes(lazy, previous=b"PK not a zip", unchanged=set(ENTRIES)) == zip_bytes(ENTRIES)


def test_a_name_beyond_ascii_is_flagged_utf8_as_zipfile_does():
    with zipfile.ZipFile(io.BytesIO(zip_bytes({"errors/é.json": "{}"}))) as archive:
        assert archive.namelist() == ["errors/é.json"] and archive.infolist()[0].flag_bits & 0x800


def test_more_records_than_a_zip_without_zip64_holds_is_an_error():
    with pytest.raises(SiteError, match="do not fit one zip"):
        zip_bytes({f"errors/{i}.json": "{}" for i in range(0x10000)})
