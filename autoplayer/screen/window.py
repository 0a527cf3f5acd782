"""Finding a window by title or WM_CLASS by walking the X window tree with python-xlib.

EWMH-based finders read the window manager's client list and see nothing when
no window manager runs (Xvfb); the tree walk works with or without one. Under
a reparenting window manager the decoration frame holds the client window, and
the client is what we want: its geometry is the client area, without borders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from autoplayer.errors import UserError
from autoplayer.geometry import Rect

if TYPE_CHECKING:
    from Xlib.display import Display


@dataclass(frozen=True)
class WindowInfo:
    """One X window as seen now; `rect` is its client area in root coordinates."""

    id: int
    title: str
    wm_class: tuple[str, ...]
    rect: Rect
    viewable: bool
    top_level: int
    """The root child holding it (itself, or its window-manager frame); stacking is among these."""
    ancestors: tuple[int, ...] = ()
    """Its parents up to (not including) the root."""

    def describe(self) -> str:
        cls = "/".join(self.wm_class) or "-"
        r = self.rect
        state = "" if self.viewable else ", unmapped"
        return f"0x{self.id:x} {self.title!r} class {cls} at {r.x},{r.y} {r.w}x{r.h}{state}"


def open_display(name: str | None = None) -> Display:
    """An Xlib connection, with a one-line error when there is no X server to talk to."""
    from Xlib import display as xdisplay
    from Xlib import error as xerror

    try:
        return xdisplay.Display(name)
    except (xerror.DisplayError, xerror.ConnectionClosedError, OSError) as err:
        shown = name or "$DISPLAY"
        raise UserError(f"cannot open X display {shown}: {err}") from None


def _title(disp: Display, win: Any) -> str:
    net_name = disp.get_atom("_NET_WM_NAME")
    utf8 = disp.get_atom("UTF8_STRING")
    prop = win.get_full_property(net_name, utf8)
    if prop is not None and prop.value:
        value = prop.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    name = win.get_wm_name()
    if isinstance(name, bytes):
        return name.decode("latin-1")
    return name or ""


def _walk(disp: Display) -> list[tuple[Any, int, tuple[int, ...]]]:
    """Every window below the root, with the root child holding it and its ancestors."""
    from Xlib import error as xerror

    root = disp.screen().root
    found: list[tuple[Any, int, tuple[int, ...]]] = []
    for top in root.query_tree().children:
        stack: list[tuple[Any, tuple[int, ...]]] = [(top, ())]
        while stack:
            win, ancestors = stack.pop()
            found.append((win, top.id, ancestors))
            try:
                children = win.query_tree().children
            except (xerror.BadWindow, xerror.BadDrawable):
                continue
            stack.extend((child, (win.id, *ancestors)) for child in children)
    return found


def _info(
    disp: Display, win: Any, top: int, ancestors: tuple[int, ...] = ()
) -> WindowInfo | None:
    """None when the window vanished while we looked (windows come and go)."""
    from Xlib import X
    from Xlib import error as xerror

    try:
        attrs = win.get_attributes()
        geo = win.get_geometry()
        root = disp.screen().root
        pos = root.translate_coords(win, 0, 0)
        cls = win.get_wm_class() or ()
        title = _title(disp, win)
    except (xerror.BadWindow, xerror.BadDrawable):
        return None
    return WindowInfo(
        id=win.id, title=title, wm_class=tuple(cls),
        rect=Rect(pos.x, pos.y, geo.width, geo.height),
        viewable=attrs.map_state == X.IsViewable, top_level=top, ancestors=ancestors,
    )


def list_windows(disp: Display) -> list[WindowInfo]:
    """Windows with a title or a class (the ones a person could mean), in tree order."""
    out = []
    for win, top, ancestors in _walk(disp):
        info = _info(disp, win, top, ancestors)
        if info is not None and (info.title or info.wm_class):
            out.append(info)
    return out


def matches(info: WindowInfo, title: str | None, exact: bool, wm_class: str | None) -> bool:
    if title is not None:
        if exact and info.title != title:
            return False
        if not exact and title.lower() not in info.title.lower():
            return False
    return wm_class is None or any(wm_class.lower() == c.lower() for c in info.wm_class)


def _query(title: str | None, exact: bool, wm_class: str | None) -> str:
    parts = []
    if title is not None:
        parts.append(f"title {'=' if exact else 'containing'} {title!r}")
    if wm_class is not None:
        parts.append(f"class {wm_class!r}")
    return " and ".join(parts) or "any window"


def choose(
    windows: list[WindowInfo], title: str | None = None, *, exact: bool = False,
    wm_class: str | None = None,
) -> WindowInfo:
    """The one window matching; a clear error when none, several, or only unmapped ones do.

    A window-manager frame that carries its client's title is dropped in favour
    of the client inside it.
    """
    if title is None and wm_class is None:
        raise UserError("give a window title or class to look for")
    hits = [w for w in windows if matches(w, title, exact, wm_class)]
    # A match holding another match is a frame around its client: keep the client.
    holders = {a for w in hits for a in w.ancestors}
    hits = [w for w in hits if w.id not in holders]
    viewable = [w for w in hits if w.viewable]
    what = _query(title, exact, wm_class)
    if len(viewable) == 1:
        return viewable[0]
    if len(viewable) > 1:
        listed = "; ".join(w.describe() for w in viewable[:6])
        raise UserError(f"{len(viewable)} windows match {what}: {listed} (be more specific)")
    if hits:
        raise UserError(f"the window matching {what} is not mapped (minimised or hidden): "
                        f"{hits[0].describe()}")
    names = sorted({repr(w.title) for w in windows if w.title and w.viewable})
    shown = ", ".join(names[:12]) + (" ..." if len(names) > 12 else "")
    raise UserError(f"no window matches {what}; visible windows: {shown or 'none'}")


def find_window(
    disp: Display, title: str | None = None, *, exact: bool = False, wm_class: str | None = None
) -> WindowInfo:
    return choose(list_windows(disp), title, exact=exact, wm_class=wm_class)


def locate(disp: Display, window_id: int) -> WindowInfo:
    """The same window again, where it is now (it may have moved between cycles)."""
    from Xlib import error as xerror

    win = disp.create_resource_object("window", window_id)
    try:
        tree = win.query_tree()
    except (xerror.BadWindow, xerror.BadDrawable):
        raise UserError(f"window 0x{window_id:x} has closed") from None
    root = disp.screen().root
    ancestors: list[int] = []
    top, parent = win, tree.parent
    while parent.id != root.id:
        ancestors.append(parent.id)
        top = parent
        parent = parent.query_tree().parent
    info = _info(disp, win, top.id, tuple(ancestors))
    if info is None:
        raise UserError(f"window 0x{window_id:x} has closed")
    return info


def covering(disp: Display, target: WindowInfo) -> list[WindowInfo]:
    """Viewable windows stacked above `target` that overlap its client area.

    The root's children come bottom to top, so everything after the target's
    top-level window is above it.
    """
    root = disp.screen().root
    tops = root.query_tree().children
    ids = [w.id for w in tops]
    if target.top_level not in ids:
        return []
    above = []
    for win in tops[ids.index(target.top_level) + 1:]:
        info = _info(disp, win, win.id)
        if info is None or not info.viewable:
            continue
        if _overlap(info.rect, target.rect):
            above.append(info)
    return above


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def check_visible(disp: Display, target: WindowInfo) -> None:
    """Raise when the window is unmapped or something covers it: we would click the wrong thing."""
    if not target.viewable:
        raise UserError(f"window {target.describe()} is not mapped")
    over = covering(disp, target)
    if over:
        raise UserError(
            f"window {target.title!r} is covered by {over[0].describe()}; raise it and try again"
        )
