"""A GNS3 portable project archive checked before GNS3 sees it.

GNS3 3.0.6 extracts an imported project with ``ZipFile.extractall`` and then recreates every entry
whose Unix mode says "symlink" by joining the entry's raw name to the project folder: a hostile
archive can replace a file outside the projects folder with a link, point links at the user's
files, fill the disk with a small file that inflates to gigabytes, or have GNS3 move its
``images/`` into the user's image library and unpack nested ``snapshots/`` archives unchecked.

`check_project_archive` reads the archive the way GNS3 will (Python's zipfile, the central
directory) and refuses, naming the entry: a link, a device file, a fifo or any entry that is not
a plain file or folder; an absolute name, a ``..`` or empty part, a backslash, a drive letter, a
control character; two entries that land on the same path; an encrypted entry or a compression
other than stored/deflated; ``images/`` and ``snapshots/``; and more files or more bytes than the
limits. Every entry is decompressed through a bounded read that counts the real bytes (declared
sizes are not trusted), so a bomb is refused once the limit is crossed, before it is inflated.
Nothing is written anywhere: the archive is only read in memory.
"""

from __future__ import annotations

import io
import json
import stat
import struct
import unicodedata
import uuid
import zipfile
from dataclasses import dataclass

from gns3_copilot_desktop.core.errors import CopilotError

MAX_FILES = 5_000
MAX_TOTAL_BYTES = 256 * 1024 * 1024
"""A VPCS, IOS or link lab exported without images is a few MiB; this leaves room for router
flash and NVRAM files, not for a disk's worth of zeros."""
_MAX_NAME_BYTES = 1024
_MAX_PART_BYTES = 255
_CD_BYTES_PER_ENTRY = 1200
"""The central directory is read whole by zipfile: its size bounds the memory of the listing."""
_CHUNK = 64 * 1024
_MAX_TOPOLOGY = 16 * 1024 * 1024
_ALLOWED_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
_REFUSED_TOP = {
    "images": "images are not imported from a shared file",
    "snapshots": "snapshots are not imported from a shared file",
}
_EOCD = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_EOCD = b"PK\x06\x06"


class ArchiveRefusedError(CopilotError):
    """The project archive holds something GNS3 must not unpack; nothing was imported."""


@dataclass(frozen=True)
class ArchiveLimits:
    """How much an imported project may unpack to."""

    max_files: int = MAX_FILES
    max_total_bytes: int = MAX_TOTAL_BYTES


@dataclass(frozen=True)
class CheckedArchive:
    """A project archive that passed `check_project_archive`: the only thing
    `Gns3Client.import_project` accepts, so no import path can skip the check."""

    data: bytes
    files: int
    total_bytes: int


def check_project_archive(data: bytes, limits: ArchiveLimits | None = None) -> CheckedArchive:
    """Check ``data`` (a GNS3 portable project) entry by entry; `ArchiveRefusedError` naming the
    first entry that would write outside the project, be anything but a plain file or folder, or
    exceed the limits. CPU-bound: run it in a thread."""
    limits = limits or ArchiveLimits()
    _check_directory_size(data, limits)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise ArchiveRefusedError("The project archive is not a valid zip file.") from exc
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.max_files:
            raise ArchiveRefusedError(
                f"The project archive has {len(infos)} entries; at most {limits.max_files} are "
                "imported. Nothing was imported."
            )
        paths = _Paths()
        for info in infos:
            _check_entry(info, paths)
        if "project.gns3" not in paths.files:
            raise ArchiveRefusedError("The project archive has no project.gns3 file.")
        total = 0
        for info in infos:
            total = _read_bounded(archive, info, total, limits)
        _check_topology(archive.getinfo(paths.files["project.gns3"]), archive)
    return CheckedArchive(data=data, files=len(infos), total_bytes=total)


def _refuse(name: str, why: str) -> ArchiveRefusedError:
    shown = name.encode("unicode_escape").decode("ascii")[:200]
    return ArchiveRefusedError(
        f"The project archive was refused: the entry “{shown}” {why}. Nothing was imported."
    )


class _Paths:
    """The paths seen so far, folded the way a case-insensitive file system folds them."""

    def __init__(self) -> None:
        self.entries: dict[str, str] = {}
        self.files: dict[str, str] = {}
        self.folders: dict[str, str] = {}


def _check_entry(info: zipfile.ZipInfo, paths: _Paths) -> None:
    name = info.filename
    _check_kind(info)
    if info.flag_bits & 0x1:
        raise _refuse(name, "is encrypted")
    if info.compress_type not in _ALLOWED_METHODS:
        raise _refuse(name, f"uses compression method {info.compress_type} (not stored/deflated)")
    parts = _parts(name)
    if parts[0] in _REFUSED_TOP:
        raise _refuse(name, f"is refused: {_REFUSED_TOP[parts[0]]}")
    # the same path twice (or differing only in case or Unicode form, which is one file on
    # macOS and Windows): a later entry would overwrite an earlier, checked one
    folded = [unicodedata.normalize("NFC", p).casefold() for p in parts]
    key = "/".join(folded)
    if key in paths.entries:
        raise _refuse(name, f"lands on the same path as “{paths.entries[key]}”")
    for depth in range(1, len(folded)):
        parent = "/".join(folded[:depth])
        if parent in paths.files:
            raise _refuse(name, f"is inside “{paths.files[parent]}”, which is a file")
        paths.folders.setdefault(parent, name)
    is_file = not name.endswith("/")
    if is_file and key in paths.folders:
        raise _refuse(name, f"is a file where “{paths.folders[key]}” has a folder")
    paths.entries[key] = name
    if is_file:
        paths.files[key] = name


