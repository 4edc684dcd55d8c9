"""Build the CPU kernel objects of kernels/c with clang: one freestanding ELF object per
variant of the "c" family (ireesht/registry.py), CPU baseline and dtype (its template:
``kernels/c/<stage>[_f64]_<baseline>.o`` and the float32-only variants'), plus
``kernels/c/objects.json`` (clang version, and per object the sha256 of its sources and of
itself).

The objects are committed, so users need no C compiler; ``tests/kernels/test_cpu_target.py``
compares the recorded source hashes with the sources to catch a stale object.

Usage: ``python tools/build_objects.py [--check]`` (``--check``: rebuild into a temporary
directory and compare with the committed objects instead of writing).
Needs clang (Debian: ``apt-get install clang``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ireesht.codegen.c import (build_flags, object_name, objects, source_digest,  # noqa: E402
                               source_file)

SRC = ROOT / "kernels" / "c"
MANIFEST = SRC / "objects.json"
# baseline -> target flags; names match ireesht.host.CPU_BASELINES
BASELINES = {
    "x86-64-v2": ["-target", "x86_64-none-elf", "-march=x86-64-v2"],
    "x86-64-v3": ["-target", "x86_64-none-elf", "-march=x86-64-v3"],
    "aarch64": ["-target", "aarch64-none-elf", "-march=armv8-a"],
}
# Freestanding objects for IREE's embedded ELF loader: no libc/libm (-fno-math-errno keeps
# clang from calling libm), no globals or TLS; iree-compile links them with its own lld.
COMMON = ["-std=c17", "-O3", "-fno-math-errno", "-ffreestanding", "-fno-builtin",
          "-fvisibility=hidden", "-fno-plt", "-fno-exceptions", "-fdata-sections",
          "-ffunction-sections", "-funique-section-names", "-fno-stack-protector",
          "-Wall", "-Werror",
          "-Wno-psabi"]  # vector arguments only between always_inline helpers


def clang_version(clang: str) -> str:
    return subprocess.run([clang, "--version"], capture_output=True, text=True,
                          check=True).stdout.splitlines()[0]


def build_one(clang: str, out_dir: Path, stage: str, variant: str, base: str,
              dtype: str) -> tuple[str, dict]:
    """Compile one object into out_dir; returns its name and manifest entry."""
    obj = out_dir / object_name(stage, base, dtype, variant)
    subprocess.run([clang, *BASELINES[base], *build_flags(variant, dtype), *COMMON, "-c",
                    str(SRC / source_file(stage, variant)), "-o", str(obj)], check=True)
    undefined = subprocess.run(["llvm-nm" if shutil.which("llvm-nm") else "nm", "-u",
                                str(obj)], capture_output=True, text=True).stdout.split()
    if undefined:  # e.g. memcpy or a libm call: iree-lld would fail to link
        sys.exit(f"{obj.name}: undefined symbols {undefined}")
    return obj.name, {
        "stage": stage,
        "variant": variant,
        "baseline": base,
        "dtype": dtype,
        "source_sha256": source_digest(stage, SRC, variant),
        "sha256": hashlib.sha256(obj.read_bytes()).hexdigest(),
    }


def build(clang: str, out_dir: Path) -> dict:
    """Compile every (stage, variant, baseline, dtype) object into out_dir; returns the
    manifest."""
    jobs = objects(BASELINES)
    # one clang per core: the rebuild check in tests/kernels/test_cpu_target.py waits for all 36
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        built = dict(pool.map(lambda job: build_one(clang, out_dir, *job), jobs))
    return {"clang": clang_version(clang), "flags": COMMON, "objects": built}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clang", default="clang")
    ap.add_argument("--check", action="store_true",
                    help="rebuild in a temporary directory and compare with the committed objects")
    args = ap.parse_args()
    if not shutil.which(args.clang):
        sys.exit(f"{args.clang} not found (Debian: apt-get install clang)")
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            manifest = build(args.clang, Path(tmp))
            differ = [n for n in manifest["objects"]
                      if (Path(tmp) / n).read_bytes() != (SRC / n).read_bytes()]
        if differ:
            sys.exit(f"objects differ from a rebuild: {differ}")
        print("objects match a rebuild")
        return
    manifest = build(args.clang, SRC)
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {len(manifest['objects'])} objects and {MANIFEST.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
