"""xarray in, xarray out: ``analys(da)`` -> coefficients ``(..., coeff)`` with ``l`` and ``m``
coordinates, ``synth(coeffs)`` -> the field on its latitude/longitude grid again.

Latitude and longitude dimensions are found by their CF attributes (``standard_name``
latitude/longitude, ``units`` degrees_north/degrees_east) or their names (lat, latitude, y;
lon, longitude, x), or named with ``lat=`` / ``lon=``. Their coordinates (degrees) decide the
grid: Gauss-Legendre, equiangular with both poles or Fejer (equally spaced cell centres, no
poles: ``90 - 180 (i + 1/2) / nlat``), north or south first, longitudes equally
spaced over the circle from any first longitude lon0 and either direction. ireesht's rows are
north first and its longitudes start at 0: south-first rows are reversed, and the
longitudes rolled by whole steps, k = round(lon0 / step); a rest r = lon0 - k step is a rotation
about the axis, exact on the coefficients: ``a_lm exp(-i m r)`` after analysis,
``a_lm exp(i m r)`` before synthesis. Any other grid is refused, naming what was found.

Every other dimension, its coordinates and the attributes are kept; the coefficients carry
the attributes plus ``ireesht_grid`` (JSON: the grid, so that ``synth`` restores the
latitude and longitude coordinates without ``like=``). numpy-backed arrays are transformed
here; Dask-backed ones lazily, chunk by chunk, on whatever scheduler computes them
(``ireesht.dask``: each process loads the module once). Needs xarray (and dask for Dask
arrays): ``pip install ireesht[xarray]``.

Example, from a Zarr store to coefficients, over one Dask worker per GPU::

    ds = xr.open_zarr("era5.zarr").chunk({"time": 24, "latitude": -1, "longitude": -1})
    q = ireesht.xarray.analys(ds, lmax=720, mmax=719, target="cuda")  # lazy
    with distributed.Client(dask_cuda.LocalCUDACluster()):
        q = q.compute()                      # each worker: its own GPU, the module once
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

import numpy as np
import xarray as xr

from ireesht.numerics.grid import GRID_KINDS, make_grid, min_nlat
from ireesht.numerics.layout import lm_indices

LAT_NAMES = ("lat", "latitude", "y")
LON_NAMES = ("lon", "longitude", "x")
LAT_UNITS = ("degrees_north", "degree_north", "degree_n", "degrees_n", "degreen", "degreesn")
LON_UNITS = ("degrees_east", "degree_east", "degree_e", "degrees_e", "degreee", "degreese")
# degrees: coordinates stored in float32 are within 1e-5 of the grid (spacing of float32 at 360)
COORD_TOL = 1e-4
ATTR = "ireesht_grid"


@dataclass(frozen=True)
class Geometry:
    """How a field's latitude/longitude grid maps onto ireesht's (north first, phi_j =
    2 pi j / nphi): dimension names, grid, row order, longitude roll and rest rotation."""

    lat: str
    lon: str
    grid: str
    nlat: int
    nphi: int
    north_first: bool
    lon_increasing: bool
    lon0: float  # degrees: the first longitude once increasing
    lon_min: float  # degrees: the coordinates lie in [lon_min, lon_min + 360)
    lat_attrs: dict
    lon_attrs: dict

    @property
    def step(self) -> float:
        return 360.0 / self.nphi

    @property
    def shift(self) -> int:
        """Whole longitude steps to roll: ireesht's column i holds the input's i - shift."""
        return int(np.round(self.lon0 / self.step))

    @property
    def rest(self) -> float:
        """The rotation left after the roll, radians (0 where lon0 is a whole step)."""
        r = np.radians(self.lon0 - self.shift * self.step)
        return 0.0 if abs(r) < 1e-12 else float(r)

    def lat_values(self) -> np.ndarray:
        lat = make_grid(self.grid, self.nlat, 1).lat_deg
        return lat if self.north_first else lat[::-1]

    def lon_values(self) -> np.ndarray:
        lon = self.lon0 + self.step * np.arange(self.nphi)
        lon = (lon - self.lon_min) % 360.0 + self.lon_min
        return lon if self.lon_increasing else lon[::-1]

    def record(self) -> str:
        return json.dumps({k: v for k, v in self.__dict__.items()})

    @classmethod
    def from_record(cls, text: str) -> "Geometry":
        try:
            return cls(**json.loads(text))
        except (TypeError, ValueError) as e:
            raise ValueError(f"attrs[{ATTR!r}]: not a grid record written by "
                             f"ireesht.xarray.analys ({e})") from None


def analys(data, lmax: int | None = None, *, mmax: int | None = None,
           grid: str | None = None, lat: str | None = None, lon: str | None = None,
           coeff_dim: str = "coeff", module=None, artifacts=None, target: str = "auto",
           dtype: str = "float32", device: int | str | None = None, **options):
    """Analysis of a DataArray (or every variable of a Dataset that has both dimensions)
    on a latitude/longitude grid.

    Parameters
    ----------
    data : xarray.DataArray or Dataset, real, numpy- or Dask-backed (latitude and longitude
        each one chunk)
    lmax, mmax : band limit and highest order; default the grid's exact limit
        (``Grid.exact_lmax``: Gauss nlat - 1, equiangular and Fejer (nlat - 1) // 2; pass
        lmax up to nlat - 2 or nlat - 1 for their exact theta step), mmax <= (nphi - 1) // 2
    grid : "gauss", "equiangular" (both poles) or "fejer" (cell centres, no poles); default
        detected from the latitudes, and checked when given
    lat, lon : the dimension names, where they cannot be recognised
    coeff_dim : the name of the coefficients' dimension
    module : an ``ireesht.Module`` to use (its grid must be the data's); or ``artifacts``:
        an ``ireesht build`` directory (workers load it; this process needs no device of
        its target for Dask inputs); else the plan is compiled (``ireesht.compile`` with
        ``target``, ``dtype``, ``device`` and ``options``) once per process
    device : the device (index, name or URI) here and on every Dask worker; default each
        process's first (under dask_cuda, the worker's GPU)

    Returns
    -------
    DataArray / Dataset: dims (other dims..., coeff_dim), complex64 (complex128 for
    float64 plans), coordinates ``l`` and ``m`` along coeff_dim, attrs kept plus
    ``ireesht_grid``.
    """
    if isinstance(data, xr.Dataset):
        dims = set(_dims_of(data, lat, lon))
        return _each_variable(data, lambda v: analys(
            v, lmax, mmax=mmax, grid=grid, lat=lat, lon=lon, coeff_dim=coeff_dim,
            module=module, artifacts=artifacts, target=target, dtype=dtype, device=device,
            **options), lambda v: dims <= set(v.dims), dims)
    _check_dataarray(data)
    geo = geometry(data, lat, lon, grid)
    if lmax is None:
        lmax = make_grid(geo.grid, geo.nlat, geo.nphi).exact_lmax
        mmax = min(lmax, (geo.nphi - 1) // 2) if mmax is None else mmax
    transform = _Transform.get(geo, lmax, mmax, module, artifacts, target, dtype, device,
                               options)
    p = transform.plan
    x = data.transpose(..., geo.lat, geo.lon)
    _check_chunks(x, (geo.lat, geo.lon))
    arr = x.data
    if not geo.north_first:
        arr = arr[..., ::-1, :]
    if not geo.lon_increasing:
        arr = arr[..., ::-1]
    arr = _roll(arr, geo.shift)
    q = transform.analys(arr)
    if geo.rest:
        q = q * _phase(p, -geo.rest)
    l, m = lm_indices(p.lmax, p.mmax)
    coords = {k: c for k, c in x.coords.items() if not {geo.lat, geo.lon} & set(c.dims)}
    coords.update({"l": (coeff_dim, l), "m": (coeff_dim, m)})
    return xr.DataArray(q, dims=x.dims[:-2] + (coeff_dim,), coords=coords, name=data.name,
                        attrs={**data.attrs, ATTR: geo.record()})


def synth(coeffs, like=None, *, grid: str | None = None, nlat: int | None = None,
          nphi: int | None = None, coeff_dim: str = "coeff", module=None, artifacts=None,
          target: str = "auto", dtype: str = "float32", device: int | str | None = None,
          **options):
    """Synthesis of coefficients (``analys``'s result, or any DataArray with a packed
    ``coeff_dim`` and its ``l`` and ``m`` coordinates) back onto a grid.

    The grid: ``like``'s (a DataArray or Dataset on a latitude/longitude grid, as for
    ``analys``), else the one ``analys`` recorded in ``attrs["ireesht_grid"]``, else ``grid``,
    ``nlat``, ``nphi`` (defaults as ``ireesht.compile``), north first, from longitude 0.
    ``module``, ``artifacts``, ``target``, ``dtype``, ``device``: as for ``analys``.

    Returns
    -------
    DataArray / Dataset: dims (other dims..., lat, lon), real, lat/lon coordinates in
    degrees, attrs kept (less ``ireesht_grid``).
    """
    if isinstance(coeffs, xr.Dataset):
        return _each_variable(coeffs, lambda v: synth(
            v, like, grid=grid, nlat=nlat, nphi=nphi, coeff_dim=coeff_dim, module=module,
            artifacts=artifacts, target=target, dtype=dtype, device=device, **options),
            lambda v: coeff_dim in v.dims, {coeff_dim})
    _check_dataarray(coeffs)
    if coeff_dim not in coeffs.dims:
        raise ValueError(f"coeffs: dims {coeffs.dims}, expected a coefficient dimension "
                         f"{coeff_dim!r} (coeff_dim=)")
    lmax, mmax = _band(coeffs, coeff_dim)
    if like is not None:
        geo = geometry(like, None, None, grid)
    elif ATTR in coeffs.attrs:
        geo = Geometry.from_record(coeffs.attrs[ATTR])
    else:
        from ireesht.plan import Plan  # sizes only: the plan's defaults

        p = Plan.create(lmax, mmax, nlat, nphi, grid or "gauss", "cpu")
        geo = Geometry("lat", "lon", p.grid, p.nlat, p.nphi, True, True, 0.0, 0.0,
                       {"standard_name": "latitude", "units": "degrees_north"},
                       {"standard_name": "longitude", "units": "degrees_east"})
    transform = _Transform.get(geo, lmax, mmax, module, artifacts, target, dtype, device,
                               options)
    p = transform.plan
    x = coeffs.transpose(..., coeff_dim)
    _check_chunks(x, (coeff_dim,))
    q = x.data
    if geo.rest:
        q = q * _phase(p, geo.rest)
    f = _roll(transform.synth(q), -geo.shift)
    if not geo.lon_increasing:
        f = f[..., ::-1]
    if not geo.north_first:
        f = f[..., ::-1, :]
    coords = {k: c for k, c in x.coords.items() if coeff_dim not in c.dims}
    coords[geo.lat] = (geo.lat, geo.lat_values(), geo.lat_attrs)
    coords[geo.lon] = (geo.lon, geo.lon_values(), geo.lon_attrs)
    attrs = {k: v for k, v in coeffs.attrs.items() if k != ATTR}
    return xr.DataArray(f, dims=x.dims[:-1] + (geo.lat, geo.lon), coords=coords,
                        name=coeffs.name, attrs=attrs)


# --- the grid ---------------------------------------------------------------------------
def geometry(data, lat: str | None = None, lon: str | None = None,
             grid: str | None = None) -> Geometry:
    """Find the latitude/longitude dimensions of ``data`` and check their coordinates
    against ireesht's grids (see the module doc); ValueError naming what was found."""
    lat, lon = _dims_of(data, lat, lon)
    lat_c, lon_c = (_coordinate(data, d, kind) for d, kind in ((lat, "latitude"),
                                                               (lon, "longitude")))
    grid, north_first = _lat_grid(lat, lat_c.values.astype(np.float64), grid)
    lon_increasing, lon0, lon_min = _lon_grid(lon, lon_c.values.astype(np.float64))
    return Geometry(lat, lon, grid, lat_c.size, lon_c.size, north_first, lon_increasing,
                    lon0, lon_min, dict(lat_c.attrs), dict(lon_c.attrs))


