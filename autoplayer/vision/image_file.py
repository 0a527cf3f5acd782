"""Screenshot files: the size the header declares is checked before a pixel is decoded.

A PNG of a few hundred bytes can declare 20000x20000 pixels: decoding it would take a
gigabyte and many seconds, and Pillow itself prints a warning or raises its own error
past its limit. So the header's size is checked against `limits.MAX_IMAGE_PIXELS` and
`limits.MIN_IMAGE_SIDE` first, with Pillow's own check off, and what is decoded is any
common screenshot format in any mode (palette, greyscale, 16-bit, alpha, CMYK, the first
frame of an animation) made plain 8-bit RGB. Every failure is one `InputError` naming
the file.
"""

from __future__ import annotations

import io
import os
import stat
import struct
import sys
import warnings
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from autoplayer.errors import InputError
from autoplayer.limits import MAX_IMAGE_PIXELS, MAX_INPUT_BYTES, MIN_IMAGE_SIDE, shown

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

FORMATS = ("PNG", "JPEG", "BMP", "GIF", "WEBP", "PPM")
"""Formats a screenshot comes in; no others are tried: Pillow's EPS reader runs
Ghostscript, and TIFF's library writes its complaints about a damaged file straight to
the terminal, past any message of ours."""

_BROKEN = (OSError, ValueError, EOFError, SyntaxError, IndexError, struct.error, zlib.error)
"""What Pillow's decoders raise on a truncated or corrupt file (beyond the header)."""


def load_image(path: str | Path) -> np.ndarray:
    """The picture in an image file as an H×W×3 uint8 RGB array, or an `InputError`."""
    import numpy as np
    from PIL import Image, UnidentifiedImageError

    try:
        with _quiet_pillow(), Image.open(_source(path), formats=FORMATS) as im:
            check_size(im.size)
            return np.ascontiguousarray(_rgb(im))
    except InputError as err:
        raise err.at(path) from None
    except FileNotFoundError:
        raise InputError("no such file", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not an image", path=path) from None
    except UnidentifiedImageError:
        raise InputError(f"not an image in a format read here ({', '.join(FORMATS)})",
                         path=path) from None
    except _BROKEN as err:
        if isinstance(err, OSError) and err.errno is not None:  # the file, not its content
            raise InputError(f"cannot read: {err.strerror}", path=path) from None
        raise InputError(f"cannot decode the image: {_reason(err)}", path=path) from None


def _source(path: str | Path) -> str | Path | io.BytesIO:
    """What Pillow opens: a regular file by name (read lazily, its header first); standard
    input (`-`), a pipe or a device read whole first, as Pillow would (it must seek), but
    at most `MAX_INPUT_BYTES` of it: an endless pipe would otherwise fill the memory."""
    if str(path) == "-":
        return _bounded(sys.stdin.buffer)
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):  # a directory: opening it says so
        return path
    with open(path, "rb") as stream:
        return _bounded(stream)


def _bounded(stream: BinaryIO) -> io.BytesIO:
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"more than {MAX_INPUT_BYTES:,} bytes from a pipe or device; save "
                         "the picture to a file")
    return io.BytesIO(data)


def check_size(size: tuple[int, int]) -> None:
    """Refuse a picture too large to decode or too small to hold a board, by its header."""
    width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        raise InputError(f"the image is {width}x{height}, {width * height:,} pixels; at most "
                         f"{MAX_IMAGE_PIXELS:,} are read")
    if min(width, height) < MIN_IMAGE_SIDE:
        raise InputError(f"the image is {width}x{height} pixels; a screenshot of a board is "
                         f"at least {MIN_IMAGE_SIDE}x{MIN_IMAGE_SIDE}")


@contextmanager
def _quiet_pillow() -> Iterator[None]:
    """Pillow's own size limit off (ours is lower and checked first, with the size in the
    message) and its warnings unprinted: what they warn of is handled or refused here."""
    from PIL import Image

    before = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        Image.MAX_IMAGE_PIXELS = before


def _rgb(im: Image.Image) -> np.ndarray:
    """The first frame as 8-bit RGB: deep greys scaled down, transparency over white."""
    import numpy as np
    from PIL import Image

    if im.mode.startswith("I"):  # 16-bit PNG and PGM greys; 8-bit data in 16 bits stays
        grey = np.asarray(im, dtype=np.float32)
        top = 255.0 if grey.max(initial=0) <= 255 else 65535.0
        grey = np.clip(grey * (255.0 / top), 0, 255).astype(np.uint8)
        return np.repeat(grey[..., None], 3, axis=2)
    if im.mode == "RGB":  # most screenshots: no converted copy (an 8K one is 130 MB)
        return np.asarray(im)
    if "A" in im.mode or "transparency" in im.info:
        rgba = im if im.mode == "RGBA" else im.convert("RGBA")
        page = Image.new("RGB", rgba.size, (255, 255, 255))
        page.paste(rgba, (0, 0), rgba.getchannel("A"))
        return np.asarray(page)
    return np.asarray(im.convert("RGB"))


def _reason(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return shown(lines[0], 80) if lines else err.__class__.__name__
