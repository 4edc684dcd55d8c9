"""The CPU kernel family "c": the four stages hand-written in C (``kernels/c``), compiled
ahead of time by ``tools/build_objects.py`` into freestanding ELF objects per CPU baseline,
and linked by iree-compile into the module's llvm-cpu executables (the "embedded" route:
``stream.executable`` with ``hal.executable.objects``; the codegen'd shim of each export
calls the C entry point with base pointers, offsets, push constants and its work-item id).

Contract and work-item grid: ``kernels/c/README.md``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ireesht import host
from ireesht.codegen.resources import data_dir
from ireesht.tables import table_shapes
from ireesht import registry
from ireesht.registry import KERNEL_STAGES

HEADERS = ("sht_common.h", "sht_legendre.h", "sht_ishioka.h", "sht_fft.h")
LEG_FIELDS = 4  # fields per Legendre work item (NFMAX of leg_*.c)
# dtype -> (object name infix, clang flags): the same sources build both
DTYPE_BUILDS = {"float32": ("", []), "float64": ("_f64", ["-DSHT_F64"])}
# variant -> (source of stage s: f"{s}{suffix}.c", clang flags besides the dtype's): the
# "ishioka" Legendre stages have their own sources, the "float64" Fourier stages are the
# float64 build of the FFT's sources on float32 buffers
VARIANT_BUILDS = {"c": ("", []), "ishioka": ("_ishioka", []),
                  "float64": ("", ["-DSHT_F64", "-DSHT_IO32"])}


def kernels_dir() -> Path:
    """Directory holding the shipped objects (package ``ireesht.kernels.c``)."""
    return data_dir("ireesht.kernels.c", "kernels/c", "*.o")


def source_file(stage: str, variant: str = "c") -> str:
    """The C source of a variant's objects."""
    return f"{stage}{VARIANT_BUILDS[variant][0]}.c"


def build_flags(variant: str, dtype: str) -> list[str]:
    """clang flags of a variant's object of ``dtype`` besides the baseline's and common ones."""
    return DTYPE_BUILDS[dtype][1] + VARIANT_BUILDS[variant][1]


def source_digest(stage: str, directory: Path | None = None, variant: str = "c") -> str:
    """sha256 over a variant's C source and the shared headers: what its objects are built
    from (recorded per object in ``kernels/c/objects.json`` by tools/build_objects.py)."""
    src = directory or kernels_dir()
    h = hashlib.sha256()
    for name in (source_file(stage, variant), *HEADERS):
        h.update(name.encode() + b"\0" + (src / name).read_bytes())
    return h.hexdigest()


def object_name(stage: str, base: str, dtype: str, variant: str = "c") -> str:
    """File name of a variant's object: its template (``<stage>[_f64]_<baseline>.o`` for
    the variants "c")."""
    return registry.variant("c", stage, variant).template.format(f64=DTYPE_BUILDS[dtype][0],
                                                                 baseline=base)


def objects(baselines) -> list[tuple[str, str, str, str]]:
    """Every object of the family for these baselines: (stage, variant, baseline, dtype)."""
    return [(v.stage, v.name, base, dtype) for v in registry.VARIANTS
            if v.family == "c" and v.template
            for base in baselines for dtype in v.dtypes]


def kernel_objects(plan) -> dict[str, str]:
    """The object file of each stage for this plan's variants, CPU baseline and dtype."""
    base = host.baseline(plan.cpu)
    return {stage: object_name(stage, base, plan.dtype, plan.variant_names[stage])
            for stage in KERNEL_STAGES}


# --- MLIR -------------------------------------------------------------------------------

