#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The shape of the source tree, checked on every `make check`.

Rules (docs/architecture.md says why):
  length   no .c or .h under src/ or include/ is longer than 600 lines;
  os-ifdef no #if on __linux__, __FreeBSD__ or __DragonFly__ outside src/platform/;
  tui-cli  nothing under src/tui includes a file from src/cli;
  circles  no two source files call each other in a loop (nm symbols of the
           built objects), and no headers include each other in a loop;
  layers   calls and includes point down: cli > tui > report > store > measure >
           engine > model, platform, workload > util, and so do the headers a file
           reaches through other headers: a model file that includes a model
           header that includes platform.h uses platform.  A problem
           names the chain of includes;
  private  a header in include/ is a contract between folders: one that the
           files of a single src/ folder alone include (and no other header)
           belongs in that folder;
  test-includes  tests reach headers one way: a contract as "scaletop/NAME.h",
           anything else by its path from the test ("../../src/FOLDER/NAME.h",
           "../tap.h"), so no test needs an -I flag of its own, and no
           local.mk or Makefile.am gives one into src/ or tests/.

usage: layers.py [--only RULE] SRCDIR BUILDDIR
Prints TAP, one result a rule with its problems as comments; exits 1 when a
rule fails.
"""
import os
import re
import subprocess
import sys

MAX_LINES = 600
OS_MACROS = ("__linux__", "__FreeBSD__", "__DragonFly__")
# Higher calls lower.  Folders of one rank may not call each other.
RANK = {"util": 0, "model": 1, "platform": 1, "workload": 1,
        "engine": 2, "measure": 3, "store": 4, "report": 5, "tui": 6, "cli": 7}

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# What a header declares: functions, and extern data.
DECL = re.compile(r"\b([A-Za-z_]\w*)\s*\(|\bextern\b[^;(]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;")


def sources(src):
    """Every .c and .h under src/ and include/, relative to SRCDIR."""
    out = []
    for top in ("src", "include"):
        for d, _, files in os.walk(os.path.join(src, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), src))
    return sorted(out)


def read(src, rel):
    with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def folder(rel):
    """src/engine/x.c -> engine; include/... -> None (owned by its definers)."""
    parts = rel.split("/")
    return parts[1] if parts[0] == "src" and len(parts) > 2 else None


def resolve(src, rel, name):
    """Where #include "name" in rel lands: beside rel, then include/, then the top."""
    for base in (os.path.dirname(rel), "include", ""):
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(src, cand)):
            return cand
    return None


def reached(incl, f):
    """Every header f reaches through its includes, each with the chain that
    reaches it first (breadth first, so the shortest): {header: [f, .., header]}."""
    chain, todo = {}, [[f]]
    while todo:
        path = todo.pop(0)
        for h in incl.get(path[-1], ()):
            if h.endswith(".h") and h not in chain and h != f:
                chain[h] = path + [h]
                todo.append(chain[h])
    return chain


def test_files(src):
    """Every .c and .h under tests/, relative to SRCDIR."""
    out = []
    for d, _, files in os.walk(os.path.join(src, "tests")):
        for f in files:
            if f.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(d, f), src))
    return sorted(out)


def private(files, incl):
    """The headers of include/ that one src/ folder alone includes."""
    users = {}
    for f in files:
        for h in incl[f]:
            if h.startswith("include/"):
                users.setdefault(h, set()).add(folder(f) or "include/")
    return ["%s: only src/%s includes it: it belongs in src/%s/" % (h, u[0], u[0])
            for h, u in sorted((h, sorted(u)) for h, u in users.items())
            if len(u) == 1 and u[0] != "include/"]


def test_includes(src):
    """The tests' includes that are not "scaletop/NAME.h" or a path from the
    test itself, and the build files' -I flags into src/ or tests/."""
    bad = []
    for f in test_files(src):
        for n in INCLUDE.findall(COMMENT.sub(" ", read(src, f))):
            near = os.path.normpath(os.path.join(os.path.dirname(f), n))
            if n == "config.h" or (n.startswith("scaletop/") and
                                   os.path.isfile(os.path.join(src, "include", n))):
                continue
            if near.startswith("include/") or not os.path.isfile(os.path.join(src, near)):
                bad.append('%s includes "%s": a contract is "scaletop/NAME.h", anything '
                           "else its path from the test" % (f, n))
    flag = re.compile(r"-I\s*\$\((?:top_srcdir|srcdir|abs_top_srcdir)\)/(?:src|tests)\b\S*")
    for d, _, names in os.walk(src):
        for m in names:
            if m in ("local.mk", "Makefile.am"):
                rel = os.path.relpath(os.path.join(d, m), src)
                for n, line in enumerate(read(src, rel).splitlines(), 1):
                    for hit in flag.findall(line):
                        bad.append("%s:%d: %s: tests include by path, not by a flag" %
                                   (rel, n, hit))
    return bad


