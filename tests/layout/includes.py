#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The include graph of userspace/ and bpf/, as rooms (folders) and files.

    includes.py rooms   cycles between folders (a cycle prints as a -> b -> a)
    includes.py files   cycles between files, headers including each other

Exit status 1 and one "# " line per cycle when there is one.
"""
import os
import re
import subprocess
import sys

ROOTS = ["userspace/sidetrace", "userspace", "bpf"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources():
    out = subprocess.check_output(["git", "ls-files", "userspace", "bpf"], text=True)
    return [f for f in out.split() if f.endswith((".c", ".h"))]


def resolve(src, name, known):
    here = os.path.normpath(os.path.join(os.path.dirname(src), name))
    if here in known:
        return here
    for root in ROOTS:
        p = os.path.normpath(os.path.join(root, name))
        if p in known:
            return p
    return None  # a system, generated or public header


def graph():
    files = sources()
    known = set(files)
    edges = {f: set() for f in files}
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            for name in INCLUDE.findall(fh.read()):
                to = resolve(f, name, known)
                if to and to != f:
                    edges[f].add(to)
    return edges


def cycles(edges):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    edges = graph()
    if sys.argv[1:] == ["rooms"]:
        rooms = {}
        for f, tos in edges.items():
            rooms.setdefault(os.path.dirname(f), set()).update(
                os.path.dirname(t) for t in tos if os.path.dirname(t) != os.path.dirname(f))
        edges = rooms
    found = cycles(edges)
    for scc in found:
        print("# cycle: " + " <-> ".join(scc))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
