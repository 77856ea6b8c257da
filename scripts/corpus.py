"""The test corpus for the check scripts: where it is, and the lines each check prints about it, which
scripts/test-summary collects at the end of `make test`.

- `directory()`: `SHRINK_CORPUS` when set (as for the Swift tests: `SHRINK_CORPUS=none` runs a check as a clone
  without the corpus would), else ../shared/corpus beside the project root; None when it holds no MANIFEST.tsv.
- `chosen(script)`: the corpus a check that can run on generated inputs reads: the real one, else the generated
  one (scripts/generated_corpus.py, same layout and MANIFEST columns), saying so in one line.
- `generated()`: whether `chosen` fell back to the generated corpus (checks tuned to the real one's counts use it).
- `skipped(script, why)`: prints `SCRIPT: skipped: WHY` and exits 0.
- `formats(script)`: the formats corpus (the formats ../shared/corpus does not hold: BMP, ICO, CUR, TIFF, JPEG XL and
  camera RAW), files that Tests/FormatsCorpus/MANIFEST.tsv names: from the package archives ARCHIVES.tsv names (PyPI
  sdists, Debian source tarballs) and, for those only GitHub serves, from the copies committed in
  Tests/FormatsCorpus/files; built once into .build/formats-corpus by scripts/fetch-corpus (the archives cached in
  ~/.cache/shrink/archives, every file checked against its sha256); None under `SHRINK_CORPUS=none`, where the
  generated corpus holds those formats. A fetch that fails fails the check: the formats corpus is never silently
  left out.
- `rows(script)`: the MANIFEST rows of the chosen corpus and of the formats corpus, each with `file`, its path.
- `counted(script, files)`: prints `SCRIPT: corpus files checked: N` (or `generated files checked: N`); a
  selection of no file is a failure (exit 1), never a pass that checked nothing."""
import csv, os, subprocess, sys

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


def formats(script):
    if os.environ.get("SHRINK_CORPUS") == "none":
        return None
    target = os.path.join(ROOT, ".build", "formats-corpus")
    manifest = os.path.join(ROOT, "Tests", "FormatsCorpus", "MANIFEST.tsv")
    # Files kept in the repository (those only GitHub serves, where their licences allow), then ../shared/formats.
    committed = os.path.join(ROOT, "Tests", "FormatsCorpus", "files")
    shared = os.path.normpath(os.path.join(ROOT, "..", "shared", "formats"))
    locals_ = [committed] + ([shared] if os.path.isdir(shared) else [])
    # The MANIFEST it was fetched from, and which local copies were there then.
    key = open(manifest, "rb").read() + b"".join(b"\n# with " + d.encode() for d in locals_)
    stamp = os.path.join(target, ".fetched-from")
    if not (os.path.isfile(stamp) and open(stamp, "rb").read() == key):
        cache = os.path.join(os.path.expanduser("~"), ".cache", "shrink", "archives")
        fetched = subprocess.run([os.path.join(ROOT, "scripts", "fetch-corpus"), target, "--sources", "pypi,deb",
                                  "--manifest", manifest, "--archives",
                                  os.path.join(ROOT, "Tests", "FormatsCorpus", "ARCHIVES.tsv"), "--archives-cache",
                                  cache] + [a for d in locals_ for a in ("--local", d)], capture_output=True, text=True)
        if fetched.returncode != 0 or _missing(manifest, target, github=False):
            print(fetched.stdout + fetched.stderr, file=sys.stderr)
            print(f"{script}: the formats corpus (Tests/FormatsCorpus) could not be fetched into {target}",
                  file=sys.stderr)
            sys.exit(1)
        open(stamp, "wb").write(key)
        print(f"{script}: fetched the formats corpus into {os.path.relpath(target, ROOT)} (scripts/fetch-corpus)",
              flush=True)
    # Files only GitHub serves that are neither committed nor in ../shared/formats (this machine reaches PyPI and
    # Debian, not GitHub).
    left = _missing(manifest, target, github=True)
    if left:
        print(f"{script}: {len(left)} files of the formats corpus are GitHub's only and not in Tests/FormatsCorpus/files "
              f"or ../shared/formats: left out ({', '.join(sorted({r['source'].split()[0] for r in left}))}; "
              "fetch-corpus --sources github fetches them)", flush=True)
    return target


def _missing(manifest, target, github):
    """The MANIFEST's rows that `target` lacks, those GitHub serves (github) or the others."""
    with open(os.path.join(target, "MANIFEST.tsv"), newline="") as f:
        held = {row["path"] for row in csv.DictReader(f, delimiter="\t")}
    with open(manifest, newline="") as f:
        return [row for row in csv.DictReader(f, delimiter="\t")
                if row["path"] not in held and row["source"].startswith("github:") == github]


def rows(script):
    found = []
    for directory in filter(None, (chosen(script), formats(script))):
        with open(os.path.join(directory, "MANIFEST.tsv"), newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                row["file"] = os.path.join(directory, row["path"])
                if os.path.isfile(row["file"]):
                    found.append(row)
    return found


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
