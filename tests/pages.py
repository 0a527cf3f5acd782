"""The bundled nonogram page rendered headless, for the reader tests: one way to shoot it."""

from __future__ import annotations

from typing import Any

import numpy as np


def shoot_board(server: Any, session: str, size: tuple[int, int], cell: int, *,
                room: int = 200, **params: Any) -> np.ndarray:
    """The page for `size` at `cell` px in a viewport with `room` px to spare around a board
    of twice its cells (clues included), once the page has reported its layout."""
    from autoplayer.webgame.browser import headless_screenshot

    url = server.url(size=size, cell=cell, session=session, **params)
    image = headless_screenshot(url, max(1000, size[0] * cell * 2 + room),
                                max(800, size[1] * cell * 2 + room))
    assert server.wait_for(session, lambda state, layout: layout is not None, 10)
    return image
