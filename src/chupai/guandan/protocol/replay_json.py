"""The body of ``/replay.json``, built in a process of its own.

    python -m chupai.guandan.protocol.replay_json RECORD [--table T] [--limit BYTES]

writes the JSON array of the view's frames of ``RECORD``'s table ``T`` (default: the
first) to stdout, frame by frame (:func:`chupai.guandan.protocol.records.write_frames_json`,
the record read by :meth:`~chupai.guandan.protocol.records.Record.open`: memory for one game at
a time).  A server runs it (:class:`chupai.guandan.protocol.view.ReplaySource`) so that
replaying a record never holds the interpreter its tables play in, and the memory the
build takes is returned when it ends.

Exit status: 0, the JSON written; :data:`OVER_LIMIT` (3), the JSON would pass
``--limit`` bytes; 2, the record does not replay (one line on stderr saying why).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from chupai.guandan.protocol.records import OverLimit, Record, write_frames_json

__all__ = ["OVER_LIMIT", "main"]

#: the exit status of a replay over ``--limit`` bytes
OVER_LIMIT = 3


def main(argv: Sequence[str] | None = None) -> int:
    """Write the frames' JSON of a record to stdout; the exit status."""
    p = argparse.ArgumentParser(prog="python -m chupai.guandan.protocol.replay_json", description=__doc__.split("\n\n")[0])
    p.add_argument("record")
    p.add_argument("--table", type=int)
    p.add_argument("--limit", type=int)
    args = p.parse_args(argv)
    out = sys.stdout.buffer
    try:
        write_frames_json(Record.open(args.record), out, table=args.table, limit=args.limit)
    except OverLimit:
        return OVER_LIMIT
    except (OSError, ValueError) as e:
        print(f"{e}".replace("\n", " ")[:500], file=sys.stderr)
        return 2
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
