"""Saved modules: a directory of ``.vmfb`` files (one per target) and a ``manifest.json``.

Written by ``ireesht build`` / ``ireesht.build`` (several targets) and ``Module.save`` (one);
read by ``ireesht.load``, which needs only ``iree-base-runtime`` and numpy. Each file is
verified against the sha256 in the manifest before it is handed to IREE, and the IREE
release that compiled it must match the runtime's (VM bytecode is versioned per release).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from pathlib import Path

from ireesht import __version__
from ireesht.host import cpu_baselines, cpu_id
from ireesht.plan import Plan
from ireesht.registry import TARGETS

# The manifest's format; an artifact of another version is refused (rebuild it). 12: plans
# carry their resolved kernel variants (``Plan.as_dict``) and are validated on load.
MANIFEST_VERSION = 12
MANIFEST = "manifest.json"
# the order in which load() prefers artifacts when no target is asked for
TARGET_PREFERENCE = ("cuda", "vulkan", "metal", "cpu")
CONVENTIONS = {
    "normalization": "orthonormal on the unit sphere, Condon-Shortley phase",
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
    """A saved module that cannot be used here: corrupt, mismatched, or for another machine."""


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
        (out / f"{name}.vmfb").write_bytes(vmfb)
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
        "plan": {k: first[k] for k in ("lmax", "mmax", "grid", "nlat", "nphi", "dtype")},
        "conventions": CONVENTIONS,
        "artifacts": entries,
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    (out / "README.md").write_text(README.format(
        **manifest["plan"], targets=", ".join(e["file"] for e in entries),
        iree_minor=iree_release(iree_compiler), dirname=out.name, nlm=modules[0][0].nlm))
    return out


def read_manifest(path: str | os.PathLike) -> dict:
    """The manifest of a saved directory (or of the directory holding a ``.vmfb`` path)."""
    root = Path(path)
    manifest_path = root / MANIFEST if root.is_dir() else root.with_name(MANIFEST)
    try:
        manifest = json.loads(manifest_path.read_text())
    except FileNotFoundError:
        raise ArtifactError(f"path={str(path)!r}: no {MANIFEST} there (expected a directory "
                            f"written by `ireesht build` or Module.save)") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ArtifactError(f"{manifest_path}: not a valid manifest ({e})") from None
    version = manifest.get("manifest_version") if isinstance(manifest, dict) else None
    if not isinstance(version, int):
        raise ArtifactError(f"{manifest_path}: not an ireesht manifest (no manifest_version)")
    if version > MANIFEST_VERSION:
        raise ArtifactError(
            f"{manifest_path}: manifest_version={version} was written by ireesht "
            f"{manifest.get('ireesht_version')}; this ireesht {__version__} reads up to "
            f"{MANIFEST_VERSION}: upgrade ireesht")
    if version < MANIFEST_VERSION:
        raise ArtifactError(f"{manifest_path}: manifest_version={version} from an older "
                            f"ireesht; rebuild the artifacts with this one")
    manifest["_dir"] = str(manifest_path.parent)
    return manifest


def verified_bytes(manifest: dict, entry: dict, check_release: bool = True) -> bytes:
    """The ``.vmfb`` of one manifest entry, after checking its size, sha256 and (unless
    ``check_release`` is false) that the runtime is of the IREE release that compiled it."""
    path = Path(manifest["_dir"]) / entry["file"]
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ArtifactError(f"{path}: module file missing") from None
    if len(data) != entry.get("bytes", len(data)):
        raise ArtifactError(f"{path}: {len(data)} bytes, the manifest says {entry['bytes']} "
                            f"(truncated or replaced)")
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


def entry_plan(manifest: dict, entry: dict) -> Plan:
    """The plan of a manifest entry, validated as ``Plan.create`` validates (its target and
    family must match the entry's)."""
    try:
        plan = Plan.from_dict(entry.get("plan"))
    except (ValueError, TypeError) as e:
        raise ArtifactError(f"{entry.get('file')}: invalid plan in {manifest['_dir']}/"
                            f"{MANIFEST}: {e}") from None
    if (plan.target, plan.kernels) != (entry.get("target"), entry.get("kernels")):
        raise ArtifactError(f"{entry.get('file')}: the entry says target={entry.get('target')!r}, "
                            f"kernels={entry.get('kernels')!r}, its plan {plan.target!r}, "
                            f"{plan.kernels!r}")
    return plan
