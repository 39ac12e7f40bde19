#!/usr/bin/env python3
"""Estimates a build's wall time on idle cores from a log of bench/build_calls.sh.

    python3 bench/build_replay.py calls.log [JOBS=2] [ARCHIVE_SECONDS=1.5]

Replays the calls in the order the build started them, each lasting its CPU time (user +
sys), on JOBS workers that are otherwise idle, keeping the build's dependencies: the core
library's objects after its precompiled header, main.cpp after every core object (plus the
archive), the daemon's link after main.cpp, a plugin's link after its objects (the exporters'
after otlp_event_model). For `make run`'s build (--target aev_runtime) that is the whole graph;
other calls are placed as they come. Checked against a quiet machine: 289 s replayed against
293.8 s measured (bench/NOTEBOOK.md, 2026-11-28 12:35).
"""
import sys


def kind(out):
    if "aev_core.dir" in out and "cmake_pch" in out:
        return "pch"
    if "aev_core.dir" in out:
        return "core"
    if out.endswith("main.cpp.o") and "agent-eventsd.dir" in out:
        return "main"
    if out == "agent-eventsd":
        return "link"
    if out.endswith(".so"):
        return "so"
    return "other"


def main():
    log = sys.argv[1]
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    archive = float(sys.argv[3]) if len(sys.argv) > 3 else 1.5
    calls = []
    for line in open(log):
        f = line.split()
        if len(f) < 6:
            continue
        calls.append((float(f[0]), float(f[2]) + float(f[3]), f[5]))
    calls.sort()
    free = [0.0] * jobs
    ends = {}
    core_ends = []
    last = 0.0
    for _, cpu, out in calls:
        k = kind(out)
        ready = 0.0
        if k == "core":
            ready = ends.get("pch", 0.0)
        elif k == "main":
            ready = max(core_ends, default=0.0) + archive
        elif k == "link":
            ready = ends.get("main", 0.0)
        elif k == "so":
            name = out.rsplit("/", 1)[-1][:-3]
            deps = [e for o, e in ends.items()
                    if f"/{name}.dir/" in o or (name.startswith("exporter") and "otlp_event_model" in o)]
            ready = max(deps, default=0.0)
        i = min(range(jobs), key=lambda j: free[j])
        free[i] = max(free[i], ready) + cpu
        ends[k if k in ("pch", "main", "link") else out] = free[i]
        if k == "core":
            core_ends.append(free[i])
        last = max(last, free[i])
    total = sum(c for _, c, _ in calls)
    print(f"{len(calls)} calls, {total:.1f} CPU-s; on {jobs} idle workers {last:.1f} s "
          f"(parallelism {total / last:.2f})")


if __name__ == "__main__":
    main()
