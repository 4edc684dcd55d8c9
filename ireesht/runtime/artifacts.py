"""Saved modules: a directory of ``.vmfb`` files (one per target) and a ``manifest.json``.

Written by ``ireesht build`` / ``ireesht.build`` (several targets) and ``Module.save`` (one);
read by ``ireesht.load``, which needs only ``iree-base-runtime`` and numpy.

Integrity: the manifest carries ``digest``, the sha256 of its own canonical JSON
(``plan.canonical_json``) without that field, so an edited manifest (plan, target, kernels,
variants, ``tables_version``, a module's size or sha256, ...) is refused; each module file is
read only if it is a plain name in the directory, a regular file of the manifest's size, and
its sha256 is checked before IREE sees a byte; and each module carries its plan's fingerprint
(``Plan.fingerprint``), checked when it loads, so that it runs only with that plan. The IREE
release that compiled it must match the runtime's (VM bytecode is versioned per release).
These checks catch corruption and edits, not forgery: a module is code, load only artifacts
you trust. Every malformed manifest raises ``ArtifactError`` naming the field.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
from pathlib import Path

from ireesht import __version__
from ireesht.host import cpu_baselines, cpu_id
from ireesht.plan import Plan, canonical_json
from ireesht.registry import TARGETS
from ireesht.runtime.files import FileCheckError, read_regular, write_atomic
from ireesht.tables import TABLES_VERSION

# The manifest's format; an artifact of another version is refused (rebuild it). 12: plans
# carry their resolved kernel variants (``Plan.as_dict``) and are validated on load. 13: the
# manifest's ``digest`` and ``tables_version``; modules carry their plan's fingerprint.
# 14: plans carry ``transform`` ("scalar" or "vector"), ``norm`` and ``csphase``. 15: a
# fifth stage, ``theta_analys``, in the plans' variants. 16: the ``*_async`` functions take
# storage for their intermediates (``iree.abi.transients``).
MANIFEST_VERSION = 16
MANIFEST = "manifest.json"
MAX_MANIFEST_BYTES = 2**20
MAX_MODULE_BYTES = 2**28  # 256 MiB: the largest modules take a few MB
# a module file: a plain name in the artifact directory
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.vmfb")
# the order in which load() prefers artifacts when no target is asked for
TARGET_PREFERENCE = ("cuda", "vulkan", "metal", "cpu")
CONVENTIONS = {
    "normalization": "the plan's norm: 'ortho' orthonormal on the unit sphere, 'four_pi' 4 pi "
                     "normalised, 'schmidt' Schmidt semi-normalised (as pyshtools); csphase: "
                     "whether the harmonics carry the Condon-Shortley phase (-1)^m",
    "coefficients": "complex (..., nlm), packed m-major: index of (l, m) is m(2 lmax + 3 - m)/2 + (l - m)",
    "spatial": "real (..., nlat, nphi), colatitude increasing from the north pole, phi_j = 2 pi j / nphi",
    "real_fields": "Im q(l, 0) is ignored by synthesis and returned as 0 by analysis",
}
README = """\
# ireesht transform artifacts

Spherical harmonic transforms compiled ahead of time with IREE: lmax={lmax}, mmax={mmax},
{grid} grid {nlat} x {nphi}, {dtype}. One module per target: {targets}.
`manifest.json` holds the plan, the conventions, each module's target, kernel family,
architecture, sha256 and the IREE release that compiled it.

Load with only `pip install iree-base-runtime=={iree_minor}.* numpy` and ireesht:

    import ireesht
    mod = ireesht.load("{dirname}")      # picks the module that matches a device here
    f = mod.synth(q)                      # q: (..., {nlm}) complex, packed m-major
    q2 = mod.analys(f)                    # f: (..., {nlat}, {nphi}) real