def _dims_of(data, lat: str | None, lon: str | None) -> tuple[str, str]:
    return (_find_dim(data, lat, "latitude", LAT_NAMES, LAT_UNITS),
            _find_dim(data, lon, "longitude", LON_NAMES, LON_UNITS))


def _find_dim(data, given: str | None, kind: str, names: tuple, units: tuple) -> str:
    dims = tuple(data.dims)
    arg = kind[:3]
    if given is not None:
        if given not in dims:
            raise ValueError(f"{arg}={given!r}: not a dimension of the data; dims: {dims}")
        return given

    def cf(d):
        attrs = data[d].attrs if d in data.coords else {}
        return (attrs.get("standard_name") == kind
                or str(attrs.get("units", "")).lower() in units)

    found = [d for d in dims if cf(d)] or [d for d in dims if str(d).lower() in names]
    if len(found) == 1:
        return found[0]
    raise ValueError(
        f"dims {dims}: " + (f"several {kind} dimensions {found}" if found else f"no {kind} "
        f"dimension") + f"; expected one named {'/'.join(names)} or whose coordinate has "
        f"standard_name={kind!r} or units={units[0]!r}; or name it with {arg}=")


def _coordinate(data, dim: str, kind: str):
    if dim not in data.coords:
        raise ValueError(f"{kind} dimension {dim!r} has no coordinate: expected its values "
                         f"in degrees, which decide the grid")
    return data.coords[dim]


