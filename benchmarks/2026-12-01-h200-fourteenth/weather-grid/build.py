"""Build CUDA modules for the weather grid 721 x 1440 (lmax 720, equiangular) and, for the
same Legendre work, 721 x 2048 (FFT path)."""
import sys, time
from pathlib import Path
import ireesht
out = Path(sys.argv[1])
for name, nphi, b in (("l720_b1_e1440", 1440, 1), ("l720_b1_e2048", 2048, 1), ("l720_b16_e1440", 1440, 16)):
    t = time.time()
    ireesht.build(720, out / name, targets=("cuda",), mmax=719, nlat=721, nphi=nphi, grid="equiangular",
                  fields_per_thread=4 if b > 1 else 1)
    print(name, f"{time.time() - t:.1f}s", flush=True)
t = time.time()
ireesht.build(360, out / "l360_b1_e1440", targets=("cuda",), grid="equiangular")  # 721 x 1440, exact
print("l360_b1_e1440", f"{time.time() - t:.1f}s", flush=True)