def symbols(src, build, files):
    """defs: symbol -> defining .c; uses: .c -> undefined symbols, from nm of
    the objects built from src/*/*.c (automake may prefix a target name)."""
    cfiles = {f for f in files if f.endswith(".c") and f.startswith("src/")}
    defs, uses, seen = {}, {}, set()
    for d, _, objs in os.walk(os.path.join(build, "src")):
        for o in objs:
            if not o.endswith(".o"):
                continue
            reld = os.path.relpath(d, build)
            stem = o[:-2]
            cands = [os.path.join(reld, stem + ".c")]
            if "-" in stem:
                cands.append(os.path.join(reld, stem.split("-", 1)[1] + ".c"))
            rel = next((c for c in cands if c in cfiles), None)
            if rel is None or rel in seen:
                continue
            seen.add(rel)
            nm = subprocess.run(["nm", os.path.join(d, o)], capture_output=True,
                                text=True, check=True).stdout
            for line in nm.splitlines():
                p = line.split()
                if len(p) == 3 and p[1] in "TDBRCG":
                    defs.setdefault(p[2], set()).add(rel)
                elif len(p) == 2 and p[0] == "U":
                    uses.setdefault(rel, set()).add(p[1])
    return defs, uses


def sccs(nodes, edges):
    """The strongly connected parts of more than one node (Tarjan, iterative)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def check(src, build):
    """[(rule, [problems])] in a fixed order."""
    files = sources(src)
    text = {f: read(src, f) for f in files}
    results = []

    long = ["%s: %d lines (at most %d)" % (f, text[f].count("\n"), MAX_LINES)
            for f in files if text[f].count("\n") > MAX_LINES]
    results.append(("length", long))

    osif = []
    pat = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*\b(%s)\b" % "|".join(OS_MACROS))
    for f in files:
        if f.startswith("src/platform/"):
            continue
        for n, line in enumerate(text[f].splitlines(), 1):
            if pat.search(line):
                osif.append("%s:%d: %s" % (f, n, line.strip()))
    results.append(("os-ifdef", osif))

    incl = {}
    for f in files:
        incl[f] = [r for r in (resolve(src, f, n) for n in INCLUDE.findall(text[f])) if r]
    tuicli = ["%s includes %s" % (f, h) for f in files if folder(f) == "tui"
              for h in incl[f] if folder(h) == "cli"]
    results.append(("tui-cli", tuicli))

    # Files of another OS have no object here; their calls go unchecked.
    defs, uses = symbols(src, build, files)
    calls = {}
    for f, us in uses.items():
        for u in us:
            for d in defs.get(u, ()):
                if d != f:
                    calls.setdefault(f, {}).setdefault(d, u)
    # A header's owners: the files that define a symbol it names.
    owners = {}
    for h in files:
        if h.endswith(".h"):
            words = {a or b for a, b in DECL.findall(COMMENT.sub(" ", text[h]))}
            owners[h] = {d for w in words for d in defs.get(w, ())}
    # Include edges between .c files: f includes x.h, and x.c (same stem) owns it.
    edges = {f: set(t) for f, t in calls.items()}
    for f in files:
        if not f.endswith(".c"):
            continue
        for h in incl[f]:
            mate = os.path.splitext(os.path.basename(h))[0] + ".c"
            if f in owners.get(h, ()):
                continue  # f implements part of h
            for o in owners.get(h, ()):
                if os.path.basename(o) == mate:
                    edges.setdefault(f, set()).add(o)
    circles = []
    for comp in sccs(sorted(edges), edges):
        links = ["%s -> %s (%s)" % (a, b, calls.get(a, {}).get(b, "#include"))
                 for a in comp for b in sorted(edges.get(a, ())) if b in comp]
        circles.append("files in a loop: " + ", ".join(comp) + ": " + "; ".join(links))
    hedges = {h: {i for i in incl[h] if i.endswith(".h")} for h in files if h.endswith(".h")}
    for comp in sccs(sorted(hedges), hedges):
        circles.append("headers including each other: " + ", ".join(comp))
    if not uses:
        circles.append("no objects under %s/src: build first" % build)
    results.append(("circles", circles))

    layer = []
    for f in sorted(edges):
        for t in sorted(edges[f]):
            a, b = folder(f), folder(t)
            if a != b and a in RANK and b in RANK and RANK[a] <= RANK[b]:
                layer.append("%s -> %s (%s): %s may not use %s" %
                             (f, t, calls.get(f, {}).get(t, "#include"), a, b))
    for f in files:
        a = folder(f)
        if a not in RANK:
            continue
        for h, path in reached(incl, f).items():
            for b in sorted(({folder(o) for o in owners.get(h, ())} | {folder(h)}) - {None}):
                if a != b and b in RANK and RANK[a] <= RANK[b]:
                    layer.append("%s (%s): %s may not use %s" %
                                 (" includes ".join(path), b, a, b))
    results.append(("layers", sorted(set(layer))))
    results.append(("private", private(files, incl)))
    results.append(("test-includes", test_includes(src)))
    return results


def main(argv):
    only = None
    if len(argv) == 5 and argv[1] == "--only":
        only = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) != 3:
        sys.stderr.write("usage: layers.py [--only RULE] SRCDIR BUILDDIR\n")
        return 2
    results = check(argv[1], argv[2])
    if only is not None:
        results = [r for r in results if r[0] == only]
        if not results:
            sys.stderr.write("layers.py: no rule %r\n" % only)
            return 2
    print("1..%d" % len(results))
    bad = 0
    for n, (rule, problems) in enumerate(results, 1):
        print("%s %d - %s" % ("not ok" if problems else "ok", n, rule))
        for p in problems:
            print("# %s: %s" % (rule, p))
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