def _lat_grid(dim: str, lat: np.ndarray, grid: str | None) -> tuple[str, bool]:
    """(grid, north_first) of latitude values in degrees."""
    n = lat.size
    north_first = n < 2 or lat[0] > lat[-1]
    ordered = lat if north_first else lat[::-1]
    candidates = {g: make_grid(g, n, 1).lat_deg for g in GRID_KINDS if n >= min_nlat(g)}
    if grid is not None and grid not in candidates:
        raise ValueError(f"grid={grid!r}: expected one of {tuple(candidates)} for {n} "
                         f"latitudes (equiangular has both poles, at least 2 latitudes)")
    for g in [grid] if grid else candidates:
        if np.max(np.abs(ordered - candidates[g])) <= COORD_TOL:
            return g, bool(north_first)
    steps = np.diff(ordered)
    what = (f"equally spaced by {-steps[0]:g} degrees from {ordered[0]:g} to {ordered[-1]:g}"
            if n > 2 and np.ptp(steps) <= COORD_TOL else
            f"from {ordered[0]:g} to {ordered[-1]:g}")
    expected = ("a Gauss-Legendre grid (the Gauss nodes in latitude), an equiangular grid "
                f"with both poles (90 to -90 in steps of {180 / max(n - 1, 1):g}) or a Fejer "
                f"grid of cell centres ({90 - 90 / n:g} to {-90 + 90 / n:g} in steps of "
                f"{180 / n:g})"
                if grid is None else f"the {grid} grid of {n} latitudes "
                f"({candidates[grid][0]:g} .. {candidates[grid][-1]:g})")
    raise ValueError(f"latitude {dim!r}: {n} values {what}; expected {expected}, "
                     f"within {COORD_TOL} degrees")


