"""Faults and hostile input (issue 34): the disk cache, threads, artifacts, sizes, arrays and
device failures. Every test here failed (crashed, hung or returned wrong numbers) before."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import ireesht
from ireesht import host, tables
from ireesht.cli import main
from ireesht.numerics import reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.runtime import artifacts, cache
from ireesht.runtime.cache import CacheWarning

REPO = Path(__file__).resolve().parents[2]
TOL = 2e-6  # float32 synthesis and analysis against the float64 reference (tests/checks.py)


@pytest.fixture
def cache_root(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("IREESHT_CACHE", str(root))
    return root


def _cache_warnings(record) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, CacheWarning)]


def _check_synth(mod, rng, batch=(2,)) -> None:
    p = mod.plan
    q = random_coefficients(rng, p.lmax, p.mmax, batch)
    assert rel_l2(mod.synth(q), reference.synth(q, p.lmax, p.mmax, p.make_grid())) <= TOL


def _entry(root: Path) -> Path:
    (entry,) = (root / ireesht.__version__).glob("*.entry")
    return entry


# --- the disk cache ------------------------------------------------------------------------

@pytest.mark.parametrize("damage", ["flip", "truncate", "empty"])
def test_corrupt_cache_entry_is_discarded_and_rebuilt(cache_root, rng, damage):
    assert ireesht.compile(7, target="cpu").info["module"] == "compiled"
    entry = _entry(cache_root)
    data = bytearray(entry.read_bytes())
    if damage == "flip":  # bytes in the middle of the module: IREE crashed on it before
        for i in rng.integers(len(cache.MAGIC) + 32, len(data), 64):
            data[i] ^= 0xFF
    else:
        data = data[: len(data) // 3 if damage == "truncate" else 0]
    entry.write_bytes(bytes(data))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        mod = ireesht.compile(7, target="cpu")
    (message,) = _cache_warnings(record)
    assert "discarded, compiling the module again" in message and entry.name in message
    assert mod.info["module"] == "compiled"
    _check_synth(mod, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)  # rebuilt: the next one is a clean hit
        again = ireesht.compile(7, target="cpu")
    assert again.info["module"] == "cache"
    _check_synth(again, rng)


def test_cache_entry_of_another_plan_is_discarded(cache_root, rng):
    ireesht.compile(7, target="cpu")
    other = _entry(cache_root).read_bytes()
    _entry(cache_root).unlink()
    ireesht.compile(8, target="cpu")
    _entry(cache_root).write_bytes(other)  # a valid entry, of lmax 7, under lmax 8's key
    with pytest.warns(CacheWarning, match="is not this plan's module"):
        mod = ireesht.compile(8, target="cpu")
    assert mod.info["module"] == "compiled"
    _check_synth(mod, rng)


def _unusable_cache(tmp_path: Path, kind: str) -> str:
    if kind == "file":
        (tmp_path / "file").write_text("not a directory")
        return str(tmp_path / "file")
    if os.geteuid() == 0:  # root writes into a mode 0555 directory: /proc is read-only to it
        return "/proc"
    d = tmp_path / "ro"
    (d / ireesht.__version__).mkdir(parents=True)
    for p in (d / ireesht.__version__, d):
        p.chmod(0o555)
    return str(d)


@pytest.mark.parametrize("kind", ["file", "read-only"])
def test_unusable_cache_directory_compiles_without_it_with_one_warning(tmp_path, monkeypatch,
                                                                       rng, kind):
    monkeypatch.setenv("IREESHT_CACHE", _unusable_cache(tmp_path, kind))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        mod = ireesht.compile(6, target="cpu")
    (message,) = _cache_warnings(record)
    assert "compiling without the cache" in message
    assert mod.info["module"] == "compiled"
    _check_synth(mod, rng)


_WORKER = """
import os, sys, numpy as np, ireesht
q = np.load(sys.argv[1])
out = []
for _ in range(2):  # the first compiles (every process at once), the second may hit
    m = ireesht.compile(9, target="cpu")
    out.append(m.synth(q))
