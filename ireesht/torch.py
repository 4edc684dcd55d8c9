"""PyTorch: differentiable transforms, and layers that take the place of torch-harmonics'.

``synth(module, q)`` / ``analys(module, f)`` are ``torch.autograd.Function``s on packed
coefficients (``(..., nlm)`` complex, ``(..., nlat, nphi)`` real; any ``ireesht.Module``,
compiled or loaded) whose backward passes are the exact adjoints (``ireesht.adjoint``):
PyTorch's gradient of a complex tensor, ``dL/dRe q + i dL/dIm q``, is the gradient for the
real inner product the adjoints are defined with. Tensors travel as DLPack arrays
(``ireesht.interop``: no copy on the CPU target; through the host for Vulkan).

``RealSHT`` / ``InverseRealSHT`` follow ``torch_harmonics.RealSHT`` / ``InverseRealSHT``
(0.9.3): the same constructor arguments and defaults, dense ``(..., lmax, mmax)`` complex
coefficients whose ``lmax`` and ``mmax`` are counts (ireesht's lmax + 1), the same truncation
(``lmax = mmax = min(lmax, mmax)``), normalizations and Condon-Shortley switch, so that a
model swaps them in by changing one import. ``csphase`` is the module's (``ireesht.compile(...,
csphase=)``); torch-harmonics' ``"four-pi"`` and ``"schmidt"`` coefficients are the orthonormal
ones times ``d_lm`` = sqrt(4 pi), sqrt(4 pi / (2l + 1)) (a constant field's l = 0 coefficient is
4 pi), where pyshtools' and ``ireesht.compile(norm="four_pi" | "schmidt")`` divide by
``d_lm`` (a constant's is 1): the layers multiply the module's orthonormal coefficients by
``d_lm`` (``numerics.normalization.factors``) in torch. The Nyquist order ``m = nlon / 2``
(torch-harmonics' default ``mmax = nlon // 2 + 1`` of an even ``nlon``) is kept, in
torch-harmonics' convention: its field is ``Re c_lm P_lm (-1)^j``, half ireesht's (ducc0's)
``2 Re q_lm P_lm (-1)^j``, so the layers take ``c = 2 q`` there. Differences: grids
``"legendre-gauss"`` and ``"equiangular"`` (Clenshaw-Curtis, both poles, as torch-harmonics)
only; ``nlon >= 2 (mmax - 1)`` and, on the Gauss grid, ``nlat >= lmax``; float32 and float64
inputs. The module of each (plan, dtype, target) is compiled on
first use (IREE's compiler needed; ``ireesht[compile]``) and shared by every layer of the
process, unless ``provide(module)`` gave one (a runtime-only install); the target is the input's
device (``cpu`` or ``cuda``) unless ``target=`` names one. ``replace_sht(model)`` swaps a built
model's torch-harmonics layers for these.
"""

from __future__ import annotations

import functools

import numpy as np
import torch

from ireesht import adjoint, interop
from ireesht.numerics import layout, normalization
from ireesht.validate import check_bool

__all__ = ["synth", "analys", "RealSHT", "InverseRealSHT", "replace_sht", "provide"]


# --- differentiable transforms ------------------------------------------------------------
class _Synth(torch.autograd.Function):
    @staticmethod
    def forward(ctx, module, q):
        ctx.module = module
        return module.synth(q)

    @staticmethod
    def backward(ctx, g):
        m = ctx.module
        return None, adjoint.transpose_synth(g, m.plan, lambda f: analys(m, f),
                                             interop.constant_like)


class _Analys(torch.autograd.Function):
    @staticmethod
    def forward(ctx, module, f):
        ctx.module = module
        return module.analys(f)

    @staticmethod
    def backward(ctx, g):
        m = ctx.module
        return None, adjoint.transpose_analys(g, m.plan, lambda q: synth(m, q),
                                              interop.constant_like)


def synth(module, q: torch.Tensor) -> torch.Tensor:
    """Synthesis ``(..., nlm)`` complex -> ``(..., nlat, nphi)`` real (the plan's dtype), on
    ``q``'s device; differentiable (backward: ``module.synth_adjoint``, twice: ``synth``)."""
    return _Synth.apply(module, q)


def analys(module, f: torch.Tensor) -> torch.Tensor:
    """Analysis ``(..., nlat, nphi)`` real -> ``(..., nlm)`` complex, on ``f``'s device;
    differentiable (backward: ``module.analys_adjoint``)."""
    return _Analys.apply(module, f)