def _buffer(name: str, shape: str, dynamic: bool, ft: str) -> list[str]:
    """MLIR lines of the subspan and strided metadata of binding ``name`` (element type
    ``ft``), which define the C call's arguments ``%<name>_base, %<name>_off``."""
    rank = shape.count("x") + 1
    mtype = f"memref<{shape}x{ft}>"
    dims = "{%b}" if dynamic else ""
    results = ", ".join([f"%{name}_base", f"%{name}_off"] + [f"%{name}_m{i}" for i in range(2 * rank)])
    return [
        f"%{name}_mem = stream.binding.subspan %{name}[%c0] : !stream.binding -> {mtype}{dims}",
        f"{results} = iree_codegen.extract_strided_metadata %{name}_mem : {mtype} -> "
        f"memref<{ft}>, index" + ", index" * (2 * rank),
    ]


def _executable(stage: str, obj: str, ft: str, buffers: list[tuple[str, str, bool]],
                consts: list[str], grid: tuple[str, str], symbol: str = "") -> str:
    """A ``stream.executable`` ``@c_<symbol>`` with one export ``@<symbol>`` that calls
    ``sht_<stage>`` (``symbol``: the stage's name, or another where a module holds several
    executables of one stage: their exports share one namespace once linked).

    ft: the element type (f32, f64) of buffers without their own; buffers: (name, shape,
    dynamic batch[, element type]) in binding order, the result last; consts: the i32 push
    constants; grid: (MLIR defining ``%gx`` and maybe more from the workload ``%b``, the name
    of the y count). The export function takes the
    bindings (operands, then result), then the dispatch's scalar operands in order
    (flow.dispatch -> stream conversion).
    """
    body: list[str] = []
    args: list[str] = []
    types = [b[3] if len(b) > 3 else ft for b in buffers]
    for (name, shape, dynamic, *_), et in zip(buffers, types):
        body += _buffer(name, shape, dynamic, et)
        args += [f"%{name}_base", f"%{name}_off"]
    args += [f"%{c}" for c in consts] + ["%wx", "%wy"]
    sig = ", ".join([f"memref<{et}>, index" for et in types] + ["i32"] * len(consts)
                    + ["index", "index"])
    params = ", ".join([f"%{b[0]}: !stream.binding" for b in buffers]
                       + [f"%{c}: i32" for c in consts] + ["%b: index"])
    grid_lines, gy = grid
    symbol = symbol or stage
    ind = "\n          "
    return f"""
  stream.executable private @c_{symbol} attributes {{
    hal.executable.objects = #hal.executable.objects<{{
      #cpu_obj = [#hal.executable.object<{{path = "{obj}"}}>]}}>
  }} {{
    stream.executable.export public @{symbol} workgroups(%b: index) -> (index, index, index) {{
      {grid_lines}
      %one = arith.constant 1 : index
      stream.return %gx, {gy}, %one : index, index, index
    }}
    builtin.module {{
      func.func private @sht_{stage}({sig})
          attributes {{hal.import.static, llvm.bareptr = true}}
      func.func @{symbol}({params}) {{
          %c0 = arith.constant 0 : index
          %wx = stream.dispatch.workgroup.id[0] : index
          %wy = stream.dispatch.workgroup.id[1] : index
          {ind.join(body)}
          func.call @sht_{stage}({", ".join(args)})
              : ({sig}) -> ()
          return
      }}
    }}
  }}"""