np.save(sys.argv[2], np.stack(out))
print(m.info["module"])
"""


def test_processes_compiling_one_plan_into_one_cache_all_get_correct_modules(cache_root,
                                                                            tmp_path, rng):
    q = random_coefficients(rng, 9, 9, (2,))
    np.save(tmp_path / "q.npy", q)
    env = {**os.environ, "IREESHT_CACHE": str(cache_root),
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-c", _WORKER, str(tmp_path / "q.npy"),
                               str(tmp_path / f"f{i}.npy")], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert "CacheWarning" not in err, err
    f_ref = reference.synth(q, 9, 9, ireesht.Plan.create(9, target="cpu").make_grid())
    for i in range(4):
        for f in np.load(tmp_path / f"f{i}.npy"):
            assert rel_l2(f, f_ref) <= TOL
    entry = _entry(cache_root)  # one complete entry, no temporary file left
    assert [p.name for p in entry.parent.iterdir()] == [entry.name]
    assert cache.read(entry.stem) is not None


def test_cli_cache_shows_and_clears(cache_root, capsys):
    ireesht.compile(5, target="cpu")
    (cache_root / "notes.txt").write_text("not ours")  # clear removes only cache files
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert str(cache_root) in out and "IREESHT_CACHE" in out and "entries  1," in out
    size = _entry(cache_root).stat().st_size
    assert f"{size / 2**20:.1f} MiB" in out
    assert main(["cache", "--clear"]) == 0
    assert "removed 1 files" in capsys.readouterr().out
    assert not (cache_root / ireesht.__version__).exists()
    assert (cache_root / "notes.txt").exists()
    ireesht.compile(5, target="cpu")
    assert main(["cache", "clear"]) == 0 and cache.info()["entries"] == 0


# --- threads ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mod15():
    return ireesht.compile(15, target="cpu", use_cache=False)


def _hammer(mods, threads: int, calls: int) -> None:
    """``threads`` threads each make ``calls`` random calls (synthesis or analysis; numpy
    in and out, numpy ``out=``, or device arrays enqueued) on the modules, each checked
    against the float64 reference."""
    cases = []
    for mod in mods:
        p, rng = mod.plan, np.random.default_rng()
        for _ in range(6):
            q = random_coefficients(rng, p.lmax, p.mmax, (int(rng.integers(1, 4)),))
            cases.append((mod, q, reference.synth(q, p.lmax, p.mmax, p.make_grid())))
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            for _ in range(calls):
                mod, q, f_ref = cases[rng.integers(len(cases))]
                p, how = mod.plan, rng.integers(3)
                if rng.integers(2):  # synthesis
                    if how == 0:
                        f = mod.synth(q)
                    elif how == 1:
                        f = mod.synth(q, out=np.empty(f_ref.shape, np.float32))
                    else:
                        q_dev = mod.upload(q.astype(np.complex64).view(np.float32)
                                           .reshape(len(q), p.nlm, 2))
                        f = mod.to_numpy(mod.synth(q_dev, out=mod.empty(f_ref.shape)))
                    err = rel_l2(f, f_ref)
                else:  # analysis of the reference field
                    if how == 2:
                        f_dev = mod.upload(f_ref.astype(np.float32))
                        q2 = mod.to_numpy(mod.analys(f_dev, out=mod.empty((len(q), p.nlm, 2))))
                        q2 = q2[..., 0] + 1j * q2[..., 1]
                    else:
                        q2 = mod.analys(f_ref, out=np.empty(q.shape, np.complex64)
                                        if how else None)
                    err = rel_l2(q2, q)
                if not err <= TOL:
                    errors.append(f"error {err:.2e}")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e)[:300])

    pool = [threading.Thread(target=work, args=(s,)) for s in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not errors, errors[:5]


def test_one_module_from_many_threads(mod15):
    _hammer([mod15], threads=8, calls=60)


@pytest.mark.slow
def test_one_module_from_many_threads_long(mod15):
    _hammer([mod15], threads=8, calls=500)


def test_several_modules_on_one_device_from_many_threads(mod15):
    other = ireesht.compile(10, grid="equiangular", target="cpu", use_cache=False)
    assert other._session.device is mod15._session.device  # IREE's cached local-task device
    _hammer([mod15, other], threads=8, calls=40)


# --- artifacts -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """A CPU artifact of lmax 7 on the equiangular 15 x 28 grid."""
    out = tmp_path_factory.mktemp("art") / "sht7"
    ireesht.build(7, out, targets=("cpu",), grid="equiangular",
                  cpu_baselines=(host.best_baseline(),))
    return out


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def _manifest(d: Path) -> dict:
    return json.loads((d / "manifest.json").read_text())


def _write(d: Path, m: dict, seal: bool = True) -> None:
    if seal:
        m["digest"] = artifacts.manifest_digest(m)
    (d / "manifest.json").write_text(json.dumps(m))


def test_saved_artifact_loads_and_computes(saved, rng):
    _check_synth(ireesht.load(saved), rng)


def test_edited_plan_is_refused(saved, tmp_path):
    # the gauss grid of the same size: a valid plan that the module would have run with
    # gauss tables, silently wrong
    d = _copy(saved, tmp_path / "e")
    m = _manifest(d)
    m["artifacts"][0]["plan"]["grid"] = "gauss"
    _write(d, m, seal=False)
    with pytest.raises(ireesht.ArtifactError, match=r"digest=.* does not match its contents "
                       r"\(sha256 [0-9a-f]{64}\): the manifest was edited"):
        ireesht.load(d)
    _write(d, m)  # sealed again, as a forger would: the module's own fingerprint refuses it
    with pytest.raises(ireesht.ArtifactError, match="the module was compiled for the plan "
                       "with fingerprint [0-9a-f]{64}, not for this plan"):
        ireesht.load(d)


def test_old_manifest_version_says_rebuild(saved, tmp_path):
    d = _copy(saved, tmp_path / "v")
    m = _manifest(d)
    m["manifest_version"] = 12
    _write(d, m)
    with pytest.raises(ireesht.ArtifactError, match="manifest_version=12 from an older ireesht; "
                       "rebuild the artifacts with this one"):
        ireesht.load(d)


def test_other_table_format_is_refused(saved, tmp_path):
    d = _copy(saved, tmp_path / "t")
    m = _manifest(d)
    m["tables_version"] += 1
    _write(d, m)
    v = tables.TABLES_VERSION
    with pytest.raises(ireesht.ArtifactError, match=f"tables_version={v + 1}: expected {v}, the "
                       "format of this ireesht's tables"):
        ireesht.load(d)


@pytest.mark.parametrize("name", ["../sht7.vmfb", "/etc/passwd.vmfb", "sub/x.vmfb", "x",
                                  "..vmfb", ".hidden.vmfb"])
def test_file_names_must_be_plain(saved, tmp_path, name):
    d = _copy(saved, tmp_path / "f")
    (tmp_path / "sht7.vmfb").write_bytes((d / _manifest(d)["artifacts"][0]["file"]).read_bytes())
    m = _manifest(d)
    m["artifacts"][0]["file"] = name
    _write(d, m)
    with pytest.raises(ireesht.ArtifactError, match=r"artifacts\[0\]\.file=.*: expected a plain "
                       "file name ending in .vmfb"):
        ireesht.load(d)


def _load_within(d: Path, seconds: float = 20):
    """ireesht.load(d) in a thread that must finish in time (a FIFO would hang it)."""
    result = {}

    def run():
        try:
            result["module"] = ireesht.load(d)
        except Exception as e:  # noqa: BLE001 - returned
            result["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "ireesht.load hung"
    return result


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "link out", "sparse", "directory"])
def test_module_file_must_be_a_regular_file_in_the_directory(saved, tmp_path, kind):
    d = _copy(saved, tmp_path / "k")
    module = d / _manifest(d)["artifacts"][0]["file"]
    outside = tmp_path / "outside.vmfb"
    outside.write_bytes(module.read_bytes())
    module.unlink()
    if kind == "fifo":
        os.mkfifo(module)
    elif kind == "link to /dev/zero":
        module.symlink_to("/dev/zero")
    elif kind == "link out":  # the very module, but outside the directory
        module.symlink_to(outside)
    elif kind == "sparse":
        with open(module, "wb") as f:
            f.truncate(2**40)
    else:
        module.mkdir()
    t0 = time.perf_counter()
    error = _load_within(d).get("error")
    assert isinstance(error, ireesht.ArtifactError), error
    expect = {"fifo": "a FIFO, expected a regular file",
              "link to /dev/zero": "a link out of the artifact directory",
              "link out": "a link out of the artifact directory",
              "sparse": f"{2**40} bytes, over the limit",
              "directory": "a directory, expected a regular file"}[kind]
    assert expect in str(error)
    assert time.perf_counter() - t0 < 5


def test_manifest_must_be_a_regular_file(saved, tmp_path):
    d = _copy(saved, tmp_path / "m")
    (d / "manifest.json").unlink()
    os.mkfifo(d / "manifest.json")
    error = _load_within(d).get("error")
    assert isinstance(error, ireesht.ArtifactError) and "a FIFO" in str(error)


@pytest.mark.parametrize("path, value, field", [
    ((), [], "not an ireesht manifest"),
    (("manifest_version",), "13", "manifest_version='13'"),
    (("manifest_version",), True, "manifest_version=True"),
    (("artifacts",), 5, "artifacts=5: expected a non-empty list"),
    (("artifacts",), [], "artifacts=[]"),
    (("artifacts", 0), "x", "artifacts[0]='x': expected an object"),
    (("artifacts", 0, "file"), 3, "artifacts[0].file=3: expected a string"),
    (("artifacts", 0, "sha256"), "zz", "artifacts[0].sha256='zz': expected 64 hexadecimal"),
    (("artifacts", 0, "bytes"), "12", "artifacts[0].bytes='12': expected an integer"),
    (("artifacts", 0, "bytes"), True, "artifacts[0].bytes=True: expected an integer"),
    (("artifacts", 0, "target"), "opencl", "artifacts[0].target='opencl'"),
    (("artifacts", 0, "plan"), [], "artifacts[0].plan: plan: list, expected a mapping"),
    (("artifacts", 0, "plan", "lmax"), 7.0, "artifacts[0].plan: lmax=7.0: expected an integer"),
    (("artifacts", 0, "plan", "lmax"), 10**6, "artifacts[0].plan: lmax=1000000: over the size"),
    (("artifacts", 0, "plan", "fields_per_thread"), True,
     "artifacts[0].plan: fields_per_thread=True: expected an integer"),
    (("artifacts", 0, "plan", "variants"), {}, "artifacts[0].plan: plan.variants={}"),
    (("artifacts", 0, "plan", "variants", "leg_synth"), {"name": ["c"]},
     "artifacts[0].plan: plan.variants['leg_synth']"),
    (("artifacts", 0, "plan", "dtype"), {"a": 1}, "artifacts[0].plan: dtype={'a': 1}"),
    (("artifacts", 0, "plan", "norm"), "4pi", "artifacts[0].plan: norm='4pi': expected one of"),
    (("artifacts", 0, "plan", "csphase"), 1, "artifacts[0].plan: csphase=1: expected True or"),
    (("iree_compiler",), None, "iree_compiler=None: expected the IREE compiler's version"),
    (("artifacts", 0, "cpu_id"), 7, "artifacts[0].cpu_id=7: expected a string"),
])
def test_malformed_manifest_fields_name_the_field(saved, tmp_path, path, value, field):
    d = _copy(saved, tmp_path / "x")
    m = _manifest(d)
    if path:
        node = m
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        _write(d, m)
    else:
        (d / "manifest.json").write_text(json.dumps(value))
    with pytest.raises(ireesht.ArtifactError) as info:
        ireesht.load(d)
    assert field in str(info.value)


def test_deeply_nested_and_huge_numbers_in_a_manifest(saved, tmp_path):
    d = _copy(saved, tmp_path / "n")
    text = (d / "manifest.json").read_text()
    for bad in ('"conventions": ' + "[" * 100_000 + "]" * 100_000 + ",",
                '"conventions": ' + "9" * 5000 + ",", '"conventions": NaN,'):
        (d / "manifest.json").write_text(text.replace('"conventions": ', bad + ' "x": ', 1))
        with pytest.raises(ireesht.ArtifactError, match="not a valid manifest"):
            ireesht.load(d)


# --- sizes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, match", [
    (dict(lmax=10**6), "lmax=1000000: over the size limit lmax <= 16383"),
    (dict(lmax=10**9), "lmax=1000000000: over the size limit lmax <= 16383"),
    (dict(lmax=10, nlat=10**8), "nlat=100000000: over the size limit nlat <= 32768"),
    (dict(lmax=10, nlat=10**9), "nlat=1000000000: over the size limit"),
    (dict(lmax=10, nphi=10**9), "nphi=1000000000: over the size limit nphi <= 65536"),
    (dict(lmax=10, nlat=32768, nphi=65536), "a field of 2147483648 values, over the limit"),
    # under every size limit, over the bytes: 35 GiB of tables and buffers
    (dict(lmax=16383, grid="equiangular", dtype="float64"),
     r"needs 3\d\.\d GiB of device memory .* over the limit of 32 GiB"),
])
def test_oversized_plans_are_refused_at_once(kwargs, match):
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=match):
        ireesht.compile(target="cpu", **kwargs)
    assert time.perf_counter() - t0 < 1


# --- arrays ----------------------------------------------------------------------------------

def test_numpy_out_is_filled_and_returned(mod15, rng):
    p = mod15.plan
    q = random_coefficients(rng, 15, 15, (2, 3))
    f_ref = reference.synth(q, 15, 15, p.make_grid())
    out = np.full((2, 3, p.nlat, p.nphi), np.nan, np.float32)
    assert mod15.synth(q, out=out) is out
    assert rel_l2(out, f_ref) <= TOL
    q_out = np.full((2, 3, p.nlm), np.nan, np.complex64)
    assert mod15.analys(f_ref, out=q_out) is q_out
    assert rel_l2(q_out, q) <= TOL
    f_dev = mod15.empty((6, p.nlat, p.nphi))  # numpy in, device array out
    assert mod15.synth(q, out=f_dev) is f_dev
    assert rel_l2(mod15.to_numpy(f_dev).reshape(f_ref.shape), f_ref) <= TOL


@pytest.mark.parametrize("out, match", [
    (np.empty((2, 16, 33), np.float32), r"out: numpy array \(2, 16, 33\) float32, expected "
                                        r"\(2, 16, 32\) float32"),
    (np.empty((2, 16, 32), np.float64), r"out: numpy array \(2, 16, 32\) float64, expected"),
    ([[0.0]], r"out: list, expected a numpy array \(2, 16, 32\) float32"),
    (np.broadcast_to(np.float32(0), (2, 16, 32)), "out: a read-only numpy array"),
])
def test_wrong_numpy_out_is_refused(mod15, rng, out, match):
    with pytest.raises(ValueError, match=match):
        mod15.synth(random_coefficients(rng, 15, 15, (2,)), out=out)


def test_numpy_out_for_device_input_is_refused(mod15):
    q_dev = mod15.empty((1, mod15.plan.nlm, 2))
    with pytest.raises(ValueError, match="out: ndarray, expected an iree.runtime.DeviceArray"):
        mod15.synth(q_dev, out=np.empty((1, 16, 32), np.float32))


def test_values_beyond_the_dtype_are_refused(mod15, rng):
    q = random_coefficients(rng, 15, 15)
    q[5] = 1e300
    with pytest.raises(ValueError, match=r"qlm: \(1e\+300\+0j\) at index \(5,\) exceeds the "
                       r"largest float32 value, 3.4028235e\+38"):
        mod15.synth(q)
    f = rng.standard_normal((16, 32))
    f[3, 4] = -1e39
    with pytest.raises(ValueError, match=r"spatial: -1e\+39 at index \(3, 4\) exceeds the "
                       r"largest float32 value"):
        mod15.analys(f)
    f[3, 4] = np.nan
    with pytest.raises(ValueError, match=r"spatial: expected finite values, found nan"):
        mod15.analys(f)
    # finite inputs whose sums overflow float32
    with pytest.raises(ValueError, match="synth: the result overflows float32"):
        mod15.synth(np.full(mod15.plan.nlm, 3e38, np.complex64))


@pytest.mark.parametrize("kwargs, match", [
    (dict(fields_per_thread=4.0), "fields_per_thread=4.0: expected an integer"),
    (dict(fields_per_thread=True), "fields_per_thread=True: expected an integer"),
    (dict(mmax=True), "mmax=True: expected an integer"),
    (dict(nlat=16.0), "nlat=16.0: expected an integer"),
    (dict(nphi=np.float64(32)), "nphi=.*32.*: expected an integer"),
])
def test_integer_options_refuse_floats_and_bools(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ireesht.compile(15, target="cpu", **kwargs)


# --- device failures -------------------------------------------------------------------------

def test_failed_call_names_the_device_and_the_module_says_it_is_unusable(rng, monkeypatch):
    mod = ireesht.compile(7, target="cpu")
    q = random_coefficients(rng, 7, 7)

    def lost(*args):
        raise RuntimeError("c/runtime/src/iree/hal/...: UNAVAILABLE; device lost (simulated)")

    monkeypatch.setattr(mod._session, "_invoke", lost)
    with pytest.raises(ireesht.DeviceError, match=re.escape(f"device '{mod.info['device']}' "
                       "(target 'cpu') failed in synth_async: ") + ".*device lost .* no longer "
                       "usable") as e:
        mod.synth(q)
    assert not e.value.usable and e.value.target == "cpu" and not mod.usable
    monkeypatch.undo()
    with pytest.raises(ireesht.DeviceError, match="unusable after an earlier failure"):
        mod.analys(np.zeros((8, 16)))
    fresh = ireesht.compile(7, target="cpu")  # a new module works
    _check_synth(fresh, rng)


def test_failed_synchronous_call_is_a_device_error(rng, monkeypatch):
    mod = ireesht.compile(7, target="cpu")
    monkeypatch.setattr(mod._session, "_invoke_sync", lambda fn, args: (_ for _ in ()).throw(
        ValueError("Error invoking function: INTERNAL; kernel fault (simulated)")))
    with pytest.raises(ireesht.DeviceError, match="failed in synth: .*kernel fault"):
        mod.synth(mod.empty((1, mod.plan.nlm, 2)))


def test_out_of_memory_on_upload_leaves_the_module_usable(rng, monkeypatch):
    from ireesht.runtime import device

    mod = ireesht.compile(7, target="cpu")
    q = random_coefficients(rng, 7, 7, (3,))

    def exhausted(*args, **kwargs):
        raise RuntimeError("RESOURCE_EXHAUSTED; out of device memory (simulated)")

    monkeypatch.setattr(device.rt, "asdevicearray", exhausted)
    with pytest.raises(ireesht.DeviceError, match=r"failed in an upload of \d+ bytes: "
                       "RESOURCE_EXHAUSTED") as e:
        mod.synth(q)
    assert e.value.usable and mod.usable
    monkeypatch.undo()
    _check_synth(mod, rng)
