"""The goal of a sliding puzzle whose tiles are pictures: where each tile's edges continue.

Pure: tile images in, the arrangement (which tile in which cell, where the gap
is) and a confidence out, or `Unsure` when the pictures do not settle it.

1. Edge compatibility, for every ordered pair of tiles and both directions:
   Gallagher's Mahalanobis gradient compatibility (MGC, CVPR 2012). The
   colour steps across the joint of tile a's right column and tile b's left
   column should look like the steps just inside a (and just inside b): their
   Mahalanobis distance under those steps' mean and covariance, both ways.
   A smooth picture continues its gradient over a true joint; a wrong joint
   jumps.
2. Sure joints: a is b's best left neighbour and b is a's best right
   neighbour ("best buddies"), each by a clear margin over the runner-up.
3. The piece: the sure joints fix the tiles they join relative to each other
   (a tile in two places, or two tiles on one cell, is a contradiction:
   Unsure). The largest piece must span the whole W×H board, so where it
   stands is not in doubt.
4. The rest: at most MAX_LEFT tiles no sure joint placed, and the gap, go
   into the piece's holes, every way tried, each arrangement scored by its
   joints (log of cost over the best alternative on that side, both tiles'
   views: a clear best match scores well below 0, a tie about 0). A joint the
   gap hides is unknown, so it is scored both as uninformative and as a
   typical sure one, and the same arrangement must win by LEAD either way
   (else where the gap goes would rest on that guess). Each leftover tile
   must be a neighbour's best match where it goes, and joints no sure joint
   vouches for must cost no more than the tiles' median pairing.
5. Rivals: the closest arrangement one change away (two tiles swapped, a
   tile moved into the gap's place, two tiles and the gap rotated) must score
   LEAD times worse and must not be seamless (a plain tile beside plain edges
   of its colour could stand where the gap is). Two tiles that clearly match
   each other with their facing sides unjoined, one facing the gap, mean the
   gap hides a tile's telling edge.

Anything else is Unsure: one tile placed on weak evidence could be wrong,
and a wrong goal is worse than none. Measured on generated pictures (gradients,
shapes, smooth noise; 3x3 to 5x5): see tests/test_fifteen_pictures.py and
bench/bench_fifteen_pictures.py. The confidence is the smallest margin of the
evidence used (the best joint or arrangement against its runner-up; 1 is a
tie).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from autoplayer.games.fifteen.goals import Unsure

MARGIN = 2.0
"""A joint is sure when the runner-up costs at least this many times as much, both ways."""
LEAD = 4.0
"""An arrangement is taken when every other one considered scores at least this many times
worse (the product of its joints' margins): more than one joint's MARGIN, since a tile
that looks like the missing one can change places with the gap at the cost of a joint or
two."""
FLOOR = 1.0
"""Added to every joint's cost, per edge pixel and channel and per side, before costs are
compared: two flat edges meet at a cost near 0 whether or not they belong together, and
ratios of such near-zero costs are noise. With the floor they tie (and decide nothing)."""
SEAMLESS = 1.5
"""A joint costing at most this many FLOORs shows no seam at all."""
REG = 4.0
"""Added to the gradient covariance's diagonal (pixel units squared): flat edges, whose own
steps are all zero, still measure a step of a few grey levels as small, not infinite."""


@dataclass(frozen=True)
class PictureGoal:
    """`cells[p]`: the index (in the tiles given) of the tile that belongs on cell p, -1 for
    the gap."""

    width: int
    height: int
    cells: tuple[int, ...]
    confidence: float
    reason: str

    @property
    def gap(self) -> int:
        return self.cells.index(-1)


def _as_float(tiles: Sequence[np.ndarray]) -> np.ndarray:
    """The tiles stacked as (n, h, w, channels) floats (grey tiles get one channel)."""
    shapes = {t.shape for t in tiles}
    if len(shapes) != 1:
        raise ValueError(f"tiles differ in shape: {sorted(shapes)}")
    stack = np.stack([np.asarray(t, dtype=np.float64) for t in tiles])
    if stack.ndim == 3:
        stack = stack[..., None]
    if stack.shape[1] < 2 or stack.shape[2] < 2:
        raise ValueError("tiles must be at least 2x2 pixels")
    return stack


def _side_costs(inner: np.ndarray, edge: np.ndarray, other: np.ndarray) -> np.ndarray:
    """cost[i, j]: how unlike tile i's own steps (`edge[i] - inner[i]`) the steps from tile
    i's edge onto tile j's facing edge (`other[j] - edge[i]`) are, by Mahalanobis distance.

    inner, edge, other: (n, pixels, channels): the column one in from i's edge, i's edge
    column, and j's facing column."""
    steps = edge - inner  # (n, P, C)
    mean = steps.mean(axis=1)  # (n, C)
    chans = steps.shape[2]
    centred = steps - mean[:, None, :]
    cov = np.einsum("npc,npd->ncd", centred, centred) / max(1, steps.shape[1] - 1)
    cov += REG * np.eye(chans)[None]
    inv = np.linalg.inv(cov)  # (n, C, C)
    across = other[None, :, :, :] - edge[:, None, :, :]  # (i, j, P, C)
    dev = across - mean[:, None, None, :]
    return np.einsum("ijpc,icd,ijpd->ij", dev, inv, dev)


def compatibility(tiles: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(right, below): right[i, j] is the cost of tile j right of tile i, below[i, j] of j
    below i (MGC, both sides' views added, plus the noise FLOOR); the diagonal is
    infinite."""
    stack = _as_float(tiles)

    def left_right(s: np.ndarray) -> np.ndarray:
        a_in, a_edge = s[:, :, -2, :], s[:, :, -1, :]  # i's right edge and the column inside
        b_in, b_edge = s[:, :, 1, :], s[:, :, 0, :]  # j's left edge and the column inside
        cost = _side_costs(a_in, a_edge, b_edge) + _side_costs(b_in, b_edge, a_edge).T
        cost += 2 * FLOOR * a_edge.shape[1] * a_edge.shape[2]
        np.fill_diagonal(cost, np.inf)
        return cost

    return left_right(stack), left_right(stack.transpose(0, 2, 1, 3))


def _sure_joints(cost: np.ndarray, margin: float) -> list[tuple[int, int, float]]:
    """(i, j, margin) for each pair that are each other's best by `margin`."""
    n = cost.shape[0]
    out = []
    order_row = np.argsort(cost, axis=1)
    order_col = np.argsort(cost, axis=0)
    for i in range(n):
        j = int(order_row[i, 0])
        if int(order_col[0, j]) != i:
            continue
        best = cost[i, j]
        runner = min(cost[i, order_row[i, 1]], cost[order_col[1, j], j])
        ratio = float((runner + 1e-9) / (best + 1e-9))
        if ratio >= margin:
            out.append((i, j, ratio))
    return out


MAX_LEFT = 4
"""Tiles no sure joint places that are still placed, by trying every way: (k+1)! · offsets."""


def _pieces(n: int, joints: list[tuple[int, int, int, int, float]]
            ) -> list[dict[int, tuple[int, int]]] | None:
    """The tiles joined by sure joints, each piece as tile → (row, column) relative to its
    first tile; None when the joints contradict (a tile in two places, two on one cell)."""
    links: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for i, j, dr, dc, _ in joints:
        links[i].append((j, dr, dc))
        links[j].append((i, -dr, -dc))
    pieces = []
    done: set[int] = set()
    for start in range(n):
        if start in done:
            continue
        place = {start: (0, 0)}
        taken = {(0, 0): start}
        queue = deque([start])
        while queue:
            i = queue.popleft()
            r, c = place[i]
            for j, dr, dc in links[i]:
                spot = (r + dr, c + dc)
                if j in place:
                    if place[j] != spot:
                        return None
                    continue
                if spot in taken:
                    return None
                place[j] = spot
                taken[spot] = j
                queue.append(j)
        done.update(place)
        pieces.append(place)
    return pieces


def _scores(cost: np.ndarray) -> np.ndarray:
    """How much a joint says, both tiles' views added: log(cost / the best alternative on
    that side). A tile's best match scores below 0 by its margin, any other above 0, and a
    match no better than others (two flat edges of one colour, when there are several such
    edges) about 0: it agrees with the arrangement but cannot vouch for it."""
    def runner_up(c: np.ndarray) -> np.ndarray:
        order = np.argsort(c, axis=1)
        first = c[np.arange(c.shape[0]), order[:, 0]][:, None]
        second = c[np.arange(c.shape[0]), order[:, 1]][:, None]
        alt = np.repeat(first, c.shape[1], axis=1)
        alt[np.arange(c.shape[0]), order[:, 0]] = second[:, 0]
        return alt

    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.log((cost + 1e-9) / (runner_up(cost) + 1e-9))
                + np.log((cost + 1e-9) / (runner_up(cost.T).T + 1e-9)))


def _total(cells: Sequence[int], width: int, height: int, sr: np.ndarray, sb: np.ndarray,
           beside_gap: float) -> float:
    """The arrangement's score: every pair of neighbouring cells counts once, a pair with
    the gap in it as `beside_gap` (what a true joint scores), so where the gap goes does not
    change how many joints are counted: a tile cannot win a cell by having fewer of them."""
    total = 0.0
    for p, i in enumerate(cells):
        r, c = divmod(p, width)
        for q, score in ((p + 1 if c + 1 < width else -1, sr),
                         (p + width if r + 1 < height else -1, sb)):
            if q < 0:
                continue
            j = cells[q]
            total += beside_gap if i < 0 or j < 0 else score[i, j]
    return total


def infer_picture_goal(tiles: Sequence[np.ndarray], width: int, height: int,
                       margin: float = MARGIN) -> PictureGoal | Unsure:
    """Where each of the W·H-1 picture tiles belongs, and so where the gap goes; or Unsure.

    `tiles`: the tiles as shown (any order), each an (h, w) or (h, w, channels) array of one
    shape; the gap is not among them.
    """
    from itertools import permutations

    n = width * height - 1
    if len(tiles) != n:
        raise ValueError(f"a {width}x{height} puzzle has {n} tiles, got {len(tiles)}")
    right, below = compatibility(tiles)
    joints = [(i, j, 0, 1, m) for i, j, m in _sure_joints(right, margin)]
    joints += [(i, j, 1, 0, m) for i, j, m in _sure_joints(below, margin)]
    pieces = _pieces(n, joints)
    if pieces is None:
        return Unsure("the picture's sure joints contradict each other (a tile would stand "
                      "in two places, or two tiles on one cell)")
    piece = max(pieces, key=len)
    left = [t for t in range(n) if t not in piece]
    if len(left) > MAX_LEFT:
        return Unsure(f"the edges join {len(piece)} of the {n} tiles into one piece for sure; "
                      "the others could go more than one way")
    rows = [r for r, _ in piece.values()]
    cols = [c for _, c in piece.values()]
    r0, c0 = min(rows), min(cols)
    bh, bw = max(rows) - r0 + 1, max(cols) - c0 + 1
    if bh != height or bw != width:
        return Unsure(f"the tiles sure to belong together make a piece {bw} wide and {bh} "
                      f"high, not the {width}x{height} board: where it stands is not certain")
    sr, sb = _scores(right), _scores(below)
    sure_scores = [(sr if dr == 0 else sb)[i, j] for i, j, dr, _, _ in joints]
    beside_gap = float(np.median(sure_scores)) if sure_scores else 0.0
    candidates: list[tuple[int, ...]] = []
    for dr in range(height - bh + 1):
        for dc in range(width - bw + 1):
            cells = [-1] * (n + 1)
            for t, (r, c) in piece.items():
                cells[(r - r0 + dr) * width + (c - c0 + dc)] = t
            free = [p for p, t in enumerate(cells) if t < 0]
            for order in permutations([*left, -1]):
                for p, t in zip(free, order, strict=True):
                    cells[p] = t
                candidates.append(tuple(cells))
    # A joint the gap hides is unknown: scored as a typical wrong joint (0) and as a typical
    # sure one. The winner must be the same, by the margin, either way.
    winners, lead = set(), np.inf
    for hidden in (0.0, beside_gap):
        totals = sorted((_total(c, width, height, sr, sb, hidden), c) for c in candidates)
        winners.add(totals[0][1])
        if len(totals) > 1:
            lead = min(lead, totals[1][0] - totals[0][0])
    cells = min(winners)
    if len(winners) > 1 or lead < np.log(LEAD):
        return Unsure(f"{len(candidates)} arrangements fit the tiles' sure joints and none "
                      f"fits clearly best ({len(left)} tile{'s' if len(left) != 1 else ''} and "
                      "the gap placed by fit alone)")
    loose = _loose(cells, width, height, right, below, left)
    if loose is not None:
        return Unsure(f"tile {loose}, placed by fit alone, is no neighbour's best match "
                      "where it goes: its place is not certain")
    apart = _strong_pair_apart(cells, width, sr, sb)
    if apart is not None:
        return Unsure(f"tiles {apart[0]} and {apart[1]} match each other clearly best, but "
                      "the arrangement does not put them together")
    rival, rival_lead = _closest_rival(cells, width, height, (sr, sb), (right, below),
                                       beside_gap, _floors(tiles))
    if rival_lead == -np.inf:
        return Unsure(f"the arrangement with {rival} would look just as seamless: the "
                      "pictures do not tell them apart")
    if rival_lead < np.log(LEAD):
        return Unsure(f"the best arrangement fits only {np.exp(rival_lead):.2f} times better "
                      f"than the one with {rival}: the pictures do not tell them apart")
    lead = min(lead, rival_lead)
    weak = _unvouched(list(cells), width, height, right, below, joints)
    if weak:
        return Unsure(f"{weak} joint{'s' if weak > 1 else ''} of the placement "
                      f"{'are' if weak > 1 else 'is'} worse than the picture's wrong joints "
                      "usually are")
    confidence = min([m for *_, m in joints] + [float(np.exp(lead))])
    gap = cells.index(-1)
    where = f"row {gap // width + 1} column {gap % width + 1}"
    placed = f"; {len(left)} more placed by best fit" if left else ""
    return PictureGoal(width, height, tuple(cells), confidence,
                       f"the tiles' edges continue each other in one arrangement "
                       f"({len(joints)} sure joints{placed}; the weakest evidence "
                       f"{confidence:.1f} times better than its runner-up); the gap is the "
                       f"cell they leave, {where}")


def _loose(cells: tuple[int, ...], width: int, height: int, right: np.ndarray,
           below: np.ndarray, left: Sequence[int]) -> int | None:
    """A tile placed by fit alone that has no neighbour where it goes with which it is each
    other's best match (on that side); None when each has one."""
    at = {t: p for p, t in enumerate(cells) if t >= 0}
    for t in left:
        r, c = divmod(at[t], width)
        sides = ((c + 1 < width, at[t] + 1, right, True), (c > 0, at[t] - 1, right, False),
                 (r + 1 < height, at[t] + width, below, True),
                 (r > 0, at[t] - width, below, False))
        if not any(ok and cells[q] >= 0 and _each_others_best(cost, t, cells[q], first)
                   for ok, q, cost, first in sides):
            return t
    return None


def _each_others_best(cost: np.ndarray, t: int, u: int, t_first: bool) -> bool:
    i, j = (t, u) if t_first else (u, t)
    return int(np.argmin(cost[i])) == j and int(np.argmin(cost[:, j])) == i


def _strong_pair_apart(cells: Sequence[int], width: int, sr: np.ndarray,
                       sb: np.ndarray) -> tuple[int, int] | None:
    """Two tiles that are each other's best match on a side by the LEAD margin, both views
    together, whose facing sides meet no tile, one of them facing the gap: the
    arrangement could have joined them there and did not, which is how a wrong placement
    hides a tile's telling edge against the gap."""
    n = len(cells)
    at = {t: p for p, t in enumerate(cells) if t >= 0}

    def beyond(t: int, dr: int, dc: int) -> int | None:
        """What tile t's side (dr, dc) meets: a tile, -1 the gap, None the board's edge."""
        r, c = divmod(at[t], width)
        r, c = r + dr, c + dc
        if not (0 <= c < width and 0 <= r < n // width):
            return None
        return cells[r * width + c]

    for d, score in enumerate((sr, sb)):
        dr, dc = (0, 1) if d == 0 else (1, 0)
        row = np.argmin(score, axis=1)
        col = np.argmin(score, axis=0)
        for i, j in enumerate(row):
            j = int(j)
            if col[j] != i or score[i, j] > -np.log(LEAD):
                continue
            out, into = beyond(i, dr, dc), beyond(j, -dr, -dc)
            if out in (None, -1) and into in (None, -1) and -1 in (out, into):
                return i, j
    return None


def _floors(tiles: Sequence[np.ndarray]) -> tuple[float, float]:
    """The cost of a seamless joint, right and below: the FLOOR alone."""
    h, w = tiles[0].shape[:2]
    chans = tiles[0].shape[2] if tiles[0].ndim == 3 else 1
    return 2 * FLOOR * h * chans, 2 * FLOOR * w * chans


def _joints(cells: Sequence[int], width: int) -> set[tuple[int, int, int]]:
    """(direction, tile, tile) of every joint between two tiles: 0 right, 1 below."""
    out = set()
    for p, i in enumerate(cells):
        if i < 0:
            continue
        if (p + 1) % width and p + 1 < len(cells) and cells[p + 1] >= 0:
            out.add((0, i, cells[p + 1]))
        if p + width < len(cells) and cells[p + width] >= 0:
            out.add((1, i, cells[p + width]))
    return out


def _closest_rival(cells: tuple[int, ...], width: int, height: int,
                   scores: tuple[np.ndarray, np.ndarray], costs: tuple[np.ndarray, np.ndarray],
                   beside_gap: float, floors: tuple[float, float]) -> tuple[str, float]:
    """The arrangement one change away (two tiles swapped, one tile moved to the gap's
    cell, or two tiles and the gap rotated) that comes closest, and how far behind it is,
    at the worse of the two ways of scoring a hidden joint. Sure joints rule these out
    only as far as the measure is right: two tiles that look alike (a flat patch, a tile
    as plain as the one missing) would be swapped without a trace, and that must be
    refused, not guessed. A rival whose new joints are all seamless (no costlier than the
    FLOOR allows) counts as a tie whatever the scores say: plain edges meeting plain edges
    of their colour is how the true picture looks too."""
    sr, sb = scores
    base = {h: _total(cells, width, height, sr, sb, h) for h in (0.0, beside_gap)}
    had = _joints(cells, width)
    gap = cells.index(-1)
    best_name, best = "", np.inf

    def consider(other: list[int], what: str) -> None:
        nonlocal best_name, best
        new = _joints(other, width) - had
        if new and all(costs[d][i, j] <= SEAMLESS * floors[d] for d, i, j in new):
            behind = -np.inf
        else:
            behind = min(_total(other, width, height, sr, sb, h) - base[h] for h in base)
        if behind < best:
            best_name, best = what, behind

    n = len(cells)
    for p in range(n):
        for q in range(p + 1, n):
            other = list(cells)
            other[p], other[q] = other[q], other[p]
            consider(other, f"tile {cells[p if cells[p] >= 0 else q]} in the gap's place"
                     if gap in (p, q) else f"tiles {cells[p]} and {cells[q]} swapped")
            if gap in (p, q):
                continue
            # three-way: the gap's place taken by p's tile, p's by q's, q's left empty
            for a, b in ((p, q), (q, p)):
                other = list(cells)
                other[gap], other[a], other[b] = cells[a], cells[b], -1
                consider(other, f"tiles {cells[a]} and {cells[b]} and the gap rotated")
    return best_name, best


def _unvouched(cells: list[int], width: int, height: int, right: np.ndarray,
               below: np.ndarray, joints: list[tuple[int, int, int, int, float]]) -> int:
    """Joints of the placement that no sure joint vouches for and that cost more than the
    median wrong pairing of their tiles (a joint that merely lacks a clear margin is fine;
    one that looks like a seam between unrelated pictures is not)."""
    sure = {(i, j, dr) for i, j, dr, _, _ in joints}
    bad = 0
    for p, i in enumerate(cells):
        if i < 0:
            continue
        r, c = divmod(p, width)
        for dr, cost, q in ((0, right, p + 1 if c + 1 < width else -1),
                            (1, below, p + width if r + 1 < height else -1)):
            j = cells[q] if q >= 0 else -1
            if j < 0 or (i, j, dr) in sure:
                continue
            typical = min(np.median(cost[i][np.isfinite(cost[i])]),
                          np.median(cost[:, j][np.isfinite(cost[:, j])]))
            if cost[i, j] > typical:
                bad += 1
    return bad
