"""Write docs/cli.md, the command-line page, from the commands' own help.

    .venv/bin/python tools/gen_cli_page.py

Each subcommand gets its one-line summary and its ``--help`` as a console
block, which tests/test_docs_run.py runs again, so the page fails the suite
as soon as a command's help changes without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "cli.md"
ROOK = str(Path(sys.executable).parent / "rook")
WIDTH = "100"   # tests/test_docs_run.py runs the page's commands with COLUMNS=100

HEAD = """# The command line

`rook` is one command with a subcommand per task (`python -m rook_core` is
the same command); `rook --help` lists the subcommands and `rook --version`
names the installed version:

```console
$ rook --version
rook_core ...
```

Positions, hands and answers are JSON lines in the formats of
[FORMATS.md](FORMATS.md); every subcommand's `--help` says what it reads and
writes, shows an example and gives each flag's default. This page is those
help texts, as the commands print them.

A bad value stops a command before any work starts, with exit status 2 and
one line that names the flag and what it takes (after the usage when the
flag's type refuses it). The files named by `--out`, `--report`, `--plot`
and `--db` are checked first too: their folder must exist, and the first
three must have a suffix the command writes. A read or write the system refuses on the
way (a full disk) ends the command with exit status 1 and one line,
`rook: error:` and the system's reason; so does a bot that fails during a
`rook simulate` run (an `--engine` program that ends, answers garbage or
stays silent past `--engine-timeout`), and the line names the bot and its
seat.

"""

ERRORS = [("rook simulate --hands -5", 2), ("rook play --seed -1", 2),
          ("rook solve --budget 99999999999999999999999", 2)]

TAIL = """
JSON output is strict JSON (`null`, never `NaN`). The commands that read JSON
lines (`legal`, `perft`, `solve`, `nest`, `analyse`, `contract`) answer a
bad line with `{"id": ..., "error": ..., "kind": ...}` ([the
formats](FORMATS.md#the-json-lines-commands)), go on with the next line, and
exit with status 1 at the end; `rook engine` does the same with its requests
([rook engine](engine.md)). The same seed gives the same `rook play` log,
byte for byte.
"""


# What a help text cannot show: an example run, under the command's help.
EXTRA = {
    "perft": """
Each answer is a list: the counts for the next 1, 2, ..., D cards, the last
count repeating past the end of the hand. Three tricks from the end:

```console
$ echo '{"id":"end","preset":"tournament","trump":"R","leader":0,"hands":\
[["B14","B5","G10"],["R14","B6","G5"],["B10","Y5","G14"],["R5","B7","Y10"]]}' | rook perft --depth 4
{"id": "end", "perft": [3, 3, 3, 5]}
```

A perft grows manyfold with each card: from a full deal, 13 cards make about
half a billion sequences. Each position's perft makes at most `--max-nodes`
nodes (one per card played; 200,000,000 by default, a few seconds), and
one that needs more gets an error line naming its depth and the limit, and
the next line is read; Ctrl-C stops a perft under way (`rook: interrupted`,
exit status 130):

```console
$ echo '{"id":"end","preset":"tournament","trump":"R","leader":0,"hands":\
[["B14","B5","G10"],["R14","B6","G5"],["B10","Y5","G14"],["R5","B7","Y10"]]}' \
| rook perft --depth 4 --max-nodes 10  # exit 1
{"id": "end", "error": "perft to depth 4 needs more than 10 nodes, its limit: ask for fewer cards or a higher \
max_nodes", "kind": "RookError"}
```
""",
    "solve": """
With `--show` on a terminal, the bounds proven so far also go to stderr as
the search narrows them, on one line rewritten in place.
""",
}


def run(command: str) -> str:
    """What ``command`` prints (stdout and stderr), as the page's test runs it."""
    env = dict(os.environ, COLUMNS=WIDTH, PATH=f"{Path(ROOK).parent}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(["bash", "-c", command], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    return done.stdout.rstrip() + "\n"


def main() -> None:
    parts = [HEAD, "```console\n"]
    for command, status in ERRORS:
        parts.append(f"$ {command}  # exit {status}\n{run(command)}")
    parts.append("```\n")
    from rook_core.cli import subcommands
    for name, summary, _ in subcommands():
        parts.append(f"\n## rook {name}\n\n{summary[0].upper() + summary[1:]}.\n\n```console\n"
                     f"$ rook {name} --help\n{run(f'rook {name} --help')}```\n" + EXTRA.get(name, ""))
    parts.append(TAIL)
    PAGE.write_text("".join(parts))
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
