"""Command group 'fifteen': solve sliding puzzles, look boards up by ID, play in the terminal.

Boards are written as Simon Tatham's Fifteen writes game IDs: `WxH:t,t,…`,
row-major, 0 for the gap, goal with the gap last. `solve` also takes plain numbers and
files of them (Korf's 100) with the goal they name or `--goal` (docs/fifteen.md).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING

from autoplayer.commands import summary
from autoplayer.commands.batch import add_pretty_option, pretty

if TYPE_CHECKING:
    from autoplayer.games.fifteen.goals import Goal
    from autoplayer.games.fifteen.instances import Instance
    from autoplayer.games.fifteen.model import Board


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    group = subparsers.add_parser(
        "fifteen", help=summary("fifteen"),
        description="Sliding puzzles. Boards are Tatham's Fifteen game IDs, e.g. "
        "4x4:4,6,5,12,9,0,11,1,10,3,8,7,14,13,2,15 (row-major, 0 = the gap).",
    )
    sub = group.add_subparsers(dest="fifteen_command", metavar="SUBCOMMAND", required=True)

    solve = sub.add_parser(
        "solve", help="print a solution: optimal (3x3, 4x4, ≤ 9 cells) or human-style",
        description="Prints the moves (each tile and the way it slides) and their number. "
        "Default: optimal where pattern databases exist (3x3, 4x4 and boards of up to 9 "
        "cells; the 4x4 tables are built once, about half a minute, and cached), "
        "otherwise human-style.",
    )
    solve.add_argument(
        "board", help="WxH:t,t,… (0 = the gap), e.g. 3x3:1,2,3,4,5,6,7,0,8; or the cells as "
        "plain numbers ('14 13 15 7 …', a square board, maybe followed by the known solution "
        "length); or a file of such lines (Korf's 100), - for standard input")
    solve.add_argument(
        "--goal", choices=("gap-last", "gap-first", "auto"),
        help="the solved board: gap-last (1..N-1 then the gap, Tatham's; the default for "
        "WxH: boards), gap-first (the gap then 1..N-1, Korf's), or auto: the one of the two "
        "the board can reach (decided on even widths; the default for plain numbers and "
        "files, unless the file has a '# goal: …' line)")
    solve.add_argument("--instances", metavar="LIST",
                       help="for a file: which boards, e.g. 1-5,9 (default: all)")
    how = solve.add_mutually_exclusive_group()
    how.add_argument("--optimal", action="store_const", dest="method", const="optimal",
                     help="a shortest solution (IDA* with pattern databases)")
    how.add_argument("--fast", action="store_const", dest="method", const="fast",
                     help="human-style: rows first, then the last two rows; any size")
    solve.add_argument("--letters", action="store_true",
                       help="print the moves as one string of L/R/U/D (the way each tile slides)")
    add_pretty_option(solve)
    solve.set_defaults(func=cmd_solve, method=None)

    show = sub.add_parser("show", help="draw a board and give its ID (or the board of an ID)")
    what = show.add_mutually_exclusive_group(required=True)
    what.add_argument("board", nargs="?", help="WxH:t,t,…")
    what.add_argument("--id", help="the board with this ID (0 = solved)")
    show.add_argument("--size", default="4x4", help="board size for --id (default 4x4)")
    add_pretty_option(show)
    show.set_defaults(func=cmd_show)

    play = sub.add_parser(
        "play", help="play in the terminal: arrows slide, h hints, s solves, q quits",
        description="A box-drawn board in the terminal. Arrow keys slide the tile next to "
        "the gap that way; h shows the next optimal move; s solves with animation "
        "(any key stops it); q or Esc quits.",
    )
    start = play.add_mutually_exclusive_group()
    start.add_argument("--id", help="start from the board with this ID")
    start.add_argument("--seed", help="a random board chosen by this seed (a whole number)")
    play.add_argument("--size", default="4x4", help="board size WxH, 2..6 each (default 4x4)")
    play.set_defaults(func=cmd_play)


def cmd_solve(args: argparse.Namespace) -> int:
    from autoplayer.errors import UserError
    from autoplayer.files import exists, is_stdio
    from autoplayer.games.fifteen.goals import GAP_LAST, Unsure, conventional_goal
    from autoplayer.games.fifteen.instances import (
        Instance,
        looks_like_numbers,
        parse_instances,
        parse_numbers,
        pick,
    )
    from autoplayer.games.fifteen.model import parse_board
    from autoplayer.games.fifteen.partitions import has_tables

    text = args.board
    a_file = not _SPEC_START.match(text) and (is_stdio(text) or exists(text))
    if not a_file and not looks_like_numbers(text):
        instances = [Instance(1, 1, parse_board(text, solvable=args.goal is None), None)]
        named, single = GAP_LAST, True
    elif not a_file:
        instances, named, single = [parse_numbers(text)], None, True
    else:
        from autoplayer.files import read_text

        instances, named = parse_instances(read_text(text))
        single = False
        if args.instances:
            instances = pick(instances, args.instances)
    if args.instances and single:
        raise UserError("--instances picks boards of a file")
    convention = args.goal or named or "auto"
    for inst in instances:
        board = inst.board
        found = conventional_goal(board, convention)
        if isinstance(found, Unsure):
            at = "" if single else f"board {inst.number} (line {inst.line}): "
            raise UserError(f"{at}{board.spec()} cannot be solved: {found.reason}")
        method = _method(args, board.width, board.height)
        if method == "optimal" and not has_tables(board.width, board.height):
            raise UserError(f"no optimal solver for {board.width}x{board.height} "
                            "(3x3, 4x4 and boards of up to 9 cells); use --fast")
    if single:
        inst = instances[0]
        goal = conventional_goal(inst.board, convention)
        assert not isinstance(goal, Unsure)
        return _solve_one(args, inst.board, goal, show_goal=convention != GAP_LAST,
                          known=inst.known)
    return _solve_file(args, instances, convention)


_SPEC_START = re.compile(r"^\s*\d+\s*[xX×]\s*\d+\s*[:#]")
"""A Tatham game ID (or seed, which parse_board explains it cannot take)."""


def _method(args: argparse.Namespace, width: int, height: int) -> str:
    from autoplayer.games.fifteen.partitions import has_tables

    return args.method or ("optimal" if has_tables(width, height) else "fast")


def _solve_one(args: argparse.Namespace, board: Board, goal: Goal, *, show_goal: bool,
               known: int | None) -> int:
    from autoplayer.games.fifteen.goals import solve_toward
    from autoplayer.games.fifteen.human import solve_steps
    from autoplayer.games.fifteen.render import unicode_ok, wrap_moves

    method = _method(args, board.width, board.height)
    out = sys.stdout
    arrows = pretty(args) and unicode_ok(out.encoding)
    if method == "optimal" or goal.cells != tuple((*range(1, board.size), 0)):
        moves, shortest = solve_toward(board, goal, method)
        if args.letters:
            print(moves, file=out)
            return _known_check(known, len(moves), shortest)
        if show_goal:
            print(f"goal: {goal.board.spec()} ({goal.reason})", file=out)
        how = "optimal" if shortest else "human-style" if method == "fast" else "not optimal"
        print(f"{len(moves)} moves, {how} (each tile and the way it slides):", file=out)
        for line in wrap_moves(board, moves, arrows=arrows):
            print(f"  {line}", file=out)
        return _known_check(known, len(moves), shortest)
    steps = solve_steps(board)
    moves = "".join(s.moves for s in steps)
    if args.letters:
        print(moves, file=out)
        return 0
    print(f"{len(moves)} moves, human-style (each tile and the way it slides):", file=out)
    for step in steps:
        count = f"{len(step.moves)} moves" if step.moves else "already in place"
        print(f"{step.title} ({count})", file=out)
        for line in wrap_moves(board, step.moves, arrows=arrows):
            print(f"  {line}", file=out)
        board = board.play(step.moves)
    return 0


def _known_check(known: int | None, length: int, shortest: bool) -> int:
    """Exit 1 when a shortest solution's length is not the one the input gives."""
    if known is None:
        return 0
    if shortest and length != known:
        print(f"autoplayer: the input gives {known} moves as the optimal length, "
              f"but the shortest solution found has {length}", file=sys.stderr)
        return 1
    return 0