def _lon_grid(dim: str, lon: np.ndarray) -> tuple[bool, float, float]:
    """(increasing, first longitude once increasing, lowest value) of longitudes in
    degrees, equally spaced over 360 degrees in either direction."""
    n = lon.size
    step = 360.0 / n
    for increasing in (True, False):
        ordered = lon if increasing else lon[::-1]
        off = (ordered - ordered[0] - step * np.arange(n) + 180.0) % 360.0 - 180.0
        if np.max(np.abs(off)) <= COORD_TOL:
            return increasing, float(ordered[0]), float(lon.min())
    steps = np.diff(lon)
    raise ValueError(f"longitude {dim!r}: {n} values from {lon[0]:g} to {lon[-1]:g}, steps "
                     f"{steps.min() if n > 1 else 0:g} .. {steps.max() if n > 1 else 0:g} "
                     f"degrees; expected {n} equally spaced longitudes covering the circle, "
                     f"steps of 360/{n} = {step:g} degrees (without repeating the first at "
                     f"+360)")


def _band(coeffs, dim: str) -> tuple[int, int]:
    """lmax, mmax of a packed coefficient dimension, checked against its l, m coordinates."""
    if "l" not in coeffs.coords or "m" not in coeffs.coords:
        raise ValueError(f"coeffs: expected coordinates 'l' and 'm' along {dim!r} (as "
                         f"ireesht.xarray.analys returns)")
    l, m = coeffs["l"].values, coeffs["m"].values
    lmax, mmax = int(l.max()), int(m.max())
    el, em = lm_indices(lmax, mmax)
    if l.shape != el.shape or not (np.array_equal(l, el) and np.array_equal(m, em)):
        raise ValueError(f"coeffs: the l, m coordinates along {dim!r} ({l.size} values) are "
                         f"not ireesht's packed m-major order for lmax={lmax}, mmax={mmax} "
                         f"({el.size} values, ireesht.lm_indices)")
    return lmax, mmax


