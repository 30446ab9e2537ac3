"""The project archive check on its own: every hostile entry form is refused with the entry named,
the sizes counted are the bytes really decompressed, and a GNS3 export passes."""

from __future__ import annotations

import io
import json
import stat
import struct
import time
import warnings
import zipfile

import pytest

from gns3_copilot_desktop.core.gns3.archive_check import (
    ArchiveLimits,
    ArchiveRefusedError,
    check_project_archive,
)

NODE = "0b7b3c9e-8d5e-4d1b-9c55-2f6b8a1e4c11"
TOPOLOGY = {"topology": {"nodes": [{"node_id": NODE}], "links": [], "drawings": []}}


def _info(name: str, mode: int = stat.S_IFREG | 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = mode << 16
    info.create_system = 3
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def archive(*extra: tuple[zipfile.ZipInfo | str, bytes], topology: object = TOPOLOGY) -> bytes:
    """A GNS3-shaped project archive plus ``extra`` entries."""
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate names tests make
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(_info("project.gns3"), json.dumps(topology))
            z.writestr(_info(f"project-files/vpcs/{NODE}/startup.vpc"), "ip 10.0.0.1/24\n")
            for entry, data in extra:
                z.writestr(entry if isinstance(entry, zipfile.ZipInfo) else _info(entry), data)
    return out.getvalue()


def test_a_plain_project_passes_and_its_real_size_is_counted() -> None:
    checked = check_project_archive(archive(("project-files/notes.txt", b"x" * 1000)))
    assert checked.files == 3
    assert checked.total_bytes == len(json.dumps(TOPOLOGY)) + len("ip 10.0.0.1/24\n") + 1000


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        (_info("../../x", stat.S_IFLNK | 0o777), "is a symbolic link"),
        (_info("project-files/link", stat.S_IFLNK | 0o777), "is a symbolic link"),
        (_info("project-files/ttyS0", stat.S_IFCHR | 0o600), "character device"),
        (_info("project-files/sda", stat.S_IFBLK | 0o600), "block device"),
        (_info("project-files/pipe", stat.S_IFIFO | 0o600), "named pipe"),
        (_info("project-files/sock", stat.S_IFSOCK | 0o600), "is a socket"),
        (_info("../../outside.txt"), "“..” part"),
        (_info("project-files/../../../x"), "“..” part"),
        (_info("project-files//x"), "empty"),
        (_info("/etc/cron.d/x"), "absolute path"),
        (_info("..\\..\\x"), "backslash"),
        (_info("C:/Windows/x"), "colon"),
        (_info("project-files/a\nb"), "control character"),
        (_info("project-files/a\u202eb"), "control character"),
        (_info("images/QEMU/evil.qcow2"), "images are not imported"),
        (_info("snapshots/s.gns3project"), "snapshots are not imported"),
        (_info(f"project-files/vpcs/{NODE}/startup.vpc"), "same path"),
        (_info(f"PROJECT-FILES/vpcs/{NODE.upper()}/startup.vpc"), "same path"),
        (_info("project.gns3/inside"), "which is a file"),
    ],
)
def test_each_hostile_entry_is_refused_by_name(entry: zipfile.ZipInfo, why: str) -> None:
    with pytest.raises(ArchiveRefusedError, match=why) as caught:
        check_project_archive(archive((entry, b"/home/user/.bashrc")))
    shown = entry.filename.encode("unicode_escape").decode("ascii")
    assert f"“{shown}”" in caught.value.user_message
    assert "Nothing was imported" in caught.value.user_message


def test_a_symlink_written_by_a_dos_system_is_still_a_symlink() -> None:
    """GNS3 reads the mode whatever system the entry claims to come from."""
    entry = _info("project-files/link", stat.S_IFLNK | 0o777)
    entry.create_system = 0
    with pytest.raises(ArchiveRefusedError, match="symbolic link"):
        check_project_archive(archive((entry, b"/etc/passwd")))


