"""``ireesht.xarray``: DataArrays and Datasets in and out, any latitude order, longitudes
from anywhere, numpy- and Dask-backed alike, against the float64 reference."""

from __future__ import annotations

import numpy as np
import pytest

import ireesht
from ireesht.numerics import reference
from ireesht.numerics.grid import make_grid
from ireesht.numerics.reference import random_coefficients, rel_l2

xr = pytest.importorskip("xarray")
dask = pytest.importorskip("dask")
ixr = pytest.importorskip("ireesht.xarray")

# float64 CPU plans: the reference agrees to rounding (1e-15 measured); 1e-12 leaves room
TOL64 = 1e-12
LMAX, NLAT, NPHI = 11, 12, 26  # Gauss, nphi not a power of two (the direct DFT)
ELMAX, ENLAT, ENPHI = 8, 17, 34  # equiangular with both poles, exact up to lmax 8


@pytest.fixture(scope="module")
def gauss():
    return ireesht.compile(LMAX, nlat=NLAT, nphi=NPHI, target="cpu", dtype="float64")


@pytest.fixture(scope="module")
def equi():
    return ireesht.compile(ELMAX, nlat=ENLAT, nphi=ENPHI, grid="equiangular", target="cpu",
                           dtype="float64")


def _at_longitudes(f: np.ndarray, lon_deg: np.ndarray) -> np.ndarray:
    """A band-limited field sampled at phi_j = 2 pi j / nphi, evaluated at other longitudes
    by its Fourier series: independent of the rotation of the coefficients under test."""
    F = np.fft.rfft(f, axis=-1) / f.shape[-1]
    m = np.arange(F.shape[-1])
    w = np.where(m == 0, 1.0, 2.0)  # nphi > 2 mmax: no Nyquist term
    return np.einsum("...m,jm->...j", F * w, np.exp(1j * np.outer(np.radians(lon_deg), m))).real


def _field(rng, mod, lon0: float, south_first: bool, batch=(3, 2)):
    """Coefficients and the DataArray (lat, time, lon, member) of their field on the
    module's grid, longitudes from lon0, rows south first if asked."""
    p = mod.plan
    q = random_coefficients(rng, p.lmax, p.mmax, batch)
    lon = lon0 + 360.0 * np.arange(p.nphi) / p.nphi
    f = _at_longitudes(reference.synth(q, p.lmax, p.mmax, p.make_grid()), lon)
    lat = p.make_grid().lat_deg
    if south_first:
        f, lat = f[..., ::-1, :], lat[::-1]
    da = xr.DataArray(np.moveaxis(f, (-2, -1), (0, 2)), dims=("lat", "time", "lon", "member"),
                      coords={"lat": ("lat", lat, {"units": "degrees_north"}), "lon": lon,
                              "time": np.arange(batch[0]), "member": ["a", "b"][:batch[1]]},
                      name="t2m", attrs={"units": "K", "long_name": "temperature"})
    return q, da


@pytest.mark.parametrize("lon0, south_first", [(0.0, False), (-180.0, True), (3.7, True)])
def test_analys_matches_reference_any_latitude_order_and_first_longitude(
        gauss, rng, lon0, south_first):
    q, da = _field(rng, gauss, lon0, south_first)
    out = ixr.analys(da, module=gauss)
    assert out.dims == ("time", "member", "coeff") and out.name == "t2m"
    assert out.attrs["units"] == "K" and out.attrs["long_name"] == "temperature"
    assert list(out["member"].values) == ["a", "b"]
    l, m = ireesht.lm_indices(LMAX, LMAX)
    assert np.array_equal(out["l"], l) and np.array_equal(out["m"], m)
    assert rel_l2(out.values, q) < TOL64


