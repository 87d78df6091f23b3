#!/usr/bin/env python3
"""trace_check.py: a schema check of a Chrome trace-event / Perfetto JSON file (the JSON Object
format) as ibnetsim writes it (src/stats/timeline.c). Usage: trace_check.py FILE. Exits 1 with
the first violation. Checks, per event phase ("ph"):
  every event: an object with ph in {X, C, i, M}, a non-empty string name, an integer pid >= 0;
  X (complete): number ts >= 0 and dur >= 0, integer tid, string cat, object args;
  C (counter): number ts >= 0, args a non-empty object of numbers;
  i (instant): number ts >= 0, s in {g, p, t}, integer tid, string cat;
  M (metadata): name one of process_name, thread_name, process_sort_index, thread_sort_index
     with args.name a string or args.sort_index an integer;
and across events: timed events in non-decreasing ts; spans on one track (pid, tid) never
overlap; every track with spans or instants named by a thread_name, every pid by a
process_name. Prints a one-line count per phase."""
import json
import sys


def fail(msg):
    print("trace_check: " + msg)
    sys.exit(1)


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def integer(x):
    return isinstance(x, int) and not isinstance(x, bool)


def main(path):
    try:
        doc = json.load(open(path))
    except ValueError as err:
        fail("%s is not JSON: %s" % (path, err))
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("top level must be an object with a traceEvents array")
    if doc.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        fail("displayTimeUnit must be ms or ns")
    count, last, track_end = {}, None, {}
    threads, procs, used_threads, used_procs = set(), set(), set(), set()
    for k, ev in enumerate(doc["traceEvents"]):
        where = "event %d (%s)" % (k, json.dumps(ev)[:160])
        if not isinstance(ev, dict):
            fail(where + ": not an object")
        ph = ev.get("ph")
        if ph not in ("X", "C", "i", "M"):
            fail(where + ": ph must be X, C, i or M")
        if not isinstance(ev.get("name"), str) or not ev["name"]:
            fail(where + ": name must be a non-empty string")
        if not integer(ev.get("pid")) or ev["pid"] < 0:
            fail(where + ": pid must be an integer >= 0")
        count[ph] = count.get(ph, 0) + 1
        if ph == "M":
            args = ev.get("args")
            if ev["name"] in ("process_name", "thread_name"):
                if not isinstance(args, dict) or not isinstance(args.get("name"), str):
                    fail(where + ": metadata needs args.name")
                if ev["name"] == "thread_name":
                    if not integer(ev.get("tid")):
                        fail(where + ": thread_name needs an integer tid")
                    threads.add((ev["pid"], ev["tid"]))
                else:
                    procs.add(ev["pid"])
            elif ev["name"] in ("process_sort_index", "thread_sort_index"):
                if not isinstance(args, dict) or not integer(args.get("sort_index")):
                    fail(where + ": sort index metadata needs an integer args.sort_index")
            else:
                fail(where + ": unknown metadata name")
            continue
        ts = ev.get("ts")
        if not num(ts) or ts < 0:
            fail(where + ": ts must be a number >= 0")
        if last is not None and ts < last:
            fail(where + ": ts %s before the previous event's %s (not in time order)" % (ts, last))
        last = ts
        used_procs.add(ev["pid"])
        if ph == "C":
            args = ev.get("args")
            if not isinstance(args, dict) or not args or not all(num(v) for v in args.values()):
                fail(where + ": a counter needs args of numbers")
            continue
        if not integer(ev.get("tid")):
            fail(where + ": tid must be an integer")
        if not isinstance(ev.get("cat"), str):
            fail(where + ": cat must be a string")
        used_threads.add((ev["pid"], ev["tid"]))
        if ph == "X":
            if not num(ev.get("dur")) or ev["dur"] < 0:
                fail(where + ": dur must be a number >= 0")
            if not isinstance(ev.get("args"), dict):
                fail(where + ": args must be an object")
            key = (ev["pid"], ev["tid"])
            # 1e-9 us: the six decimals are exact picoseconds; float sums may differ in the last bit
            if key in track_end and ts < track_end[key] - 1e-9:
                fail(where + ": overlaps the previous span on its track (ends %s)" % track_end[key])
            track_end[key] = ts + ev["dur"]
        elif ev.get("s") not in ("g", "p", "t"):
            fail(where + ": an instant needs s = g, p or t")
    if used_threads - threads:
        fail("tracks without a thread_name: %s" % sorted(used_threads - threads)[:5])
    if used_procs - procs:
        fail("pids without a process_name: %s" % sorted(used_procs - procs)[:5])
    print("trace_check: %s valid: %s" % (path, " ".join("%s=%d" % kv for kv in sorted(count.items()))))


if __name__ == "__main__":
    main(sys.argv[1])
