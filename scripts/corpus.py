"""The test corpus for the check scripts: where it is, and the lines each check prints about it, which
scripts/test-summary collects at the end of `make test`.

- `directory()`: `SHRINK_CORPUS` when set (as for the Swift tests: `SHRINK_CORPUS=none` runs a check as a clone
  without the corpus would), else ../shared/corpus beside the project root; None when it holds no MANIFEST.tsv.
- `chosen(script)`: the corpus a check that can run on generated inputs reads: the real one, else the generated
  one (scripts/generated_corpus.py, same layout and MANIFEST columns), saying so in one line.
- `generated()`: whether `chosen` fell back to the generated corpus (checks tuned to the real one's counts use it).
- `skipped(script, why)`: prints `SCRIPT: skipped: WHY` and exits 0.
- `counted(script, files)`: prints `SCRIPT: corpus files checked: N` (or `generated files checked: N`); a
  selection of no file is a failure (exit 1), never a pass that checked nothing."""
import os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_generated = False


def directory():
    path = os.environ.get("SHRINK_CORPUS") or os.path.join(ROOT, "..", "shared", "corpus")
    return path if os.path.isfile(os.path.join(path, "MANIFEST.tsv")) else None


def chosen(script):
    global _generated
    real = directory()
    if real is not None:
        return real
    import generated_corpus
    _generated = True
    path = generated_corpus.build()
    print(f"{script}: the corpus (../shared/corpus or SHRINK_CORPUS) is absent: checking generated inputs instead "
          f"({os.path.relpath(path, ROOT)}, made by scripts/generated_corpus.py)", flush=True)
    return path


def generated():
    return _generated


def skipped(script, why="the corpus (../shared/corpus or SHRINK_CORPUS) is absent"):
    print(f"{script}: skipped: {why}")
    sys.exit(0)


def counted(script, files):
    n = len(files)
    print(f"{script}: {'generated' if _generated else 'corpus'} files checked: {n}", flush=True)
    if n == 0:
        print(f"{script}: the {'generated corpus' if _generated else 'corpus'} is present but this check selected no "
              "file from it", file=sys.stderr)
        sys.exit(1)
    return n
