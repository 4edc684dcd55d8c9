"""Saved artifacts: ireesht.build / Module.save, ireesht.load's choice and its checks."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import numpy as np
import pytest

import ireesht
from ireesht import host
from ireesht.runtime import artifacts
from ireesht.runtime.artifacts import ArtifactError
from ireesht.runtime.device import available_drivers
from ireesht.cli import main
from ireesht.numerics.reference import random_coefficients

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory, vulkan) -> Path:
    out = tmp_path_factory.mktemp("art") / "sht7"
    messages = []
    ireesht.build(7, out, targets=("vulkan",), grid="equiangular", progress=messages.append)
    assert messages == ["[1/1] vulkan, mlir kernels"]
    return out


def test_build_writes_modules_manifest_and_readme(built):
    manifest = json.loads((built / "manifest.json").read_text())
    # nphi: 4 lmax = 28 rounded up to an FFT size (28 / 2 = 2 * 7: 30)
    assert manifest["plan"] == {"lmax": 7, "mmax": 7, "grid": "equiangular", "nlat": 15,
                                "nphi": 30, "dtype": "float32"}
    (entry,) = manifest["artifacts"]
    assert entry["target"] == "vulkan" and entry["kernels"] == "mlir"
    assert entry["file"] == "sht_vulkan_mlir.vmfb" and entry["bytes"] == (built / entry["file"]).stat().st_size
    assert manifest["iree_compiler"].startswith("3.13") and manifest["ireesht_version"] == ireesht.__version__
    assert "orthonormal" in manifest["conventions"]["normalization"]
    assert "ireesht.load" in (built / "README.md").read_text()


def test_loaded_artifact_matches_a_fresh_compile(built, rng):
    mod = ireesht.load(built)
    assert mod.info["module"] == "loaded" and mod.plan.target == "vulkan"
    fresh = ireesht.compile(7, grid="equiangular", target="vulkan")
    q = random_coefficients(rng, 7, 7, (3,))
    np.testing.assert_array_equal(mod.synth(q), fresh.synth(q))


def _copy(src: Path, dst: Path) -> Path:
    dst.mkdir()
    for f in src.iterdir():
        (dst / f.name).write_bytes(f.read_bytes())
    return dst


def _edit_manifest(path: Path, **changes) -> None:
    """Change top-level fields and seal the manifest again (as a build with those fields
    would have written it: an unsealed edit is refused by its digest,
    tests/integration/test_reliability.py)."""
    m = json.loads((path / "manifest.json").read_text())
    m.update(changes)
    m["digest"] = artifacts.manifest_digest(m)
    (path / "manifest.json").write_text(json.dumps(m))


def test_truncated_module_is_named(built, tmp_path):
    d = _copy(built, tmp_path / "t")
    data = (d / "sht_vulkan_mlir.vmfb").read_bytes()
    (d / "sht_vulkan_mlir.vmfb").write_bytes(data[: len(data) // 3])
    with pytest.raises(ArtifactError, match=r"sht_vulkan_mlir.vmfb: \d+ bytes, expected \d+ \(truncated"):
        ireesht.load(d)


def test_corrupted_manifest_and_other_versions(built, tmp_path):
    d = _copy(built, tmp_path / "c")
    (d / "manifest.json").write_text('{"manifest_version": 2, "artif')
    with pytest.raises(ArtifactError, match="not a valid manifest"):
        ireesht.load(d)
    d = _copy(built, tmp_path / "n")
    _edit_manifest(d, manifest_version=99, ireesht_version="9.0")
    with pytest.raises(ArtifactError, match="manifest_version=99 was written by ireesht 9.0"):
        ireesht.load(d)
    # version 3 modules take the binary powers of sin theta instead of the seed table
    d = _copy(built, tmp_path / "o")
    _edit_manifest(d, manifest_version=3)
    with pytest.raises(ArtifactError, match="manifest_version=3 from an older ireesht; rebuild"):
        ireesht.load(d)


def test_other_iree_release_is_refused(built, tmp_path):
    d = _copy(built, tmp_path / "r")
    _edit_manifest(d, iree_compiler="3.99.0")
    with pytest.raises(ArtifactError, match=r"compiled by IREE 3.99, this runtime is IREE 3.13"):
        ireesht.load(d)


def test_missing_target_names_the_drivers_here(built):
    with pytest.raises(ArtifactError, match=r"target='cuda', kernels=None: no such module .*it has \['vulkan:mlir'\]"):
        ireesht.load(built, target="cuda")


def test_select_refuses_modules_this_machine_cannot_run():
    entry = {"target": "cuda", "plan": {}, "file": "sht_cuda.vmfb"}
    cpu = {"target": "cpu", "plan": {"cpu": "some-other-cpu"}, "file": "sht_cpu.vmfb"}
    manifest = {"_dir": "d", "artifacts": [entry, cpu]}
    with pytest.raises(ArtifactError, match=r"modules for cuda, cpu \(some-other-cpu\), but this "
                       r"machine has drivers with a device: \['local-task'\]"):
        artifacts.select(manifest, None, ["local-task"], vulkan_gpu=False)
    # with a CUDA device, CUDA is preferred; a software Vulkan ranks after the CPU
    vk = {"target": "vulkan", "plan": {}, "file": "sht_vulkan_mlir.vmfb"}
    cpu_ok = {"target": "cpu", "plan": {"cpu": next(iter(host.cpu_baselines()))}}
    both = {"_dir": "d", "artifacts": [vk, cpu_ok, entry]}
    assert artifacts.select(both, None, ["cuda", "vulkan", "local-task"], True) is entry
    assert artifacts.select(both, None, ["vulkan", "local-task"], False) is cpu_ok
    assert artifacts.select(both, None, ["vulkan", "local-task"], True) is vk


def test_cli_info_verifies_checksums(built, tmp_path, capsys):
    assert main(["info", str(built)]) == 0
    assert json.loads(capsys.readouterr().out)["artifacts"][0]["target"] == "vulkan"
    d = _copy(built, tmp_path / "i")
    data = bytearray((d / "sht_vulkan_mlir.vmfb").read_bytes())
    data[100] ^= 1
    (d / "sht_vulkan_mlir.vmfb").write_bytes(bytes(data))
    assert main(["info", str(d)]) == 2
    assert "does not match the manifest" in capsys.readouterr().err


def test_cli_build_shows_progress(vulkan, tmp_path):
    out = subprocess.run([sys.executable, "-m", "ireesht", "build", "--lmax", "3", "--targets",
                          "vulkan", "--out", str(tmp_path / "b")], capture_output=True, text=True,
                         cwd=REPO)
    assert out.returncode == 0, out.stderr
    assert "compiling [1/1] vulkan, mlir kernels" in out.stderr and "wrote" in out.stderr
    assert (tmp_path / "b" / "sht_vulkan_mlir.vmfb").exists()


def test_cli_build_takes_the_batch_plan(tmp_path, capsys):
    # the plan of the tensor-core synthesis: 256 pairs, four fields per thread, "ishioka"
    assert main(["build", "--lmax", "511", "--targets", "cuda", "--fields-per-thread", "4",
                 "--recurrence", "ishioka", "--out", str(tmp_path / "b")]) == 0
    plan = json.loads((tmp_path / "b" / "manifest.json").read_text())["artifacts"][0]["plan"]
    assert plan["fields_per_thread"] == 4
    assert plan["variants"]["leg_synth"]["name"] == "tensor_cores"
    with pytest.raises(SystemExit):
        main(["build", "--lmax", "3", "--fields-per-thread", "3", "--out", str(tmp_path / "c")])
    assert "invalid choice: 3" in capsys.readouterr().err


def test_artifact_runs_with_only_the_runtime_and_numpy(built, tmp_path, rng):
    """A fresh venv with ireesht's wheel and its dependencies only (iree-base-runtime and
    numpy, no compiler): the artifact loads and gives the numbers computed here, compiling
    says in one sentence what to install, and ``ireesht --version`` answers."""
    wheel_dir = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheel_dir),
                    str(REPO)], check=True)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    from importlib.metadata import version

    # the runtime release that compiled `built` (ireesht.load refuses another)
    subprocess.run([py, "-m", "pip", "install", "-q",
                    f"iree-base-runtime=={version('iree-base-runtime')}",
                    *wheel_dir.glob("*.whl")], check=True)
    q = random_coefficients(rng, 7, 7, (2,))
    expect = ireesht.load(built).synth(q)
    np.save(tmp_path / "q.npy", q)
    np.save(tmp_path / "f.npy", expect)
    script = (
        "import importlib.util, sys, numpy as np, ireesht\n"
        "assert importlib.util.find_spec('iree.compiler') is None\n"
        "m = ireesht.load(sys.argv[1])\n"
        "assert not [n for n in sys.modules if n.startswith('ireesht.codegen')], sys.modules\n"
        "f = m.synth(np.load(sys.argv[2]))\n"
        "np.testing.assert_array_equal(f, np.load(sys.argv[3]))\n"
        "print('ok', m.info['device'])\n"
        "try:\n"
        "    ireesht.compile(3)\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([py, "-c", script, str(built), str(tmp_path / "q.npy"),
                          str(tmp_path / "f.npy")], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")
    assert ("compiling a plan needs IREE's compiler, which is not installed: pip install "
            "'ireesht[compile]'") in out.stdout
    v = subprocess.run([env_dir / "bin" / "ireesht", "--version"], capture_output=True, text=True)
    assert v.stdout.strip() == f"ireesht {ireesht.__version__}"


@pytest.fixture(scope="module")
def every_target(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("all") / "sht5"
    ireesht.build(5, out)  # default: vulkan, cuda, metal, cpu (x86-64-v3, aarch64)
    return out


def test_build_for_every_target(every_target):
    manifest = json.loads((every_target / "manifest.json").read_text())
    got = {(e["target"], e["kernels"], e.get("cpu_baseline")): e for e in manifest["artifacts"]}
    assert set(got) == {("vulkan", "mlir", None), ("cuda", "mlir", None), ("metal", "mlir", None),
                        ("cpu", "c", "x86-64-v3"), ("cpu", "c", "aarch64")}
    assert "sm_80" in got["cuda", "mlir", None]["gpu_arch"]
    assert got["cpu", "c", "aarch64"]["cpu_arch"] == "aarch64"
    for e in manifest["artifacts"]:
        assert (every_target / e["file"]).stat().st_size == e["bytes"]


def test_load_picks_the_cpu_over_lavapipe_and_names_missing_drivers(every_target, rng):
    here = host.cpu_baselines()
    if "x86-64-v3" not in here:
        pytest.skip(f"this CPU runs {sorted(here)}, not the x86-64-v3 module")
    mod = ireesht.load(every_target)  # no GPU here: a software Vulkan ranks below the CPU
    assert mod.plan.target == "cpu" and mod.plan.cpu == "x86-64-v3"
    q = random_coefficients(rng, 5, 5, (2,))
    np.testing.assert_allclose(mod.synth(q), ireesht.compile(5, target="cpu").synth(q),
                               rtol=0, atol=1e-5)
    if "cuda" not in available_drivers():
        with pytest.raises(ArtifactError, match=r"modules for cuda, but this machine has "
                           r"drivers with a device: \[.*'local-task'"):
            ireesht.load(every_target, target="cuda")


def test_load_a_file_and_a_named_device(built, vulkan):
    from ireesht.runtime.device import scan_drivers

    mod = ireesht.load(built / "sht_vulkan_mlir.vmfb")
    assert mod.plan.target == "vulkan" and mod.info["path"].endswith("sht_vulkan_mlir.vmfb")
    path = scan_drivers()["vulkan"][0]["path"]
    assert ireesht.load(built, device=f"vulkan://{path}").info["device"] == vulkan
    with pytest.raises(ValueError, match=r"device='cuda://0': expected an IREE URI of the "
                       r"'vulkan' driver"):
        ireesht.load(built, device="cuda://0")
    with pytest.raises(ValueError, match=r"device='vulkan://nope'"):
        ireesht.load(built, device="vulkan://nope")


def test_saved_host_cpu_module_loads_on_this_cpu_only(tmp_path, rng):
    mod = ireesht.compile(5, target="cpu")
    saved = mod.save(tmp_path / "h")
    q = random_coefficients(rng, 5, 5)
    np.testing.assert_array_equal(ireesht.load(saved).synth(q), mod.synth(q))
    m = json.loads((saved / "manifest.json").read_text())
    m["artifacts"][0]["cpu_id"] = "another CPU"
    _edit_manifest(saved, artifacts=m["artifacts"])
    with pytest.raises(ArtifactError, match=r"modules for cpu \(host\), but this machine"):
        ireesht.load(saved)
