"""Medians of `go test -bench -count N` output, one line per benchmark."""
import re
import statistics
import sys

runs: dict[str, dict[str, list[float]]] = {}
for line in sys.stdin:
    f = line.split()
    if not f or not f[0].startswith("Benchmark"):
        continue
    name = re.sub(r"-\d+$", "", f[0])
    r = runs.setdefault(name, {"op": [], "id": []})
    r["op"].append(float(f[2]))
    if "ns/id" in f:
        r["id"].append(float(f[f.index("ns/id") - 1]))
for name, r in sorted(runs.items()):
    extra = f"  {statistics.median(r['id']):6.2f} ns/id" if r["id"] else ""
    print(f"  {name:36} {statistics.median(r['op']):10.1f} ns/op{extra}")
