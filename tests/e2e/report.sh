#!/usr/bin/env bash
# report.sh: `ibnetsim report` as a user shares a run: one self-contained HTML page (no script,
# no external file: figures inlined as SVG) with the run's name, key numbers equal to
# summary.json's, the flows, the figures drawn by `ibnetsim plot`, the scenario as run, and a
# reproduction table with its passes and misses marked; headless Chromium (Debian) renders it
# without a console message and the screenshot is not blank. Bad usage exits 2.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
cd "$work"
cat > incast.cfg <<'CFG'
simulation = { name = "incast into H3"; duration = "300 us"; warmup = "50 us"; sample_interval = "10 us"; seed = 3; };
topology = { generator = "single_switch"; args = "ports=4"; };
flows = (
  { name = "A"; src = "H1"; dst = "H3"; kind = "poisson"; load = 0.8; msg_size = "2 KiB"; },
  { name = "B"; src = "H2"; dst = "H3"; kind = "poisson"; load = 0.8; msg_size = "2 KiB"; },
  { name = "V<&>"; src = "H4"; dst = "H1"; kind = "poisson"; load = 0.3; msg_size = "2 KiB"; }
);
CFG
"$bin" run incast.cfg -o r1 -q || failed "run r1"
"$bin" run incast.cfg -o r2 -q -s switch.arch=fifo -s 'simulation.name=incast, 1Q' || failed "run r2"

expect 0 "usage: ibnetsim report" "$bin" report --help
expect 2 "expected RUN_DIR" "$bin" report
expect 2 "needs -o FILE" "$bin" report r1 r2
expect 2 "is not a results folder" "$bin" report "$work"
expect 0 "r1/report.html" "$bin" report r1
html=r1/report.html
grep -q '<title>incast into H3 &ndash; ibnetsim report</title>' "$html" || failed "the page's title does not name the run"
[ "$(grep -c '<svg' "$html")" -ge 4 ] || failed "fewer than 4 inlined figures: $(grep -c '<svg' "$html")"
for f in throughput latency ports topology; do [ -s "r1/$f.svg" ] || failed "report did not draw $f.svg"; done
grep -qiE '<script|<link|src="(https?|file):|href="(https?|file):' "$html" && failed "the page is not self-contained"
grep -q '<td>V&lt;&amp;&gt;</td>' "$html" || failed "a flow name is not escaped"
grep -q 'name = &quot;incast into H3&quot;' "$html" || failed "the scenario as run is not in the page"
# The key numbers are summary.json's.
python3 - "$html" r1/summary.json <<'PY' || failed "key numbers differ from summary.json"
import json, re, sys
page, s = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
def cell(what):
    m = re.search(r'<tr><th>' + re.escape(what) + r'</th><td>([^<]*)', page)
    return m.group(1).strip() if m else None
ok = True
for what, want in [("outcome", s["run"]["outcome"]), ("events", "%.0f" % s["run"]["events"]),
                   ("packet-hops", "%.0f" % s["run"]["packet_hops"]),
                   ("total throughput (payload)", "%.4g Gb/s" % s["total_throughput_gbps"])]:
    if cell(what) != want:
        print("%s: page %r, summary.json %r" % (what, cell(what), want)); ok = False
rows = re.findall(r'<tr><td>([^<]*)</td><td>H\d</td>', page)
if rows != ["A", "B", "V&lt;&amp;&gt;"]:
    print("flow rows", rows); ok = False
sys.exit(0 if ok else 1)
PY

# Several runs and a reproduction table.
expect 0 "both.html" "$bin" report r1 r2 --repro "$src/scenarios/seed001/repro.csv" -o both.html
grep -q 'href="#run1">incast, 1Q</a>' both.html || failed "the second run is not listed"
want=$(($(wc -l < "$src/scenarios/seed001/repro.csv") - 1))
got=$(sed -n '/id="repro"/,/<\/section>/p' both.html | grep -c '<tr class="\(pass\|miss\|\)"><td>')
[ "$got" = "$want" ] || failed "the repro table has $got rows, repro.csv $want"
passes=$(python3 -c 'import csv, sys; print(sum(1 for r in list(csv.reader(open(sys.argv[1])))[1:] if r[9] == "yes"))' "$src/scenarios/seed001/repro.csv")
[ "$(grep -c '<tr class="pass">' both.html)" = "$passes" ] || failed "passes marked $(grep -c '<tr class="pass">' both.html), repro.csv $passes"

# Headless Chromium renders it without a console message. Its time limit only guards against a
# hang (not a speed check): on a machine whose two cores are busy with other builds it took
# more than 120 s once (2026-11-29), so it gets most of ctest's 900 s.
command -v chromium > /dev/null || { failed "chromium is not installed (scripts/deps.sh installs it)"; exit 1; }
timeout 600 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chrome" --enable-logging=stderr --v=0 \
  --window-size=1280,2400 --screenshot="$work/shot.png" "file://$work/both.html" > chrome.log 2>&1 \
  || failed "chromium failed: $(tail -3 chrome.log)"
grep -q ':CONSOLE' chrome.log && failed "console messages: $(grep ':CONSOLE' chrome.log | head -3)"
size=$(stat -c %s shot.png 2>/dev/null || echo 0)
[ "$size" -gt 40000 ] || failed "the screenshot is blank or missing ($size bytes)"
exit $fail
