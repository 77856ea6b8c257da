"""The shared test corpus for the check scripts: where it is, and the lines each check prints about it, which
scripts/test-summary collects at the end of `make test`.

- `directory()`: `SHRINK_CORPUS` when set (as for the Swift tests: `SHRINK_CORPUS=none` runs a check as a clone
  without the corpus would), else ../shared/corpus beside the project root; None when it holds no MANIFEST.tsv.
- `skipped(script, why)`: prints `SCRIPT: skipped: WHY` and exits 0.
- `counted(script, files)`: prints `SCRIPT: corpus files checked: N`; with the corpus present, a selection of no
  file is a failure (exit 1), never a pass that checked nothing."""
import os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def directory():
    path = os.environ.get("SHRINK_CORPUS") or os.path.join(ROOT, "..", "shared", "corpus")
    return path if os.path.isfile(os.path.join(path, "MANIFEST.tsv")) else None


def skipped(script, why="the corpus (../shared/corpus or SHRINK_CORPUS) is absent"):
    print(f"{script}: skipped: {why}")
    sys.exit(0)


def counted(script, files):
    n = len(files)
    print(f"{script}: corpus files checked: {n}")
    if n == 0:
        print(f"{script}: the corpus is present but this check selected no file from it", file=sys.stderr)
        sys.exit(1)
    return n