def parts(plan, values: dict) -> dict[str, str]:
    """The family's pieces of mlir/pipeline.mlir (see ``ireesht.codegen.module.render``)."""
    v = values
    ft = v["ft"]
    objs = kernel_objects(plan)
    arch = "arm_64" if host.baseline(plan.cpu) == "aarch64" else "x86_64"
    tables = table_shapes(plan)  # name -> (shape, element type)
    qshape, Fshape, fshape = f"?x{v['nlm']}x2", f"?x{v['nlat']}x{v['mc']}x2", f"?x{v['nlat']}x{v['nphi']}"
    leg = ["lmax", "mmax", "nlat", "npairs", "nlm", "nb"]
    fft = ["nlat", "nphi", "mc", "nb"]
    # work-item counts (x, y) from the workload %b: (MLIR defining them, y's name)
    leg_grid = (f"%gx = arith.constant {v['mc']} : index\n      %gy = affine.apply "
                f"affine_map<()[s0] -> (s0 ceildiv {LEG_FIELDS})>()[%b]", "%gy")
    fft_grid = (f"%gx = arith.constant {v['nlat']} : index", "%b")
    def tabs(stage: str) -> list[tuple[str, str, bool, str]]:
        return [(t, *tables[t][:1], False, tables[t][1]) for t in plan.stage_tables(stage)]

    specs = {
        "leg_synth": (tabs("leg_synth") + [("q", qshape, True), ("F", Fshape, True)], leg,
                      leg_grid),
        "leg_analys": (tabs("leg_analys") + [("F", Fshape, True), ("q", qshape, True)], leg,
                       leg_grid),
        "fft_synth": (tabs("fft_synth") + [("F", Fshape, True), ("f", fshape, True)], fft,
                      fft_grid),
        "fft_analys": (tabs("fft_analys") + [("f", fshape, True), ("F", Fshape, True)], fft,
                       fft_grid),
    }
    out = {
        "aliases": f'#cpu_obj = #hal.executable.target<"llvm-cpu", "embedded-elf-{arch}">',
        "module_attrs": "",
        "executables": "\n".join(_executable(s, objs[s], ft, *specs[s])
                                  for s in KERNEL_STAGES),
    }
    for stage, (buffers, consts, _) in specs.items():
        ins = buffers[:-1]
        rname, rshape, _ = buffers[-1]
        # F is written in place into the workspace operand %F_ws (mlir/pipeline.mlir): the
        # last operand binding, as the result's binding would be
        tied = rname == "F"
        if tied:
            ins = ins + [("F_ws", rshape, True)]
        # the Legendre analysis reads F, or G where the theta step makes it (codegen.theta)
        ssa = {"F": v["leg_analys_in"]} if stage == "leg_analys" else {}
        operands = ", ".join([f"%{ssa.get(b[0], b[0])}" for b in ins]
                             + [f"%{c}" for c in consts] + ["%b"])
        types = ", ".join([f"tensor<{b[1]}x{b[3] if len(b) > 3 else ft}>"
                           + ("{%b}" if b[2] else "") for b in ins]
                          + ["i32"] * len(consts) + ["index"])
        result = "%F_ws{%b}" if tied else f"tensor<{rshape}x{ft}>{{%b}}"
        out[f"op_{stage}"] = (
            f"    %{rname} = flow.dispatch @c_{stage}::@{stage}[%b]({operands})\n"
            f"        : ({types}) -> {result}")
    return out


def compile_flags(plan) -> list[str]:
    """iree-compile flags: the local device with llvm-cpu, the object search path, and the
    CPU the module's own code is built for (the host's, or a portable baseline)."""
    flags = ["--iree-hal-target-device=local",
             "--iree-hal-local-target-device-backends=llvm-cpu",
             f"--iree-hal-executable-object-search-path={kernels_dir()}"]
    base = host.baseline(plan.cpu)
    if plan.cpu == "host":
        return flags + ["--iree-llvmcpu-target-cpu=host"]
    if base == "aarch64":
        return flags + ["--iree-llvmcpu-target-triple=aarch64-unknown-linux-gnu",
                        "--iree-llvmcpu-target-cpu=generic"]
    return flags + ["--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu",
                    f"--iree-llvmcpu-target-cpu={base}"]


def digest(plan) -> str:
    """Hash of the objects a plan links, so a rebuilt object misses the cache; for
    ``cpu="host"`` also of this CPU's model and features, which the flags only call "host"
    (a cache shared between machines must not hand one CPU's module to another)."""
    h = hashlib.sha256()
    for name in sorted(kernel_objects(plan).values()):
        h.update((kernels_dir() / name).read_bytes())
    if plan.cpu == "host":
        h.update(host.cpu_id().encode())
    return h.hexdigest()