def _check_kind(info: zipfile.ZipInfo) -> None:
    """Only plain files and folders. GNS3 reads the mode whatever system wrote the entry."""
    mode = info.external_attr >> 16
    kind = stat.S_IFMT(mode)
    if kind in (0, stat.S_IFREG, stat.S_IFDIR):
        return
    names = {
        stat.S_IFLNK: "is a symbolic link",
        stat.S_IFCHR: "is a character device file",
        stat.S_IFBLK: "is a block device file",
        stat.S_IFIFO: "is a named pipe (fifo)",
        stat.S_IFSOCK: "is a socket",
    }
    raise _refuse(info.filename, names.get(kind, f"is not a plain file (mode {mode:o})"))


def _parts(name: str) -> list[str]:
    if not name or name.startswith("/"):
        raise _refuse(name, "has an absolute path")
    if "\\" in name:
        raise _refuse(name, "has a backslash (a folder separator on Windows)")
    if len(name.encode("utf-8", "surrogatepass")) > _MAX_NAME_BYTES:
        raise _refuse(name, "has a name too long")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        raise _refuse(name, "has a control character in its name")
    parts = name[:-1].split("/") if name.endswith("/") else name.split("/")
    for part in parts:
        if part in ("", ".", ".."):
            raise _refuse(name, "has an empty, “.” or “..” part in its path")
        if ":" in part:
            raise _refuse(name, "has a colon (a drive or stream on Windows)")
        if len(part.encode("utf-8", "surrogatepass")) > _MAX_PART_BYTES:
            raise _refuse(name, "has a name too long")
    return parts


def _read_bounded(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, total: int, limits: ArchiveLimits
) -> int:
    """Decompress one entry in chunks, counting the bytes it really gives; refuse it as soon as
    the archive's total crosses the limit, or when its size or checksum is not the declared one."""
    if total + info.file_size > limits.max_total_bytes:
        raise _total_refused(info.filename, limits)
    read = 0
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                read += len(chunk)
                if total + read > limits.max_total_bytes:
                    raise _total_refused(info.filename, limits)
    except (zipfile.BadZipFile, NotImplementedError, ValueError, EOFError, OSError) as exc:
        raise _refuse(info.filename, f"cannot be read ({exc})") from exc
    if read != info.file_size:
        raise _refuse(info.filename, "is not the size its header declares")
    return total + read


def _check_topology(info: zipfile.ZipInfo, archive: zipfile.ZipFile) -> None:
    """GNS3 joins each node's id from project.gns3 to a folder path and moves that folder: an id
    like ``../../../.ssh`` would move the user's folder into the project. Ids must be UUIDs."""
    if info.filename != "project.gns3":
        raise _refuse(info.filename, "is not spelled project.gns3")
    if info.file_size > _MAX_TOPOLOGY:
        raise _refuse(info.filename, "is too large for a project file")
    try:
        topology = json.loads(archive.read(info))
        nodes = topology["topology"]["nodes"]
        ids = [node.get("node_id") for node in nodes]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise _refuse(info.filename, "is not a GNS3 project file") from exc
    for node_id in ids:
        if node_id is None:
            continue
        try:
            ok = isinstance(node_id, str) and str(uuid.UUID(node_id)) == node_id.lower()
        except ValueError:
            ok = False
        if not ok:
            shown = str(node_id).encode("unicode_escape").decode("ascii")[:80]
            raise _refuse(info.filename, f"names a node id that is not a UUID ({shown})")


def _total_refused(name: str, limits: ArchiveLimits) -> ArchiveRefusedError:
    mib = limits.max_total_bytes // (1024 * 1024)
    return _refuse(name, f"takes the project beyond {mib} MiB unpacked")


def _check_directory_size(data: bytes, limits: ArchiveLimits) -> None:
    """Refuse a central directory too large for ``max_files`` entries before zipfile reads it
    whole (a few MiB of tiny entries would otherwise become millions of objects)."""
    end = data.rfind(_EOCD, max(0, len(data) - 22 - 65_535))
    if end < 0 or end + 22 > len(data):
        raise ArchiveRefusedError("The project archive is not a valid zip file.")
    (cd_size,) = struct.unpack_from("<I", data, end + 12)
    locator = end - 20
    if locator >= 0 and data[locator : locator + 4] == _ZIP64_LOCATOR:
        (offset,) = struct.unpack_from("<Q", data, locator + 8)
        if offset + 56 <= len(data) and data[offset : offset + 4] == _ZIP64_EOCD:
            (cd_size,) = struct.unpack_from("<Q", data, offset + 40)
    if cd_size > limits.max_files * _CD_BYTES_PER_ENTRY:
        raise ArchiveRefusedError(
            f"The project archive lists too many entries; at most {limits.max_files} are "
            "imported. Nothing was imported."
        )
