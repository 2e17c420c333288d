"""The bulk download `api/all.zip`: every JSON record, deflated, with fixed dates and modes (same input, same bytes).

A card whose record did not change since the last build keeps its compressed bytes, copied from
the last build's archive: deflating every record again is most of a refresh's cost of the archive.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Callable, Collection, Mapping

from jax_errors.exceptions import SiteError

# Entries get this date, so the archive's bytes depend on its contents alone.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
_DOS_TIME, _DOS_DATE = 0, (ZIP_EPOCH[0] - 1980) << 9 | ZIP_EPOCH[1] << 5 | ZIP_EPOCH[2]
_VERSION = 20  # deflate, no zip64
_MADE_ON_UNIX = 3 << 8
_FILE_MODE = 0o644 << 16
_UTF8_NAME = 0x800  # general purpose flag: the name is UTF-8 (set, as zipfile does, for a non-ASCII one)
_MAX_ENTRIES = 0xFFFF  # beyond it a zip needs zip64 records


def zip_bytes(entries: Mapping[str, str | Callable[[], str]], *, previous: bytes | None = None,
              unchanged: Collection[str] = ()) -> bytes:
    """A zip of `entries` (name -> text, or what reads it), sorted by name.

    `unchanged` names entries that `previous` (the archive the last build wrote) holds with the same
    text: their compressed bytes are copied from it, and their text is read only if it lacks them.

    Raises:
        SiteError: more entries than a zip without zip64 holds.
    """
    if len(entries) > _MAX_ENTRIES:
        raise SiteError(f"{len(entries):,} records do not fit one zip (at most {_MAX_ENTRIES:,})")
    kept = _raw_entries(previous, unchanged) if previous and unchanged else {}
    body, directory = io.BytesIO(), io.BytesIO()
    for name in sorted(entries):
        crc, size, compressed = kept.get(name) or _deflated(_text(entries[name]).encode("utf-8"))
        encoded = name.encode("utf-8")
        flags = 0 if name.isascii() else _UTF8_NAME
        directory.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, _MADE_ON_UNIX | _VERSION, _VERSION, flags,
                                    zipfile.ZIP_DEFLATED, _DOS_TIME, _DOS_DATE, crc, len(compressed), size,
                                    len(encoded), 0, 0, 0, 0, _FILE_MODE, body.tell()) + encoded)
        body.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, _VERSION, flags, zipfile.ZIP_DEFLATED, _DOS_TIME, _DOS_DATE,
                               crc, len(compressed), size, len(encoded), 0) + encoded + compressed)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), directory.tell(), body.tell(), 0)
    return body.getvalue() + directory.getvalue() + end


def _text(entry: str | Callable[[], str]) -> str:
    return entry if isinstance(entry, str) else entry()


def _deflated(data: bytes) -> tuple[int, int, bytes]:
    compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    return zlib.crc32(data), len(data), compressor.compress(data) + compressor.flush()


def _raw_entries(archive: bytes, names: Collection[str]) -> dict[str, tuple[int, int, bytes]]:
    """The CRC, size and compressed bytes of the `names` that `archive` holds deflated; none of a broken archive."""
    try:
        with zipfile.ZipFile(io.BytesIO(archive)) as previous:
            infos = [info for info in previous.infolist() if info.filename in names]
    except (zipfile.BadZipFile, OSError, ValueError):
        return {}
    raw = {}
    for info in infos:
        if info.compress_type != zipfile.ZIP_DEFLATED:
            continue
        name_length, extra_length = struct.unpack_from("<HH", archive, info.header_offset + 26)
        start = info.header_offset + 30 + name_length + extra_length
        raw[info.filename] = (info.CRC, info.file_size, archive[start:start + info.compress_size])
    return raw
