"""python -m idgen next [-n N] [--config CONFIG] | decode ID... [--config CONFIG]"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

import idgen


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m idgen", description="Generate and decode idgen ids.")
    sub = ap.add_subparsers(dest="command", required=True)
    nx = sub.add_parser("next", help="print new ids, one per line")
    nx.add_argument("-n", type=int, default=1, help="how many (default 1)")
    nx.add_argument("--config", default=None, help="configuration string (default: $IDGEN_CONFIG or the defaults)")
    dc = sub.add_parser("decode", help="print the fields of ids")
    dc.add_argument("ids", nargs="+", help="ids in decimal (or --base)")
    dc.add_argument("--config", default=None, help="the layout the ids were made with")
    dc.add_argument("--base", type=int, default=10, help="base of the ids given (default 10)")
    args = ap.parse_args(argv)
    try:
        if args.command == "next":
            if args.n < 0:
                ap.error("-n must be >= 0")
            if args.config is None:
                ids = idgen.next_ids(args.n)
            else:
                with idgen.Generator(args.config) as g:
                    ids = g.next_ids(args.n)
            sys.stdout.write("".join(f"{i}\n" for i in ids))
            return 0
        gen = idgen.Generator(args.config) if args.config is not None else None
        try:
            for text in args.ids:
                value = int(text) if args.base == 10 else idgen.parse(text, args.base)
                p = gen.decode(value) if gen is not None else idgen.decode(value)
                when = p.datetime.isoformat() if p.datetime else "-"
                print(
                    f"{p.id} time={when} unix_ms={p.unix_ms} raw_time={p.time} epoch={p.epoch} "
                    f"datacenter={p.datacenter} worker={p.worker} sequence={p.sequence}"
                )
        finally:
            if gen is not None:
                gen.close()
        return 0
    except (idgen.IdgenError, ValueError) as e:
        print(f"idgen: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
