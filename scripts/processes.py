"""Helpers the scripts share: a free loopback port, a process tree's CPU time and resident memory read from /proc
(bench-serve, soak-serve, check-gallery, cluster), and one command's own CPU and peak RSS (bench,
bench-progressive). Imported from the scripts' own folder."""
import os, socket, subprocess

TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree(root):
    """`root` and all its descendants (nginx's workers, thumbor's processes)."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                s = open(f"/proc/{d}/stat", "rb").read()
            except OSError:
                continue
            children.setdefault(int(s[s.rindex(b")") + 2:].split()[1]), []).append(int(d))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def rss_kib(pids):
    """Resident memory of `pids` (VmRSS), summed, in KiB; processes gone count 0."""
    total = 0
    for p in pids:
        try:
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pids):
    """User + system CPU of `pids`, summed, in seconds; processes gone count 0."""
    total = 0.0
    for p in pids:
        try:
            s = open(f"/proc/{p}/stat", "rb").read()
            f = s[s.rindex(b")") + 2:].split()
            total += (int(f[11]) + int(f[12])) / TICK
        except OSError:
            pass
    return total


def launcher(root):
    """scripts/floors/measure.c built into .bench/floors/measure (again when the source is newer)."""
    source = os.path.join(root, "scripts", "floors", "measure.c")
    binary = os.path.join(root, ".bench", "floors", "measure")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        os.makedirs(os.path.dirname(binary), exist_ok=True)
        subprocess.run(["cc", "-O2", "-o", binary, source], check=True)
    return binary


def measure(cmd, root, wall=False):
    """CPU seconds (user + sys, to the microsecond) and peak RSS in MiB of one run of `cmd`, as wait4 reports them
    for that process alone (the launcher is small, so the peak does not start from Python's, and its own CPU is
    not counted), and with `wall` its wall seconds (fork to exit) third. Exits the script when `cmd` fails."""
    p = subprocess.run([launcher(root)] + cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{os.path.basename(cmd[0])} failed ({p.returncode}): {' '.join(cmd)}")
    us, kib, elapsed = p.stdout.split()
    return (int(us) / 1e6, int(kib) / 1024) + ((int(elapsed) / 1e6,) if wall else ())
