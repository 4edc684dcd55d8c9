#!/usr/bin/env bash
# The modules of this run, built on the 2-core machine (expx/ is git-excluded) by the
# nineteenth run's build.sh: r16 from a worktree of 96471ba (BASE: radix-16 passes, every
# row length's passes in each kernel), prune from this tree (each plan's kernels keep only
# their row length's passes); and the artifacts of `ireesht check` (expx/chk20).
OUT=expx/s20 TAGS="r16 prune" CHK=expx/chk20 exec bash benchmarks/2026-12-01-h200-nineteenth/build.sh
