"""On the GPU machine: one synth + analys call of module DIR (CUDA), for Nsight Compute."""
import sys
import numpy as np
import ireesht
from ireesht.bench import device_inputs

mod = ireesht.load(sys.argv[1], "cuda")
batch = int(sys.argv[1].rstrip("/").split("_")[1][1:])
q, _, q_dev, f_out, q_out = device_inputs(mod, batch, np.random.default_rng(7))
mod.synth(q_dev, out=f_out)
mod.analys(f_out, out=q_out)
mod.synchronize()