def _check_chunks(x, dims: tuple[str, ...]) -> None:
    """A Dask-backed array must hold each transformed dimension in one chunk."""
    split = {d: x.chunksizes[d] for d in dims if x.chunks and len(x.chunksizes[d]) > 1}
    if split:
        raise ValueError(f"chunks {split}: the transform needs each of {list(dims)} in one "
                         f"chunk; rechunk with .chunk({ {d: -1 for d in dims} })")


def _check_dataarray(data) -> None:
    if not isinstance(data, xr.DataArray):
        raise TypeError(f"data: {type(data).__name__}, expected an xarray DataArray or Dataset")


def _each_variable(ds, fn, selected, dims):
    """``fn`` on each data variable of ``ds`` that ``selected`` takes (at least one); the
    others kept; coordinates along ``dims`` dropped."""
    names = [k for k, v in ds.data_vars.items() if selected(v)]
    if not names:
        raise ValueError(f"Dataset: no data variable has the dimensions {sorted(dims)}")
    out = {k: fn(ds[k]) if k in names else v for k, v in ds.data_vars.items()}
    keep = ds.drop_vars([k for k, c in ds.coords.items() if set(c.dims) & dims])
    return xr.Dataset(out, coords=keep.coords, attrs=ds.attrs)


def _roll(arr, shift: int):
    if shift % arr.shape[-1] == 0:
        return arr
    if isinstance(arr, np.ndarray):
        return np.roll(arr, shift, axis=-1)
    return arr.map_blocks(np.roll, shift, axis=-1, dtype=arr.dtype)  # one chunk along -1


def _phase(plan, angle: float) -> np.ndarray:
    """``exp(i m angle)`` for each packed coefficient, in the plan's complex dtype."""
    _, m = lm_indices(plan.lmax, plan.mmax)
    return np.exp(1j * m * angle).astype(np.result_type(np.dtype(plan.dtype), np.complex64))


# --- the module ---------------------------------------------------------------------------
def _is_dask(arr) -> bool:
    return type(arr).__module__.startswith("dask")


class _Transform:
    """A plan's module here (numpy arrays) and its ShippedModule (Dask arrays), made once
    per process for each (plan arguments, device)."""

    _made: dict[tuple, "_Transform"] = {}
    _lock = threading.Lock()

    def __init__(self, plan, module=None, shipped=None, device=None):
        self.plan, self._module, self._shipped, self.device = plan, module, shipped, device

    @classmethod
    def get(cls, geo: Geometry, lmax, mmax, module, artifacts, target, dtype, device,
            options) -> "_Transform":
        if module is not None:
            t = cls(module.plan, module, device=device)
        elif artifacts is not None:
            from ireesht.dask import ShippedModule

            t = cls(None, shipped=ShippedModule.from_directory(
                artifacts, None if target == "auto" else target, options.get("kernels"),
                device))
            t.plan = t._shipped.plan
        else:
            key = (lmax, mmax, geo.nlat, geo.nphi, geo.grid, target, dtype, device,
                   tuple(sorted(options.items())))
            with cls._lock:
                t = cls._made.get(key)
                if t is None:
                    import ireesht

                    mod = ireesht.compile(lmax, mmax, geo.nlat, geo.nphi, geo.grid, target,
                                          dtype, device=device, **options)
                    t = cls._made[key] = cls(mod.plan, mod, device=device)
        p = t.plan
        if (p.grid, p.nlat, p.nphi) != (geo.grid, geo.nlat, geo.nphi):
            raise ValueError(f"module: a {p.grid} grid of {p.nlat} x {p.nphi}, but the data's "
                             f"is a {geo.grid} grid of {geo.nlat} x {geo.nphi}")
        if lmax is not None and (p.lmax, p.mmax) != (lmax, lmax if mmax is None else mmax):
            raise ValueError(f"lmax={lmax}, mmax={mmax}: the module's plan has "
                             f"lmax={p.lmax}, mmax={p.mmax}")
        return t

    @property
    def module(self):
        if self._module is None:
            self._module = self._shipped.module()
        return self._module

    @property
    def shipped(self):
        if self._shipped is None:
            from ireesht.dask import ShippedModule

            self._shipped = ShippedModule.from_module(self._module, self.device)
        return self._shipped

    def analys(self, arr):
        if _is_dask(arr):
            from ireesht import dask as idk

            return idk.analys(arr, self.shipped)
        return self.module.analys(np.asarray(arr))

    def synth(self, arr):
        if _is_dask(arr):
            from ireesht import dask as idk

            return idk.synth(arr, self.shipped)
        return self.module.synth(np.asarray(arr))
