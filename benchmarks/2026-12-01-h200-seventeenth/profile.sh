# On the GPU machine: Nsight Compute's full set for the Legendre synthesis (first launch) of
# expx/s17p/<tag>/l1023_b16; the digest into $OUT/profile-<tag>.txt, stall samples per SASS
# instruction into $OUT/sass-<tag>.csv.
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
D=benchmarks/2026-12-01-h200-seventeenth
ab_setup
for tag in mma16; do
  PYTHONPATH=/tmp/site:$PWD ncu --set full --launch-count 1 -o /tmp/p_$tag \
    python3 $D/mma.py launch expx/s17p $tag >/dev/null 2>&1
  ncu --import /tmp/p_$tag.ncu-rep --page details --print-details all > $OUT/profile-$tag.txt 2>&1
  ncu --import /tmp/p_$tag.ncu-rep --page raw --csv 2>/dev/null | python3 -c "
import csv,sys
r=list(csv.reader(sys.stdin)); h,u,v=r[0],r[1],r[2]
keys=[k for k in h if k.startswith('smsp__pcsamp_warps_issue_stalled') and not k.endswith('not_issued')]
for k in sorted(keys, key=lambda k: -float(v[h.index(k)].replace(',','') or 0))[:14]:
    print(k, v[h.index(k)])
" > $OUT/stalls-$tag.txt
  ncu --import /tmp/p_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass-$tag.csv 2>&1
done