def _solve_file(args: argparse.Namespace, instances: list[Instance], convention: str) -> int:
    """One line a board: its number, the length (checked against the file's), the moves."""
    import time

    from autoplayer.games.fifteen.goals import Unsure, conventional_goal, solve_toward

    out = sys.stdout
    differ = 0
    for inst in instances:
        goal = conventional_goal(inst.board, convention)
        assert not isinstance(goal, Unsure)
        method = _method(args, inst.board.width, inst.board.height)
        start = time.perf_counter()
        moves, shortest = solve_toward(inst.board, goal, method)
        seconds = time.perf_counter() - start
        how = "optimal" if shortest else "human-style" if method == "fast" else "not optimal"
        said = ""
        if inst.known is not None:
            same = len(moves) == inst.known
            if shortest and not same:
                differ += 1
            said = (", as the file says" if same else
                    f", the file says {inst.known}" + ("" if not shortest else " (DIFFERENT)"))
        where = "gap first" if goal.gap == 0 else "gap last"
        print(f"{inst.number}: {len(moves)} moves, {how}{said}; goal {where}; "
              f"{seconds:.2f} s: {moves}", file=out)
    if differ:
        print(f"autoplayer: {differ} optimal length{'s' if differ > 1 else ''} differ from "
              "the file's", file=sys.stderr)
        return 1
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from autoplayer.games.fifteen.ids import board_from_id, id_of
    from autoplayer.games.fifteen.model import parse_board, parse_size
    from autoplayer.games.fifteen.render import ASCII_BOX, UNICODE_BOX, box_lines, unicode_ok

    if args.board is not None:
        board = parse_board(args.board)
    else:
        width, height = parse_size(args.size)
        board = board_from_id(_board_id(args.id, width, height), width, height)
    print(f"{board.spec()}  ID {id_of(board)}")
    unicode = pretty(args) and unicode_ok(sys.stdout.encoding)
    for line in box_lines(board, UNICODE_BOX if unicode else ASCII_BOX):
        print(line)
    if board.is_solved():
        print("Note: this board is solved")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from autoplayer.commands.options import integer
    from autoplayer.games.fifteen.model import parse_size
    from autoplayer.games.fifteen.terminal import play_in_terminal, starting_board

    width, height = parse_size(args.size)
    board_id = None if args.id is None else _board_id(args.id, width, height)
    seed = None if args.seed is None else integer(args.seed, "--seed")
    board, board_id = starting_board(args.size, board_id, seed)
    return play_in_terminal(board, board_id)


def _board_id(text: str, width: int, height: int) -> int:
    """`--id` as a number with no more digits than the largest ID of the size has; the
    range itself is `board_from_id`'s to check."""
    from autoplayer.commands.options import integer
    from autoplayer.games.fifteen.ids import id_count

    most = id_count(width, height) - 1
    return integer(text, "--id", most_digits=len(str(most)), limit=f"0..{most}")
