"""autoplayer.files.write_atomically: all of the new content or the old file untouched."""

from __future__ import annotations

import os

import pytest

from autoplayer import files
from autoplayer.errors import UserError
from autoplayer.files import write_atomically


def leftovers(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_text_bytes_and_writer_functions(tmp_path):
    write_atomically(tmp_path / "a.txt", "é\nline\r\n")
    assert (tmp_path / "a.txt").read_bytes() == "é\nline\r\n".encode()
    write_atomically(tmp_path / "b.bin", b"\x00\xff")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\xff"
    write_atomically(str(tmp_path / "c.bin"), lambda out: out.write(b"abc"))
    assert (tmp_path / "c.bin").read_bytes() == b"abc"
    assert leftovers(tmp_path) == ["a.txt", "b.bin", "c.bin"]


def test_new_file_gets_the_umask_mode_and_a_replaced_file_keeps_its_own(tmp_path):
    umask = os.umask(0o027)
    try:
        write_atomically(tmp_path / "new", "x")
    finally:
        os.umask(umask)
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o640
    old = tmp_path / "old"
    old.write_text("before")
    old.chmod(0o600)
    write_atomically(old, "after")
    assert old.read_text() == "after" and old.stat().st_mode & 0o777 == 0o600


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "keep.png"
    target.write_bytes(b"precious")

    def half_then_fail(out):
        out.write(b"half")
        raise ValueError("encoder broke")

    with pytest.raises(ValueError, match="encoder broke"):
        write_atomically(target, half_then_fail)
    assert target.read_bytes() == b"precious" and leftovers(tmp_path) == ["keep.png"]


def test_os_errors_are_one_line_user_errors_naming_the_file(tmp_path, monkeypatch):
    target = tmp_path / "keep.txt"
    target.write_text("precious")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full_disk)
    with pytest.raises(UserError, match=f"^{target}: cannot write: No space left on device$"):
        write_atomically(target, "new")
    monkeypatch.undo()
    assert target.read_text() == "precious" and leftovers(tmp_path) == ["keep.txt"]
    with pytest.raises(UserError, match="cannot write: it is a directory"):
        write_atomically(tmp_path, "x")
    with pytest.raises(UserError, match="cannot write: No such file or directory"):
        write_atomically(tmp_path / "no" / "dir" / "x.txt", "x")
