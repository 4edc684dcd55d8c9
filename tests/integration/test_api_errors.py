"""Every error a user can cause through ireesht.compile / Module raises ValueError (or a
RuntimeError naming the drivers, for a missing device) before anything is dispatched."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ireesht
from ireesht import api
from ireesht.numerics.reference import random_coefficients
from ireesht.plan import Plan


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(lmax=-1), "lmax=-1"),
        (dict(lmax=2.5), "lmax=2.5"),
        (dict(lmax=8, mmax=9), "mmax=9: expected mmax <= lmax=8"),
        (dict(lmax=8, nlat=8), "nlat=8: Gauss analysis of lmax=8 needs nlat >= lmax\\+1 = 9"),
        (dict(lmax=8, nphi=15), "nphi=15: expected nphi >= 2\\*mmax = 16"),
        (dict(lmax=8, grid="healpix"), "grid='healpix'"),
        (dict(lmax=8, target="opencl"), "target='opencl'"),
        (dict(lmax=8, dtype="float16"), "dtype='float16'"),
        (dict(lmax=8, fields_per_thread=3), "fields_per_thread=3"),
        (dict(lmax=8, grid="equiangular", nlat=1), "nlat=1"),
        (dict(lmax=8, target="vulkan", recurrence="clenshaw"), "recurrence='clenshaw'"),
        # float64 recurrence: the mlir kernels on CUDA or Vulkan, the C kernels of float32 plans
        (dict(lmax=8, target="metal", recurrence="ishioka"),
         "recurrence='ishioka' runs in float64 .* target='metal'"),
        (dict(lmax=8, target="cpu", dtype="float64", recurrence="ishioka"),
         "expected recurrence='standard'"),
        (dict(lmax=8, target="vulkan", kernels="wgsl", recurrence="ishioka"),
         "kernels='wgsl'"),
    ],
)
def test_compile_rejects_bad_plans(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ireesht.compile(**kwargs)


@pytest.fixture(scope="module")
def mod(vulkan):
    return ireesht.compile(7, target="vulkan")


def test_synth_rejects_wrong_length(mod, rng):
    q = random_coefficients(rng, 7, 7)[:-1]
    with pytest.raises(ValueError, match=r"qlm: shape \(35,\), expected \(\.\.\., 36\)"):
        mod.synth(q)


def test_synth_rejects_real_dtype(mod, rng):
    with pytest.raises(ValueError, match="qlm: dtype float64, expected complex64 or complex128"):
        mod.synth(random_coefficients(rng, 7, 7).real)


def test_synth_rejects_nan(mod, rng):
    q = random_coefficients(rng, 7, 7)
    q[3] = np.nan
    with pytest.raises(ValueError, match="qlm: expected finite values"):
        mod.synth(q)


def test_analys_rejects_wrong_grid_shape(mod, rng):
    with pytest.raises(ValueError, match=r"spatial: shape \(2, 8, 15\), expected \(\.\.\., 8, 16\)"):
        mod.analys(rng.standard_normal((2, 8, 15)))


def test_analys_rejects_batch_in_the_wrong_place(mod, rng):
    # (nlat, nphi, batch) instead of (batch, nlat, nphi)
    with pytest.raises(ValueError, match="spatial: shape"):
        mod.analys(rng.standard_normal((8, 16, 3)))


def test_analys_rejects_integer_field(mod):
    with pytest.raises(ValueError, match="spatial: dtype int64"):
        mod.analys(np.ones((8, 16), dtype=np.int64))


def test_analys_rejects_inf(mod, rng):
    f = rng.standard_normal((8, 16))
    f[2, 3] = np.inf
    with pytest.raises(ValueError, match="spatial: expected finite values"):
        mod.analys(f)


def test_device_array_of_wrong_shape_is_rejected(mod, rng):
    import iree.runtime as rt

    bad = rt.asdevicearray(mod._session.device, rng.standard_normal((2, 35, 2)).astype(np.float32))
    with pytest.raises(ValueError, match=r"qlm: device array \(2, 35, 2\) float32, expected \(B, 36, 2\)"):
        mod.synth(bad)


def test_enqueueing_needs_device_arrays_and_out(mod, rng):
    q = rng.standard_normal((2, 36)) + 0j
    with pytest.raises(ValueError, match="sync=False: expected device-array input and out="):
        mod.synth(q, sync=False)
    q_dev = mod._session.upload(q.astype(np.complex64).view(np.float32).reshape(2, 36, 2))
    with pytest.raises(ValueError, match="sync=False: expected device-array input and out="):
        mod.synth(q_dev, sync=False)
    with pytest.raises(ValueError, match="array: ndarray, expected an iree.runtime.DeviceArray"):
        mod.to_numpy(q)


def test_missing_driver_names_the_available_ones(monkeypatch):
    from ireesht.runtime import device as runtime

    monkeypatch.setitem(runtime.DRIVERS, "vulkan", "no-such-driver")
    with pytest.raises(RuntimeError, match="drivers with a device here"):
        runtime.open_device("vulkan")


def test_load_rejects_a_corrupted_module(vulkan, tmp_path):
    saved = ireesht.compile(3, target="vulkan").save(tmp_path / "m")
    data = bytearray((saved / "sht_vulkan_mlir.vmfb").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (saved / "sht_vulkan_mlir.vmfb").write_bytes(bytes(data))
    with pytest.raises(ValueError, match="sha256 .* does not match the manifest"):
        ireesht.load(saved)


def test_load_rejects_a_missing_manifest(tmp_path):
    with pytest.raises(ValueError, match="no manifest.json there"):
        ireesht.load(tmp_path)


def _device_without(monkeypatch, capability: int) -> None:
    """Sessions of a Vulkan device that fails to create any kernel declaring SPIR-V
    ``OpCapability capability`` (as a driver without the feature does)."""
    from ireesht.runtime import device as runtime

    word = (0x00020011).to_bytes(4, "little") + capability.to_bytes(4, "little")
    real = runtime.Session

    def session(vmfb, target, device=None, fingerprint=None):
        if word in vmfb:
            raise runtime.ExecutableLoadError("vkCreateComputePipelines failed (simulated)")
        return real(vmfb, target, device, fingerprint)

    monkeypatch.setattr(runtime, "Session", session)


def test_device_without_float64_falls_back_to_the_float32_scheme(vulkan, monkeypatch, rng):
    # auto takes the float64 recurrence on Vulkan Gauss grids; a device that cannot create
    # its kernels (no shaderFloat64: capability Float64) gets the float32 scheme with a
    # warning, and info says so; forced, the float64 recurrence is refused with what to ask for
    _device_without(monkeypatch, 10)
    with pytest.warns(RuntimeWarning, match="cannot create the float64 recurrence's kernels"):
        mod = ireesht.compile(9, target="vulkan")
    assert mod.info["variants"]["leg_synth"] == "standard"
    assert mod.info["variants"]["leg_analys"] == "rows"
    q = random_coefficients(rng, 9, 9)
    assert np.linalg.norm(mod.analys(mod.synth(q)) - q) <= 2e-6 * np.linalg.norm(q)
    with pytest.raises(ValueError, match="cannot run float64 kernels"):
        ireesht.compile(9, target="vulkan", recurrence="ishioka")


def test_device_without_subgroup_arithmetic_falls_back(vulkan, monkeypatch, rng):
    # a device without subgroup arithmetic fails to create the kernel that declares it
    # (capability GroupNonUniformArithmetic); compile falls back to the workgroup-tree
    # variant, and info says so
    _device_without(monkeypatch, 63)
    mod = ireesht.compile(9, target="vulkan", kernels="wgsl")
    assert mod.info["variants"]["leg_analys"] == "tree"
    q = random_coefficients(rng, 9, 9)
    assert np.linalg.norm(mod.analys(mod.synth(q)) - q) <= 2e-6 * np.linalg.norm(q)


def test_rows_without_an_fft_warn_with_the_next_fft_size(tmp_path):
    # nphi 28 (14 = 2 * 7): the MLIR family has no FFT for it and runs a direct DFT; the C
    # family's Bluestein FFT serves it
    with pytest.warns(ireesht.PerformanceWarning,
                      match="nphi=28: the mlir kernels .* direct DFT.* nphi=30, the next FFT"):
        ireesht.build(8, tmp_path / "dft", targets=("vulkan:mlir",), nphi=28)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ireesht.PerformanceWarning)
        ireesht.build(8, tmp_path / "bluestein", targets=("cpu",), nphi=28,
                      cpu_baselines=("x86-64-v3",))
        api._warn_direct_dft(Plan.create(8, target="vulkan"))  # the default grid, 9 x 18
    with pytest.warns(ireesht.PerformanceWarning, match="nphi=4100: .* no row past 4096"):
        api._warn_direct_dft(Plan.create(8, nphi=4100, target="vulkan"))