# --- torch-harmonics' layers --------------------------------------------------------------
GRIDS = {"legendre-gauss": "gauss", "equiangular": "equiangular"}
# torch-harmonics' name of each norm -> the name of its factors d_lm in ireesht (the module doc)
NORMS = {"ortho": "ortho", "four-pi": "four_pi", "schmidt": "schmidt"}


def truncation(nlat: int, nlon: int, lmax: int | None, mmax: int | None,
               grid: str) -> tuple[int, int]:
    """torch-harmonics' ``truncate_sht``: the counts ``(lmax, mmax)``, both
    ``min(lmax or default, mmax or nlon // 2 + 1)``; default lmax ``nlat`` (Gauss),
    ``(nlat + 1) // 2`` (equiangular)."""
    lmax = lmax or (nlat if grid == "legendre-gauss" else (nlat + 1) // 2)
    mmax = mmax or nlon // 2 + 1
    lmax = min(lmax, mmax)
    return lmax, lmax


_PROVIDED: dict[tuple, object] = {}


def provide(*modules) -> None:
    """Make the layers use these modules (e.g. from ``ireesht.load``: a runtime-only install
    has no compiler) for the plans they serve, instead of compiling. A module serves a layer
    of its lmax (= mmax), grid size, grid, dtype, target and csphase."""
    for m in modules:
        p = m.plan
        if p.mmax != p.lmax or p.norm != "ortho" or p.transform != "scalar":
            raise ValueError(f"module with lmax={p.lmax}, mmax={p.mmax}, norm={p.norm!r}, "
                             f"transform={p.transform!r}: the layers use scalar plans with "
                             "mmax = lmax and norm='ortho' (they apply their norm themselves)")
        _PROVIDED[(p.lmax, p.nlat, p.nphi, p.grid, p.dtype, p.target, p.csphase)] = m


@functools.lru_cache(maxsize=None)
def _compiled(lmax: int, nlat: int, nlon: int, grid: str, dtype: str, target: str,
              csphase: bool):
    from ireesht.api import compile  # the compiler is needed here only

    # a layer transforms batch x channels fields per call: on GPUs four share a recurrence
    return compile(lmax, lmax, nlat, nlon, grid, target=target, dtype=dtype, csphase=csphase,
                   fields_per_thread=1 if target == "cpu" else 4)


def _module(lmax: int, nlat: int, nlon: int, grid: str, dtype: str, target: str,
            csphase: bool):
    key = (lmax, nlat, nlon, grid, dtype, target, csphase)
    return _PROVIDED[key] if key in _PROVIDED else _compiled(*key)


class _Layer(torch.nn.Module):
    def __init__(self, nlat: int, nlon: int, lmax: int | None, mmax: int | None, grid: str,
                 norm: str, csphase: bool, target: str | None):
        super().__init__()
        if grid not in GRIDS:
            raise ValueError(f"grid={grid!r}: ireesht has no such grid; expected one of "
                             f"{tuple(GRIDS)}")
        if norm not in NORMS:
            raise ValueError(f"norm={norm!r}: expected one of {tuple(NORMS)}")
        csphase = check_bool("csphase", csphase)
        self.nlat, self.nlon, self.grid, self.norm, self.csphase = nlat, nlon, grid, norm, csphase
        self.lmax, self.mmax = truncation(nlat, nlon, lmax, mmax, grid)
        L = self.lmax
        if nlon < 2 * (L - 1):
            raise ValueError(f"nlon={nlon}: lmax={L} (degrees 0..{L - 1}) needs nlon >= "
                             f"{2 * (L - 1)}; expected lmax <= {nlon // 2 + 1}")
        if grid == "legendre-gauss" and nlat < L:
            raise ValueError(f"nlat={nlat}: a Gauss grid resolves lmax <= nlat; got lmax={L}")
        self.target = target
        l, m = layout.lm_indices(L - 1, L - 1)
        self.register_buffer("_dense_index", torch.from_numpy(l * L + m), persistent=False)
        # torch-harmonics' coefficient of (l, m) is the module's times d_lm, and times 2 for
        # the Nyquist order m = nlon / 2 (module doc); the module has the phase. None: 1
        factors = normalization.factors(L - 1, L - 1, NORMS[norm], csphase=True)
        if nlon == 2 * (L - 1):
            factors[m == L - 1] *= 2.0
        scale = None if np.all(factors == 1.0) else torch.from_numpy(factors)
        self.register_buffer("_scale", scale, persistent=False)

    def module(self, x: torch.Tensor):
        """The ireesht module for inputs like ``x`` (compiled on first use, then shared)."""
        dtype = {torch.float32: "float32", torch.float64: "float64",
                 torch.complex64: "float32", torch.complex128: "float64"}.get(x.dtype)
        if dtype is None:
            raise ValueError(f"dtype {x.dtype}: expected float32 or float64 (complex64 or "
                             "complex128 coefficients)")
        target = self.target or {"cpu": "cpu", "cuda": "cuda"}.get(x.device.type)
        if target is None:
            raise ValueError(f"device {x.device}: expected cpu or cuda, or target= naming "
                             "an ireesht target")
        return _module(self.lmax - 1, self.nlat, self.nlon, GRIDS[self.grid], dtype, target,
                       self.csphase)

    def extra_repr(self) -> str:
        return (f"nlat={self.nlat}, nlon={self.nlon},\n lmax={self.lmax}, mmax={self.mmax},\n"
                f" grid={self.grid}, csphase={self.csphase}")


class RealSHT(_Layer):
    """Forward SHT, as ``torch_harmonics.RealSHT``: ``(..., nlat, nlon)`` real ->
    ``(..., lmax, mmax)`` complex (entries with l < m zero); module doc for the differences.
    ``target``: an ireesht target instead of the input's device."""

    def __init__(self, nlat: int, nlon: int, lmax: int | None = None, mmax: int | None = None,
                 grid: str = "equiangular", norm: str = "ortho", csphase: bool = True, *,
                 target: str | None = None):
        super().__init__(nlat, nlon, lmax, mmax, grid, norm, csphase, target)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() < 2 or tuple(x.shape[-2:]) != (self.nlat, self.nlon):
            raise ValueError(f"x: shape {tuple(x.shape)}, expected (..., {self.nlat}, "
                             f"{self.nlon}) (nlat, nlon)")
        q = analys(self.module(x), x)
        if self._scale is not None:
            q = q * self._scale.to(q.real.dtype)
        dense = q.new_zeros(q.shape[:-1] + (self.lmax * self.mmax,))
        return dense.index_copy(-1, self._dense_index, q).unflatten(-1, (self.lmax, self.mmax))


class InverseRealSHT(_Layer):
    """Inverse SHT, as ``torch_harmonics.InverseRealSHT``: ``(..., lmax, mmax)`` complex ->
    ``(..., nlat, nlon)`` real; entries with l < m, and Im of m = 0, are ignored."""

    def __init__(self, nlat: int, nlon: int, lmax: int | None = None, mmax: int | None = None,
                 grid: str = "equiangular", norm: str = "ortho", csphase: bool = True, *,
                 target: str | None = None):
        super().__init__(nlat, nlon, lmax, mmax, grid, norm, csphase, target)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() < 2 or tuple(x.shape[-2:]) != (self.lmax, self.mmax):
            raise ValueError(f"x: shape {tuple(x.shape)}, expected (..., {self.lmax}, "
                             f"{self.mmax}) (lmax, mmax)")
        if not x.is_complex():
            raise ValueError(f"x: dtype {x.dtype}, expected complex64 or complex128")
        q = x.flatten(-2).index_select(-1, self._dense_index)
        if self._scale is not None:
            q = q / self._scale.to(q.real.dtype)
        return synth(self.module(x), q)


_TH_LAYERS = {"RealSHT": RealSHT, "InverseRealSHT": InverseRealSHT}


def _is_th_layer(m) -> bool:
    # by name, so that torch_harmonics need not be importable here; exact classes only (a
    # subclass may do more than the transform)
    return type(m).__module__ == "torch_harmonics.sht" and type(m).__name__ in _TH_LAYERS


def replace_sht(model: torch.nn.Module, *, target: str | None = None) -> torch.nn.Module:
    """Replace, in place, every ``torch_harmonics.RealSHT`` / ``InverseRealSHT`` submodule of
    ``model`` by this module's layer of the same arguments (nlat, nlon, lmax, mmax, grid, norm,
    csphase; ``target`` passed on); a layer held by several parents (torch-harmonics' SFNO
    shares its transforms between blocks) stays one layer. Returns ``model``, or its
    replacement if ``model`` is itself such a layer. Raises ``ValueError`` for a layer ireesht
    cannot do (its grid, ``nlon``), before changing anything."""
    made: dict[int, _Layer] = {}

    def swap(m):
        if id(m) not in made:
            made[id(m)] = _TH_LAYERS[type(m).__name__](m.nlat, m.nlon, m.lmax, m.mmax, m.grid,
                                                       m.norm, m.csphase, target=target)
        return made[id(m)]

    if _is_th_layer(model):
        return swap(model)
    edges = [(parent, name, child) for parent in model.modules()
             for name, child in parent._modules.items() if _is_th_layer(child)]
    for _, _, child in edges:  # every replacement made before the model is touched
        swap(child)
    for parent, name, child in edges:
        setattr(parent, name, made[id(child)])
    return model
