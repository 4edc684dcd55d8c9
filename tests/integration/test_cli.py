"""The `ireesht` command line (python -m ireesht)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

import ireesht
from ireesht.cli import main


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    # the package as the tests import it, also from another working directory
    root = str(Path(ireesht.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "ireesht", *args], capture_output=True,
                          text=True, cwd=cwd, env=env)


def test_devices_lists_the_vulkan_device(vulkan):
    out = run("devices")
    assert out.returncode == 0
    assert re.search(r"^vulkan\s+0\s+" + re.escape(vulkan), out.stdout, re.MULTILINE)
    assert re.search(r"^cpu\s+0\s+.*\(local-task\)$", out.stdout, re.MULTILINE)
    assert "subgroup arithmetic: yes" in out.stdout  # lavapipe has it


def test_info_describes_a_saved_module(vulkan, tmp_path, capsys):
    ireesht.compile(7, grid="equiangular", target="vulkan").save(tmp_path / "m")
    assert main(["info", str(tmp_path / "m")]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest["plan"]["lmax"] == 7 and manifest["plan"]["grid"] == "equiangular"


def test_info_of_a_missing_module_fails_clearly(tmp_path, capsys):
    assert main(["info", str(tmp_path / "none")]) == 2
    assert "no manifest.json there" in capsys.readouterr().err


def test_demo_prints_device_and_errors_at_rounding_level(vulkan, tmp_path):
    out = run("demo", "--lmax", "15", "--target", "vulkan", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert vulkan in out.stdout
    errors = [float(x) for x in re.findall(r"error[^\n]*?(\d\.\d+e-\d+)", out.stdout)]
    assert len(errors) == 2 and max(errors) < 2e-6
    png = (tmp_path / "ireesht_demo.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_demo_without_matplotlib_says_how_to_get_it(vulkan, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--lmax", "7", "--target", "vulkan"]) == 0
    assert "pip install 'ireesht[plot]'" in capsys.readouterr().out
    assert not (tmp_path / "ireesht_demo.png").exists()


def test_bench_prints_a_table(vulkan, capsys):
    assert main(["bench", "--lmax", "7", "15", "--targets", "vulkan", "--repeat", "3"]) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| vulkan")]
    assert len(rows) == 2
    assert rows[1].split("|")[6].strip() == "gauss 16 x 32"
    cells = rows[1].split("|")[8:13]
    times = [float(x) for c in cells for x in c.split("/")]  # the enqueued cell holds two
    assert len(times) == 6 and all(0 < t < 10_000 for t in times)


def test_bench_takes_the_batch_plan(vulkan, monkeypatch, capsys):
    # --fields-per-thread and --recurrence reach compile (by default 4 from 8 fields, and
    # the default recurrence)
    from ireesht import api

    calls = []
    compile_ = api.compile

    def spy(*args, **kw):
        calls.append((kw["fields_per_thread"], kw["recurrence"]))
        return compile_(*args, **kw)

    monkeypatch.setattr(api, "compile", spy)
    common = ["--lmax", "7", "--targets", "vulkan", "--repeat", "2"]
    assert main(["bench", *common, "--batch", "3", "--fields-per-thread", "2",
                 "--recurrence", "ishioka"]) == 0
    assert main(["bench", *common, "--batch", "8"]) == 0
    assert calls == [(2, "ishioka"), (4, "auto")]
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| vulkan")]
    assert [r.split("|")[2].strip() for r in rows] == ["mlir", "mlir"]  # no tensor cores


def test_check_compares_every_path_and_passes_here(vulkan, capsys):
    rows = ireesht.check(lmax=31, batch=2)
    # Vulkan on a Gauss grid: auto's float64 recurrence, then the float32 scheme (the
    # "ishioka" path is auto's plan here, not run twice)
    assert [(r["target"], r["family"], r["variant"]) for r in rows] == [
        ("vulkan", "mlir", "ishioka / float64 lane sums"),
        ("vulkan", "mlir", "standard / workgroup rows"), ("vulkan", "wgsl", "standard / subgroup"),
        ("vulkan", "wgsl", "standard / workgroup tree"),
        ("cpu", "c", "float64 ishioka / float64 ishioka"),
        ("cpu", "c", "four fields per work item / four fields per work item")]
    assert all(r["ok"] and r["synth_rel_l2"] < 2e-6 for r in rows)
    assert rows[4]["synth_rel_l2"] < 8e-8  # the CPU's float32 default: float64 inside
    # the float64 recurrence leaves the float32 synthesis the FFT's rounding alone
    assert rows[0]["synth_rel_l2"] < 3e-7
    assert "| vulkan | mlir | ishioka / float64 lane sums |" in capsys.readouterr().out


def test_check_runs_the_cuda_analysis_lane_sums(monkeypatch):
    # with a CUDA device, the check adds the MLIR path whose analysis sums over lanes
    # (fields_per_thread >= 2), the batch plan of "auto" (its analysis on tensor cores where
    # the grid allows) and the recurrence that is not CUDA's default: kernel variants of
    # their own
    from ireesht import comparison
    from ireesht.runtime import device as runtime

    monkeypatch.setattr(runtime, "available_drivers", lambda: ["cuda"])
    assert comparison._paths("float32") == [("cuda", "mlir", {}),
                                            ("cuda", "mlir", {"fields_per_thread": 4,
                                                              "recurrence": "standard"}),
                                            ("cuda", "mlir", {"fields_per_thread": 4}),
                                            ("cuda", "mlir", {"recurrence": "standard"})]
    # where "auto" gives the batch plan the float32 scheme too, that path is not run twice
    monkeypatch.setattr(comparison, "load_plan", lambda plan, use_cache: plan)
    sizes = dict(mmax=None, nlat=None, nphi=None)
    plans = [p for _, _, p in comparison._modules(127, "gauss", "float32", None, sizes)]
    assert [p.fields_per_thread for p in plans] == [1, 4, 1]
    plans = [p for _, _, p in comparison._modules(1023, "gauss", "float32", None, sizes)]
    assert [p.analys_recurrence for p in plans] == ["ishioka", "standard", "ishioka", "standard"]


def test_check_float64_paths(vulkan, capsys):
    rows = ireesht.check(lmax=15, batch=2, dtype="float64")
    assert ("cpu", "c") in {(r["target"], r["family"]) for r in rows}
    assert all(r["family"] != "wgsl" for r in rows)  # float32 only
    assert all(r["ok"] and r["roundtrip_rel_l2"] < 1e-12 for r in rows)
    assert "| float64 |" in capsys.readouterr().out


def test_bench_and_check_take_the_grid_sizes(vulkan, monkeypatch, capsys):
    # --mmax, --nlat, --nphi reach the plan (here 22 x 30, mmax 12: rows of 30 points take
    # the radix-3 and radix-5 FFT); one path keeps the check short
    from ireesht import comparison

    args = ["--lmax", "20", "--mmax", "12", "--nlat", "22", "--nphi", "30"]
    assert main(["bench", *args, "--targets", "vulkan", "--repeat", "2"]) == 0
    row = next(r for r in capsys.readouterr().out.splitlines() if r.startswith("| vulkan"))
    assert row.split("|")[6].strip() == "gauss 22 x 30"
    rows = comparison.check(20, mmax=12, nlat=22, nphi=30, verbose=False,
                            paths=[("vulkan", "mlir", {})])
    assert len(rows) == 1 and rows[0]["ok"] and rows[0]["roundtrip_rel_l2"] < 2e-6
    # nphi = 2 mmax keeps the Nyquist order (codegen/nyquist.py): checked against the reference
    rows = comparison.check(20, mmax=12, nlat=22, nphi=24, verbose=False,
                            paths=[("vulkan", "mlir", {})])
    assert len(rows) == 1 and rows[0]["ok"] and rows[0]["roundtrip_rel_l2"] < 2e-6
    assert main(["check", *args[:4], "--nphi", "23"]) == 2  # nphi < 2 mmax: a usage error
    assert "nphi=23: expected nphi >= 2*mmax = 24" in capsys.readouterr().err


def test_check_on_a_grid_past_its_exact_band_limit(vulkan, tmp_path):
    # 25 x 50 equiangular at lmax 24 (exact to lmax 12, as 721 x 1440 at lmax 720): the
    # roundtrip is checked against the float64 reference's own, which misses q by far
    from ireesht.numerics import reference
    from ireesht.numerics.reference import random_coefficients, rel_l2

    out = ireesht.build(24, tmp_path / "b", targets=("vulkan",), nlat=25, nphi=50,
                        grid="equiangular")
    rows = ireesht.check(artifacts=str(out), batch=2)
    assert rows and all(r["ok"] and r["roundtrip_rel_l2"] < 2e-6 for r in rows)
    mod = ireesht.load(out, "vulkan")
    assert not mod.plan.exact
    q = random_coefficients(np.random.default_rng(), 24, 24, (2,))
    g = mod.plan.make_grid()
    assert rel_l2(reference.analys(reference.synth(q, 24, 24, g), 24, 24, g, exact=False), q) > 1e-2


def test_check_fails_on_a_mismatch(vulkan, monkeypatch, capsys):
    # a path whose analysis is wrong (simulated miscompile) makes the command exit 1
    from ireesht.runtime import module

    real = module.Module.analys
    monkeypatch.setattr(module.Module, "analys", lambda self, f, out=None: real(self, f) * (
        1.01 if self.plan.variant_names["leg_analys"] == "tree" else 1))
    assert main(["check", "--lmax", "15"]) == 1
    assert "| NO |" in capsys.readouterr().out


def test_check_covers_both_kernels_of_a_synthesis_in_whole_groups(vulkan, monkeypatch):
    # CUDA's batch synthesis takes whole groups of 16 fields on tensor cores and the rest on
    # CUDA cores: the check also synthesises the batch repeated to 16 + batch fields, so a
    # wrong group (simulated here on the MLIR paths: fields 0 .. 15 of a call of more than 16
    # scaled) fails it
    from ireesht import comparison
    from ireesht.runtime import module

    paths = [("vulkan", "mlir", {}), ("vulkan", "wgsl", {})]
    monkeypatch.setattr(comparison, "_group", lambda mod: 16 * (mod.plan.kernels == "mlir"))
    rows = comparison.check(15, batch=2, verbose=False, paths=paths)
    assert {r["family"] for r in rows} == {"mlir", "wgsl"} and all(r["ok"] for r in rows)
    real = module.Module.synth

    def wrong_group(self, q, out=None):
        f = real(self, q)
        if len(q) > 16:
            f[:16] *= 1.01
        return f

    monkeypatch.setattr(module.Module, "synth", wrong_group)
    rows = comparison.check(15, batch=2, verbose=False, paths=paths)
    assert [r["ok"] for r in rows] == [r["family"] == "wgsl" for r in rows]
