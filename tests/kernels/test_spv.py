"""The committed SPIR-V kernels: fresh against their WGSL sources, and valid."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WGSL_DIR = REPO / "kernels" / "wgsl"
SHIPPED = sorted(WGSL_DIR.glob("*.spv"))


def _load_build_spv():
    spec = importlib.util.spec_from_file_location("build_spv", REPO / "tools" / "build_spv.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_spv", mod)
    spec.loader.exec_module(mod)
    return mod


build_spv = _load_build_spv()


def _skip(reason: str) -> None:
    print(f"SKIPPED: {reason}")  # visible with -s; the reason also shows with -rs
    pytest.skip(reason)


def test_spv_fresh() -> None:
    """Every kernels/wgsl/*.spv equals a fresh translation of its .wgsl (and none is missing)."""
    if shutil.which("node") is None:
        _skip("node is not installed, cannot run naga-wasm to rebuild the kernels")
    if not (REPO / "tools" / "naga" / "node_modules" / "naga-wasm").is_dir():
        npm = shutil.which("npm")
        if npm is None:
            _skip("npm is not installed, cannot install tools/naga (npm ci)")
        r = subprocess.run([npm, "ci", "--prefix", str(REPO / "tools" / "naga")],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"npm ci --prefix tools/naga failed:\n{r.stdout}{r.stderr}"
    bad = build_spv.stale(WGSL_DIR)
    assert not bad, "stale kernels (run `python tools/build_spv.py`): " + ", ".join(bad)


@pytest.mark.skipif(not SHIPPED, reason="no .spv kernels in kernels/wgsl")
@pytest.mark.parametrize("spv", SHIPPED, ids=[p.name for p in SHIPPED])
def test_spv_valid(spv: Path) -> None:
    """spirv-val --target-env vulkan1.1 accepts every shipped kernel."""
    exe = shutil.which("spirv-val")
    if exe is None:
        _skip("spirv-val is not installed (Debian: spirv-tools)")
    r = subprocess.run([exe, "--target-env", "vulkan1.1", str(spv)], capture_output=True, text=True)
    assert r.returncode == 0, f"spirv-val rejected {spv.name}:\n{r.stdout}{r.stderr}"


@pytest.mark.skipif(not SHIPPED, reason="no .spv kernels in kernels/wgsl")
@pytest.mark.parametrize("spv", SHIPPED, ids=[p.name for p in SHIPPED])
def test_spv_no_workgroup_zero_init(spv: Path) -> None:
    """build_spv dropped naga's workgroup zero-fill (minutes of lavapipe compile time)."""
    words = spv.read_bytes()
    assert build_spv.strip_workgroup_zero_init(words) == words


def test_variants_and_patches(tmp_path: Path) -> None:
    """Placeholder substitution, variant names and the SPIR-V 1.3 patch (no node needed)."""
    (tmp_path / "k.wgsl").write_text("const NF: u32 = {{NF}}u; const SG = {{ SG }};")
    (tmp_path / "plain.wgsl").write_text("const A = 1;")
    (tmp_path / "variants.json").write_text(
        '{"k": [{"NF": 1, "SG": false}, {"NF": 4, "SG": true}, {"name": "k_x", "NF": 2, "SG": "f(v)"}]}')
    jobs = {name: text for _src, name, text in build_spv.plan(tmp_path)}
    assert jobs == {
        "k_nf1_sgfalse": "const NF: u32 = 1u; const SG = false;",
        "k_nf4_sgtrue": "const NF: u32 = 4u; const SG = true;",
        "k_x": "const NF: u32 = 2u; const SG = f(v);",
        "plain": "const A = 1;",
    }
    (tmp_path / "plain.wgsl").write_text("const A = {{A}};")
    with pytest.raises(build_spv.BuildError, match="no entry"):
        build_spv.plan(tmp_path)

    def module(*caps: int) -> bytes:
        words = [0x07230203, 0x00010000, 0, 8, 0]
        for c in caps:
            words += [(2 << 16) | 17, c]  # OpCapability c
        return b"".join(w.to_bytes(4, "little") for w in words)

    assert build_spv.patch_version(module(1)) == module(1)  # Shader only: stays 1.0
    patched = build_spv.patch_version(module(1, 63))  # GroupNonUniformArithmetic
    assert int.from_bytes(patched[4:8], "little") == 0x00010300 and patched[8:] == module(1, 63)[8:]
