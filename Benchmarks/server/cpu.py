#!/usr/bin/env python3
"""How busy the machine was, to tell a measurement apart from other work on the same cores.

    cpu.py snapshot ROOT_PID          prints "busy total ours" in clock ticks
    cpu.py share BEFORE AFTER         prints the other processes' share of the CPU in percent

busy and total come from /proc/stat (every core); ours is the CPU time of ROOT_PID and every
process descending from it (the server, the peers, the sampler), plus the children it has
reaped (wrk, once finished). The rest of busy is other processes: builds, other benchmarks.
"""
import os
import sys


def stat_fields(pid):
    with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
        text = file.read()
    # The command name is in parentheses and may hold spaces: split after its closing one.
    return text[text.rindex(")") + 2 :].split()


def snapshot(root):
    with open("/proc/stat", encoding="ascii") as file:
        values = [int(v) for v in file.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    busy = user + nice + system + irq + softirq + steal
    total = busy + idle + iowait

    parents, ticks = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = stat_fields(name)
        except (OSError, ValueError):
            continue
        pid = int(name)
        parents[pid] = int(fields[1])
        ticks[pid] = int(fields[11]) + int(fields[12])  # utime + stime
        if pid == root:
            ticks[pid] += int(fields[13]) + int(fields[14])  # cutime + cstime: reaped children

    ours = 0
    for pid in ticks:
        ancestor = pid
        while ancestor not in (0, 1) and ancestor != root:
            ancestor = parents.get(ancestor, 0)
        if ancestor == root:
            ours += ticks[pid]
    return busy, total, ours


def main():
    if sys.argv[1] == "snapshot":
        print(*snapshot(int(sys.argv[2])))
    elif sys.argv[1] == "share":
        before = [int(v) for v in sys.argv[2].split()]
        after = [int(v) for v in sys.argv[3].split()]
        busy, total, ours = (a - b for a, b in zip(after, before))
        print(round(100 * max(0, busy - ours) / total) if total > 0 else 0)


if __name__ == "__main__":
    main()