`ireesht.load(dir, target="cpu")` forces a target; `ireesht info {dirname}` describes it.
"""


class ArtifactError(ValueError):
    """A saved module that cannot be used here: corrupt, edited, malformed, mismatched, or
    for another machine (``ireesht.ArtifactError``)."""


def iree_release(version: str | None) -> str:
    """``"3.13"`` from ``"3.13.0rc20261016"``."""
    return ".".join((version or "unknown").split(".")[:2])


def cpu_arch(baseline: str) -> str:
    return "aarch64" if baseline == "aarch64" else "x86_64"


def requirements(plan: Plan) -> dict:
    """What a module needs from the machine, for the manifest."""
    if plan.target == "cpu":
        if plan.cpu == "host":  # this CPU's own features: it loads only on the same CPU
            return {"cpu_baseline": "host", "cpu_arch": platform.machine(), "cpu_id": cpu_id()}
        return {"cpu_baseline": plan.cpu, "cpu_arch": cpu_arch(plan.cpu)}
    return {"gpu_arch": TARGETS[plan.target].needs}


def write(directory: str | os.PathLike, modules: list[tuple[Plan, bytes, dict]],
          iree_compiler: str | None) -> Path:
    """Write ``(plan, vmfb, extra manifest fields)`` modules, the manifest and a README.

    Returns the directory. File names are ``sht_<target>_<kernels>[_<cpu>].vmfb``.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for plan_, vmfb, extra in modules:
        plan = plan_.as_dict()
        name = f"sht_{plan['target']}_{plan['kernels']}" + (
            f"_{plan['cpu']}" if plan["target"] == "cpu" else "")
        write_atomic(out / f"{name}.vmfb", vmfb)
        entries.append({
            "target": plan["target"],
            "kernels": plan["kernels"],
            "file": f"{name}.vmfb",
            "sha256": hashlib.sha256(vmfb).hexdigest(),
            "bytes": len(vmfb),
            **extra,
            "plan": plan,
        })
    first = modules[0][0].as_dict()
    manifest = {
        "manifest_version": MANIFEST_VERSION,
        "ireesht_version": __version__,
        "iree_compiler": iree_compiler,
        "tables_version": TABLES_VERSION,
        "plan": {k: first[k] for k in ("lmax", "mmax", "grid", "nlat", "nphi", "dtype")},
        "conventions": CONVENTIONS,
        "artifacts": entries,
    }
    manifest["digest"] = manifest_digest(manifest)
    write_atomic(out / MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    (out / "README.md").write_text(README.format(
        **manifest["plan"], targets=", ".join(e["file"] for e in entries),
        iree_minor=iree_release(iree_compiler), dirname=out.name, nlm=modules[0][0].nlm))
    return out


def manifest_digest(manifest: dict) -> str:
    """The sha256 of the manifest's canonical JSON without its ``digest`` (and without the
    ``_dir`` that ``read_manifest`` adds)."""
    body = {k: v for k, v in manifest.items() if k not in ("digest", "_dir")}
    return hashlib.sha256(canonical_json(body)).hexdigest()


def read_manifest(path: str | os.PathLike) -> dict:
    """The manifest of a saved directory (or of the directory holding a ``.vmfb`` path),
    after checking its version, its digest and every field that loading reads; raises
    ArtifactError naming what is wrong."""
    root = Path(path)
    manifest_path = root / MANIFEST if root.is_dir() else root.with_name(MANIFEST)
    try:
        text = read_regular(manifest_path, MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        raise ArtifactError(f"path={str(path)!r}: no {MANIFEST} there (expected a directory "
                            f"written by `ireesht build` or Module.save)") from None
    except (OSError, FileCheckError) as e:
        raise ArtifactError(f"{manifest_path}: cannot be read ({e})") from None
    try:
        manifest = json.loads(text)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, UnicodeDecodeError, digits
        raise ArtifactError(f"{manifest_path}: not a valid manifest "
                            f"({type(e).__name__}: {str(e)[:200]})") from None
    version = manifest.get("manifest_version") if isinstance(manifest, dict) else None
    if not isinstance(version, int) or isinstance(version, bool):
        raise ArtifactError(f"{manifest_path}: not an ireesht manifest (manifest_version="
                            f"{_short(version)}, expected an integer)")
    if version > MANIFEST_VERSION:
        written_by = manifest.get("ireesht_version")
        raise ArtifactError(
            f"{manifest_path}: manifest_version={version} was written by ireesht "
            f"{written_by if isinstance(written_by, str) else '?'}; this ireesht "
            f"{__version__} reads up to {MANIFEST_VERSION}: upgrade ireesht")
    if version < MANIFEST_VERSION:
        raise ArtifactError(f"{manifest_path}: manifest_version={version} from an older "
                            f"ireesht; rebuild the artifacts with this one (version "
                            f"{MANIFEST_VERSION})")
    try:
        digest = manifest_digest(manifest)
    except (ValueError, TypeError, RecursionError) as e:
        raise ArtifactError(f"{manifest_path}: not a valid manifest ({e})") from None
    if manifest.get("digest") != digest:
        raise ArtifactError(f"{manifest_path}: digest={_short(manifest.get('digest'))} does "
                            f"not match its contents (sha256 {digest}): the manifest was "
                            f"edited or corrupted; rebuild the artifacts")
    manifest["_dir"] = str(manifest_path.parent)
    _check_fields(manifest, manifest_path)
    return manifest


def _short(value) -> str:
    """``repr(value)``, cut at 80 characters (a JSON value: at most a megabyte)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<deeply nested {type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _check_fields(manifest: dict, where: Path) -> None:
    """Every field that loading reads, of the type it needs (the plans as ``Plan.create``
    checks them): ArtifactError naming the first one that is not."""
    def bad(field: str, value, expected: str) -> ArtifactError:
        return ArtifactError(f"{where}: {field}={_short(value)}: expected {expected}")

    compiler = manifest.get("iree_compiler")
    if not isinstance(compiler, str):
        raise bad("iree_compiler", compiler, "the IREE compiler's version, a string")
    tables = manifest.get("tables_version")
    if tables != TABLES_VERSION or isinstance(tables, bool):
        raise bad("tables_version", tables, f"{TABLES_VERSION}, the format of this ireesht's "
                  f"tables: rebuild the artifacts with this ireesht")
    entries = manifest.get("artifacts")
    if not isinstance(entries, list) or not entries:
        raise bad("artifacts", entries, "a non-empty list of modules")
    for i, e in enumerate(entries):
        name = f"artifacts[{i}]"
        if not isinstance(e, dict):
            raise bad(name, e, "an object")
        for key in ("target", "kernels", "file", "sha256"):
            if not isinstance(e.get(key), str):
                raise bad(f"{name}.{key}", e.get(key), "a string")
        if e["target"] not in TARGETS:
            raise bad(f"{name}.target", e["target"], f"one of {list(TARGETS)}")
        if not _FILE_NAME.fullmatch(e["file"]) or ".." in e["file"]:
            raise bad(f"{name}.file", e["file"], "a plain file name ending in .vmfb, in the "
                      "artifact directory")
        if not re.fullmatch(r"[0-9a-f]{64}", e["sha256"]):
            raise bad(f"{name}.sha256", e["sha256"], "64 hexadecimal digits")
        size = e.get("bytes")
        if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= MAX_MODULE_BYTES:
            raise bad(f"{name}.bytes", size, f"an integer from 1 to {MAX_MODULE_BYTES}")
        if "cpu_id" in e and not isinstance(e["cpu_id"], str):
            raise bad(f"{name}.cpu_id", e["cpu_id"], "a string")
        entry_plan(manifest, e, name)


def verified_bytes(manifest: dict, entry: dict, check_release: bool = True) -> bytes:
    """The ``.vmfb`` of one manifest entry (of ``read_manifest``), after checking that it is
    a regular file in the directory of the manifest's size and sha256 and (unless
    ``check_release`` is false) that the runtime is of the IREE release that compiled it."""
    directory = Path(manifest["_dir"])
    path = directory / entry["file"]
    if path.resolve().parent != directory.resolve():
        raise ArtifactError(f"{path}: a link out of the artifact directory {directory}")
    try:
        data = read_regular(path, MAX_MODULE_BYTES, entry["bytes"])
    except FileNotFoundError:
        raise ArtifactError(f"{path}: module file missing") from None
    except (OSError, FileCheckError) as e:
        raise ArtifactError(str(e)) from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != entry["sha256"]:
        raise ArtifactError(f"{entry['file']}: sha256 {digest} does not match the manifest "
                            f"({entry['sha256']}): the file is corrupted or was replaced")
    if not check_release:
        return data
    from iree.runtime import version

    built, here = iree_release(manifest.get("iree_compiler")), iree_release(version.VERSION)
    if built != here:
        raise ArtifactError(f"{entry['file']} was compiled by IREE {built}, this runtime is "
                            f"IREE {here}: install iree-base-runtime=={built}.* or rebuild")
    return data


def select(manifest: dict, target: str | None, drivers: list[str], vulkan_gpu: bool,
           kernels: str | None = None) -> dict:
    """The manifest entry to load on this machine.

    ``target`` None picks by ``TARGET_PREFERENCE`` among targets with a device here (Vulkan
    only on a real GPU unless it is the only match); a CPU module must match this CPU.
    Raises ArtifactError naming what the artifacts need and what this machine has.
    """
    entries = [e for e in manifest["artifacts"] if target in (None, e["target"])
               and kernels in (None, e.get("kernels"))]
    if not entries:
        have = sorted({f"{e['target']}:{e.get('kernels')}" for e in manifest["artifacts"]})
        raise ArtifactError(f"target={target!r}, kernels={kernels!r}: no such module in "
                            f"{manifest['_dir']} (it has {have})")
    found = runnable(entries, drivers)
    if not found:
        have = ", ".join(f"{e['target']}" + (f" ({e['plan'].get('cpu')})" if e["target"] == "cpu" else "")
                         for e in entries)
        raise ArtifactError(
            f"{manifest['_dir']}: modules for {have}, but this machine has drivers with a "
            f"device: {drivers} and CPU baselines {sorted(cpu_baselines()) or 'none known'}")
    def rank(e: dict) -> tuple:
        software = e["target"] == "vulkan" and not vulkan_gpu
        families = TARGETS[e["target"]].families
        family = families.index(e["kernels"]) if e.get("kernels") in families else 0
        return (software, TARGET_PREFERENCE.index(e["target"]), family,
                e["plan"].get("cpu") != "x86-64-v3")
    return min(found, key=rank)


def runnable(entries: list[dict], drivers: list[str]) -> list[dict]:
    """The manifest entries whose IREE driver has a device here (``drivers``) and, for the
    CPU, whose baseline this CPU executes (a module built for its host's own features,
    ``Module.save`` of a ``cpu="host"`` plan, only on that same CPU)."""
    cpus = cpu_baselines()

    def cpu_ok(e: dict) -> bool:
        if e["plan"].get("cpu") == "host":
            return e.get("cpu_id") == cpu_id()
        return e["plan"].get("cpu") in cpus

    return [e for e in entries if TARGETS[e["target"]].driver in drivers
            and (e["target"] != "cpu" or cpu_ok(e))]


def entry_plan(manifest: dict, entry: dict, name: str | None = None) -> Plan:
    """The plan of a manifest entry, validated as ``Plan.create`` validates (its target and
    family must match the entry's); ``name`` is the entry's field name in messages."""
    name = name or f"artifacts[{entry.get('file')!r}]"
    where = f"{manifest['_dir']}/{MANIFEST}"
    try:
        plan = Plan.from_dict(entry.get("plan"))
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as e:
        raise ArtifactError(f"{where}: {name}.plan: {str(e)[:300]}") from None
    if (plan.target, plan.kernels) != (entry.get("target"), entry.get("kernels")):
        raise ArtifactError(f"{where}: {name} says target={entry.get('target')!r}, "
                            f"kernels={entry.get('kernels')!r}, its plan {plan.target!r}, "
                            f"{plan.kernels!r}")
    return plan
