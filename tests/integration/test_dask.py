"""``ireesht.dask`` on a ``distributed.LocalCluster`` of 2 worker processes: the module is
shipped as an artifact, each worker loads it once, results equal the single-process ones
bit for bit, and a worker killed mid-computation loses nothing."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

import ireesht
from ireesht.numerics import reference
from ireesht.numerics.reference import rel_l2

xr = pytest.importorskip("xarray")
dsa = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
ixr = pytest.importorskip("ireesht.xarray")
idk = pytest.importorskip("ireesht.dask")

pytestmark = pytest.mark.filterwarnings("ignore:Sending large graph")  # the numpy input

# 48 time steps of a 181 x 360 field: equiangular with both poles, exact to lmax 90
NT, NLAT, NPHI, LMAX = 48, 181, 360, 90


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def mod():
    return ireesht.compile(LMAX, nlat=NLAT, nphi=NPHI, grid="equiangular", target="cpu")


def _dataset(rng, mod, chunks):
    p = mod.plan
    q = reference.random_coefficients(rng, LMAX, LMAX, (NT,))
    f = reference.synth(q, LMAX, LMAX, p.make_grid()).astype(np.float32)
    lon = np.arange(NPHI) * 360.0 / NPHI - 180.0  # from -180: rolled by 180 steps
    f = np.roll(f, NPHI // 2, axis=-1)
    da = xr.DataArray(f, dims=("time", "latitude", "longitude"),
                      coords={"latitude": p.make_grid().lat_deg, "longitude": lon,
                              "time": np.arange(NT)}, name="z500")
    return q, da, da.chunk({"time": chunks})


def test_cluster_matches_one_process_bit_for_bit(client, mod, rng):
    q, da, lazy = _dataset(rng, mod, 4)
    here = ixr.analys(da, module=mod)
    out = ixr.analys(lazy, module=mod)
    got = client.compute(out).result()
    np.testing.assert_array_equal(got.values, here.values)
    # float32 analysis against the float64 coefficients: 2e-7 measured
    assert rel_l2(got.values, q) < 1e-5
    # every worker loaded the module once for its 6 chunks (or never ran one)
    loaded = sorted(client.run(idk.loaded_modules).values())
    assert loaded in ([f"cpu: {mod.info['device']}"] * 2, ["", f"cpu: {mod.info['device']}"])
    back = client.compute(ixr.synth(out, module=mod)).result()
    np.testing.assert_array_equal(back.values, ixr.synth(here, module=mod).values)


def test_a_killed_worker_loses_nothing(client, mod, rng):
    q, da, lazy = _dataset(rng, mod, 2)
    here = ixr.analys(da, module=mod)

    def slow(block):  # 24 chunks of 0.25 s: the computation takes 3 s on 2 workers
        time.sleep(0.25)
        return block

    slowed = lazy.copy(data=lazy.data.map_blocks(slow, dtype=lazy.dtype))
    future = client.compute(ixr.analys(slowed, module=mod).data)
    time.sleep(1.0)
    victim = sorted(client.run(os.getpid).values())[0]
    assert not future.done()
    os.kill(victim, signal.SIGKILL)  # its nanny starts another; the scheduler reruns its tasks
    got = future.result(timeout=120)
    np.testing.assert_array_equal(got, here.values)
    assert victim not in client.run(os.getpid).values()
