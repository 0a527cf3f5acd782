"""autoplayer.files.write_output: all of the new content or the old file untouched."""

from __future__ import annotations

import io
import os
import stat
import threading

import pytest

from autoplayer import files
from autoplayer.errors import InputError, UserError
from autoplayer.files import write_output


def leftovers(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_text_bytes_and_writer_functions(tmp_path):
    write_output(tmp_path / "a.txt", "é\nline\r\n")
    assert (tmp_path / "a.txt").read_bytes() == "é\nline\r\n".encode()
    write_output(tmp_path / "b.bin", b"\x00\xff")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\xff"
    write_output(str(tmp_path / "c.bin"), lambda out: out.write(b"abc"))
    assert (tmp_path / "c.bin").read_bytes() == b"abc"
    assert leftovers(tmp_path) == ["a.txt", "b.bin", "c.bin"]


def test_new_file_gets_the_umask_mode_and_a_replaced_file_keeps_its_own(tmp_path):
    umask = os.umask(0o027)
    try:
        write_output(tmp_path / "new", "x")
    finally:
        os.umask(umask)
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o640
    old = tmp_path / "old"
    old.write_text("before")
    old.chmod(0o600)
    write_output(old, "after")
    assert old.read_text() == "after" and old.stat().st_mode & 0o777 == 0o600


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "keep.png"
    target.write_bytes(b"precious")

    def half_then_fail(out):
        out.write(b"half")
        raise ValueError("encoder broke")

    with pytest.raises(ValueError, match="encoder broke"):
        write_output(target, half_then_fail)
    assert target.read_bytes() == b"precious" and leftovers(tmp_path) == ["keep.png"]


def test_os_errors_are_one_line_user_errors_naming_the_file(tmp_path, monkeypatch):
    target = tmp_path / "keep.txt"
    target.write_text("precious")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    with pytest.raises(UserError, match=f"^{target}: cannot write: No space left on device$"):
        write_output(target, "new")
    monkeypatch.undo()
    assert target.read_text() == "precious" and leftovers(tmp_path) == ["keep.txt"]
    with pytest.raises(UserError, match="cannot write: it is a directory"):
        write_output(tmp_path, "x")
    with pytest.raises(UserError, match="cannot write: No such file or directory"):
        write_output(tmp_path / "no" / "dir" / "x.txt", "x")


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    folder = tmp_path / "real"
    folder.mkdir()
    target = folder / "puzzle.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_output(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new" and leftovers(folder) == ["puzzle.txt"]
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(folder / "made.txt")
    write_output(dangling, "made")
    assert dangling.is_symlink() and (folder / "made.txt").read_text() == "made"


def test_a_link_whose_folder_refuses_new_files_changes_its_target_in_place(tmp_path, monkeypatch):
    target = tmp_path / "target.txt"
    target.write_text("a longer old text")
    link = tmp_path / "link.txt"
    link.symlink_to(target)

    def refused(**_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", refused)
    write_output(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    with pytest.raises(files.OutputError, match="Permission denied"):
        write_output(tmp_path / "plain.txt", "x")  # a plain file has no other way in


def test_devices_and_pipes_are_written_directly(tmp_path):
    write_output("/dev/null", "gone")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_output(fifo, b"through the pipe")
    reader.join(5)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_full_device_is_one_line_with_the_output_exit_code():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with pytest.raises(files.OutputError, match=r"^/dev/full: cannot write: No space left") as err:
        write_output("/dev/full", "x" * 100_000)
    assert err.value.exit_code == 74


def test_dash_is_standard_output_and_standard_input(capfdbinary, monkeypatch):
    write_output("-", "to stdout\n")
    assert capfdbinary.readouterr().out == b"to stdout\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"from stdin")))
    assert files.read_input("-") == b"from stdin"


def test_reads_are_bounded_and_name_the_file(tmp_path):
    with pytest.raises(InputError, match=r"^/dev/zero: larger than the 1 MiB input limit "
                                         r"\(not a regular file"):
        files.read_input("/dev/zero", limit=1024 * 1024)
    big = tmp_path / "big.txt"
    big.write_bytes(b"1" * 101)
    with pytest.raises(InputError, match=r"big.txt: larger than the 100 bytes input limit$"):
        files.read_input(big, limit=100)
    with pytest.raises(InputError, match="File name too long"):
        files.read_input(tmp_path / ("a" * 300))
    with pytest.raises(InputError, match="is a directory"):
        files.read_input(tmp_path)
    with pytest.raises(InputError, match="NUL byte"):
        files.read_input("a\0b")
    assert not files.exists("a" * 5000) and not files.exists("a\0b")
