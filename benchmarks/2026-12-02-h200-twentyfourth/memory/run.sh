#!/usr/bin/env bash
# memory traffic of each stage: Nsight Compute metrics per launch
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-02-h200-twentysecond/anal_set.py
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
for tag in def ish; do
  echo "== $tag"
  PYTHONPATH=/tmp/site:$PWD ncu --csv --metrics $M --log-file /tmp/ncu_$tag.csv python3 $A launch expx/s24c $tag >/dev/null 2>&1
  python3 - /tmp/ncu_$tag.csv <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith('"ID"'))
rows = {}
short = {"gpu__time_duration.sum": "us", "dram__bytes_read.sum": "dramR", "dram__bytes_write.sum": "dramW",
         "lts__t_sectors_op_read.sum": "L2rd", "lts__t_sectors_op_write.sum": "L2wr",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "stSec", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "stReq",
         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "ldSec", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "ldReq",
         "lts__throughput.avg.pct_of_peak_sustained_elapsed": "L2%", "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram%"}
for r in csv.DictReader(lines[i:]):
    d = rows.setdefault(r["ID"], {"grid": r["Grid Size"], "unit": {}})
    d[short.get(r["Metric Name"], r["Metric Name"])] = (r["Metric Value"].replace(",", ""), r["Metric Unit"])
for k, d in rows.items():
    print(k, d["grid"], " ".join(f"{n}={v[0]}{v[1] if v[1] not in ('', 'sector', 'request') else ''}" for n, v in d.items() if n not in ("grid", "unit")))
PY
done 2>&1 | tee $OUT/mem.txt