def test_a_node_id_that_is_a_path_is_refused() -> None:
    """GNS3 moves ``project-files/<type>/<node_id>``: a path as id moves the user's folder."""
    for node_id in ("../../../../root/.ssh", "a/b", 7):
        hostile = {"topology": {"nodes": [{"node_id": node_id}], "links": [], "drawings": []}}
        with pytest.raises(ArchiveRefusedError, match="not a UUID"):
            check_project_archive(archive(topology=hostile))
    with pytest.raises(ArchiveRefusedError, match="not a GNS3 project file"):
        check_project_archive(archive(topology=["no", "topology"]))


def test_no_project_file_encrypted_or_other_compression_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("readme.txt", "hi")
    with pytest.raises(ArchiveRefusedError, match=r"no project\.gns3"):
        check_project_archive(out.getvalue())
    bz = _info("project-files/x.bin")
    bz.compress_type = zipfile.ZIP_BZIP2
    with pytest.raises(ArchiveRefusedError, match="compression method 12"):
        check_project_archive(archive((bz, b"x")))
    for junk in (b"", b"PK\x05\x06", b"not a zip at all" * 10):
        with pytest.raises(ArchiveRefusedError, match="not a valid zip"):
            check_project_archive(junk)


def test_too_many_files_are_refused() -> None:
    many = [(f"project-files/f{i}", b"") for i in range(60)]
    with pytest.raises(ArchiveRefusedError, match="62 entries; at most 50"):
        check_project_archive(archive(*many), ArchiveLimits(max_files=50))


def test_a_huge_listing_is_refused_before_zipfile_reads_it() -> None:
    many = [(f"project-files/{i:06d}", b"") for i in range(3000)]
    with pytest.raises(ArchiveRefusedError, match="too many entries"):
        check_project_archive(archive(*many), ArchiveLimits(max_files=10))


def bomb(size: int) -> bytes:
    """A project archive with one deflated entry of ``size`` zero bytes (about 1000:1)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(_info("project.gns3"), json.dumps(TOPOLOGY))
        with z.open(_info("project-files/bomb.bin"), "w", force_zip64=True) as member:
            chunk = bytes(1024 * 1024)
            for _ in range(size // len(chunk)):
                member.write(chunk)
    return out.getvalue()


def test_a_zip_bomb_is_refused_once_the_limit_is_crossed() -> None:
    data = bomb(64 * 1024 * 1024)
    assert len(data) < 200 * 1024
    started = time.monotonic()
    with pytest.raises(
        ArchiveRefusedError, match=r"“project-files/bomb.bin” takes .* beyond 16 MiB"
    ):
        check_project_archive(data, ArchiveLimits(max_total_bytes=16 * 1024 * 1024))
    assert time.monotonic() - started < 5


def _lie_about_size(data: bytes, name: bytes, declared: int) -> bytes:
    """``data`` with the uncompressed size of entry ``name`` set to ``declared`` in both the
    local header and the central directory (the CRC left as it was)."""
    out = bytearray(data)
    local = out.find(b"PK\x03\x04")
    while local >= 0:
        (name_len,) = struct.unpack_from("<H", out, local + 26)
        if out[local + 30 : local + 30 + name_len] == name:
            struct.pack_into("<I", out, local + 22, declared)
        local = out.find(b"PK\x03\x04", local + 4)
    central = out.find(b"PK\x01\x02")
    while central >= 0:
        (name_len,) = struct.unpack_from("<H", out, central + 28)
        if out[central + 46 : central + 46 + name_len] == name:
            struct.pack_into("<I", out, central + 24, declared)
        central = out.find(b"PK\x01\x02", central + 4)
    return bytes(out)


def test_declared_sizes_are_not_trusted() -> None:
    """An entry that says 10 bytes and inflates to 8 MiB: the check reads what it really gives
    and refuses it; one that says more than it holds is refused too."""
    real = 8 * 1024 * 1024
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(_info("project.gns3"), json.dumps(TOPOLOGY))
        z.writestr(_info("project-files/liar.bin"), bytes(real))
    honest = out.getvalue()
    assert check_project_archive(honest).total_bytes > real
    for declared in (10, real + 100):
        lying = _lie_about_size(honest, b"project-files/liar.bin", declared)
        assert (
            zipfile.ZipFile(io.BytesIO(lying)).getinfo("project-files/liar.bin").file_size
            == declared
        )
        with pytest.raises(ArchiveRefusedError, match=r"“project-files/liar\.bin”"):
            check_project_archive(lying)
