"""Helpers the server scripts share (bench-serve, soak-serve, check-gallery, cluster): a free loopback port, and a
process tree's CPU time and resident memory read from /proc. Imported from the scripts' own folder."""
import os, socket

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
