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

`rook` is one command with a subcommand per task. Positions, hands and
answers are JSON lines in the formats of [FORMATS.md](FORMATS.md); every
subcommand's `--help` says what it reads and writes, shows an example and
gives each flag's default. This page is those help texts, as the commands
print them.

A bad value gets one line that names the flag and what it takes, and exit
status 2, before any work starts (output folders are checked first too):

"""

ERRORS = [("rook simulate --hands -5", 2), ("rook play --seed -1", 2),
          ("rook solve --budget 99999999999999999999999", 2)]

TAIL = """
JSON output is strict JSON (`null`, never `NaN`). The commands that read JSON
lines (`legal`, `perft`, `solve`, `analyse`, `contract`) answer a bad line
with `{"id": ..., "error": ...}`, go on with the next line, and exit with
status 1 at the end. The same seed gives the same `rook play` log, byte for
byte.
"""


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
                     f"$ rook {name} --help\n{run(f'rook {name} --help')}```\n")
    parts.append(TAIL)
    PAGE.write_text("".join(parts))
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