@pytest.mark.parametrize("lon0, south_first", [(-180.0, True), (3.7, False)])
def test_synth_restores_the_grid_and_field(gauss, rng, lon0, south_first):
    q, da = _field(rng, gauss, lon0, south_first)
    coeffs = ixr.analys(da, module=gauss)
    back = ixr.synth(coeffs, module=gauss)
    assert back.dims == ("time", "member", "lat", "lon")
    assert "ireesht_grid" not in back.attrs and back.attrs["units"] == "K"
    np.testing.assert_allclose(back["lon"], da["lon"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(back["lat"], da["lat"], rtol=0, atol=1e-12)
    assert back["lat"].attrs == {"units": "degrees_north"}
    assert rel_l2(back.transpose(*da.dims).values, da.values) < TOL64
    # the grid of another array, here the input (like=), gives the same
    again = ixr.synth(coeffs.drop_attrs(), like=da, module=gauss)
    np.testing.assert_array_equal(again.values, back.values)


def test_equiangular_grid_detected_and_compiled_once(equi, rng):
    q, da = _field(rng, equi, 0.0, False, batch=(2, 1))
    da = da.rename(lat="latitude", lon="longitude")
    out = ixr.analys(da, target="cpu", dtype="float64")  # detects the grid, compiles
    assert rel_l2(out.values, q) < TOL64
    assert ixr.analys(da, target="cpu", dtype="float64").equals(out)
    assert len([k for k in ixr._Transform._made if k[2:5] == (ENLAT, ENPHI, "equiangular")]) == 1


def test_fejer_grid_detected_south_first(rng):
    """Cell centres without the poles are the Fejer grid; lmax = nlat - 1 (the theta step)."""
    mod = ireesht.compile(11, nlat=12, nphi=24, grid="fejer", target="cpu", dtype="float64")
    q, da = _field(rng, mod, 0.0, True, batch=(2, 1))
    np.testing.assert_allclose(da["lat"][::-1], 90 - 15 * (np.arange(12) + 0.5), atol=1e-12)
    geo = ixr.geometry(da)
    assert geo.grid == "fejer" and not geo.north_first
    out = ixr.analys(da, lmax=11, module=mod)
    assert rel_l2(out.values, q) < TOL64
    back = ixr.synth(out, module=mod)
    np.testing.assert_allclose(back["lat"], da["lat"], rtol=0, atol=1e-12)
    assert rel_l2(back.transpose(*da.dims).values, da.values) < TOL64


def test_dataset_transforms_each_field_and_keeps_the_rest(gauss, rng):
    q, da = _field(rng, gauss, 0.0, False)
    ds = xr.Dataset({"t2m": da, "station": ("time", np.arange(3.0))}, attrs={"source": "x"})
    out = ixr.analys(ds, module=gauss)
    assert set(out.data_vars) == {"t2m", "station"} and out.attrs == {"source": "x"}
    assert "lat" not in out.coords and out["t2m"].dims == ("time", "member", "coeff")
    back = ixr.synth(out, module=gauss)
    assert rel_l2(back["t2m"].transpose(*da.dims).values, da.values) < TOL64
    np.testing.assert_array_equal(back["station"], ds["station"])


def test_dask_backed_is_lazy_and_equal_to_numpy(gauss, rng, monkeypatch):
    q, da = _field(rng, gauss, -180.0, True, batch=(4, 2))
    eager = ixr.analys(da, module=gauss)
    calls = []
    real = type(gauss).analys
    monkeypatch.setattr(type(gauss), "analys", lambda self, f, *a, **k: (
        calls.append(f.shape), real(self, f, *a, **k))[1])
    lazy = ixr.analys(da.chunk({"time": 1}), module=gauss)
    assert isinstance(lazy.data, dask.array.Array) and not calls  # nothing computed yet
    assert lazy.chunks == ((1, 1, 1, 1), (2,), (gauss.plan.nlm,))
    got = lazy.compute(scheduler="threads")
    assert len(calls) == 4
    np.testing.assert_array_equal(got.values, eager.values)  # same module: bit for bit
    back = ixr.synth(lazy, module=gauss)
    assert isinstance(back.data, dask.array.Array)
    np.testing.assert_array_equal(back.values, ixr.synth(eager, module=gauss).values)


def test_dask_split_latitudes_are_refused(gauss, rng):
    _, da = _field(rng, gauss, 0.0, False)
    with pytest.raises(ValueError, match=r"needs each of \['lat', 'lon'\] in one chunk; "
                       r"rechunk with \.chunk\(\{'lat': -1, 'lon': -1\}\)"):
        ixr.analys(da.chunk({"lat": 5}), module=gauss)


def test_grid_errors_name_what_was_found(gauss, rng):
    _, da = _field(rng, gauss, 0.0, False)
    # one pole only: neither the equiangular grid (both) nor Fejer's (cell centres, none)
    one_pole = da.assign_coords(lat=np.linspace(90, -90 + 15, NLAT))
    with pytest.raises(ValueError, match=r"latitude 'lat': 12 values equally spaced by 15 "
                       r"degrees from 90 to -75; expected .* or a Fejer grid of cell centres "
                       r"\(82.5 to -82.5 in steps of 15\)"):
        ixr.analys(one_pole, module=gauss)
    with pytest.raises(ValueError, match=r"latitude 'lat': .*expected the equiangular grid of "
                       r"12 latitudes \(90 \.\. -90\)"):
        ixr.analys(da, grid="equiangular", target="cpu")
    uneven = da.assign_coords(lon=np.r_[0.0, np.arange(1, NPHI) * 360.0 / NPHI + 1.0])
    with pytest.raises(ValueError, match=r"longitude 'lon': 26 values from 0 to .* expected 26 "
                       r"equally spaced longitudes covering the circle, steps of 360/26"):
        ixr.analys(uneven, module=gauss)
    anonymous = da.rename(lat="row")
    anonymous["row"].attrs = {}
    with pytest.raises(ValueError, match=r"no latitude dimension; expected one named "
                       r"lat/latitude/y or whose coordinate has standard_name='latitude'"):
        ixr.analys(anonymous, module=gauss)
    assert ixr.analys(anonymous, lat="row", module=gauss).dims[-1] == "coeff"
    with pytest.raises(ValueError, match=r"module: a gauss grid of 12 x 26, but the data's "
                       r"is a gauss grid of 12 x 13"):
        ixr.analys(da.isel(lon=slice(None, None, 2)), module=gauss)
    with pytest.raises(TypeError, match=r"data: ndarray, expected an xarray DataArray"):
        ixr.analys(da.values, module=gauss)
    with pytest.raises(ValueError, match=r"not ireesht's packed m-major order"):
        ixr.synth(ixr.analys(da, module=gauss).isel(coeff=slice(1, None)), module=gauss)


def test_cf_attributes_find_the_dimensions(gauss, rng):
    q, da = _field(rng, gauss, 0.0, False)
    da = da.rename(lat="a", lon="b")
    da["b"].attrs["standard_name"] = "longitude"  # "a" has units degrees_north
    assert rel_l2(ixr.analys(da, module=gauss).values, q) < TOL64
