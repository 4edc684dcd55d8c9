#!/usr/bin/env python3
"""Regenerate ``kernels/wgsl/*.spv`` from ``kernels/wgsl/*.wgsl`` with naga (naga-wasm on node).

The generated SPIR-V is committed, so installing or running ireesht needs neither node
nor naga; this script is only for kernel authors and for the freshness test
(``tests/kernels/test_spv.py``).

Variants
    A source may contain placeholders ``{{KEY}}``. ``kernels/wgsl/variants.json`` maps a
    source stem to a list of substitution dicts, e.g.
    ``{"leg_synth": [{"NF": 1}, {"NF": 2}, {"NF": 4}]}``, giving ``leg_synth_nf1.spv``,
    ``leg_synth_nf2.spv``, ``leg_synth_nf4.spv`` (stem, then ``_`` + lower-case key + value
    for each key in order). A source without an entry gives ``stem.spv``. Textual
    substitution stands in for WGSL ``override``, which naga-wasm cannot specialise.

Post-processing
    * naga's zero-initialisation of ``var<workgroup>`` memory is deleted (see
      :func:`strip_workgroup_zero_init`: it costs lavapipe minutes of compile time per
      kernel); kernels must write workgroup memory before reading it. A source containing
      ``build_spv: keep-workgroup-zero-init`` keeps it.
    * naga-wasm always emits SPIR-V 1.0. Subgroup operations (GroupNonUniform*
      capabilities) need 1.3, so for those modules the version word is patched to 1.3;
      nothing else in the module depends on the version.
    * Every output is checked with ``spirv-val --target-env vulkan1.1`` when spirv-val is
      on PATH.

Usage::

    python tools/build_spv.py            # rewrite kernels/wgsl/*.spv
    python tools/build_spv.py --out DIR  # write elsewhere
    python tools/build_spv.py --check    # exit 1 and list stale files; writes nothing
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WGSL_DIR = REPO / "kernels" / "wgsl"
NAGA_DIR = REPO / "tools" / "naga"
VARIANTS_FILE = "variants.json"

SPIRV_MAGIC = 0x07230203
SPIRV_1_3 = 0x00010300
_OP_CAPABILITY = 17
_OP_CONSTANT_NULL = 46
_OP_VARIABLE = 59
_OP_STORE = 62
_SC_WORKGROUP = 4
# A kernel whose source contains this marker keeps naga's workgroup zero-initialisation.
KEEP_ZERO_INIT = "build_spv: keep-workgroup-zero-init"
# GroupNonUniform .. GroupNonUniformQuad (61..68), GroupNonUniformPartitionedNV (5297),
# GroupNonUniformRotateKHR (6026).
_SUBGROUP_CAPS = frozenset(range(61, 69)) | {5297, 6026}
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


class ToolchainMissing(RuntimeError):
    """node or tools/naga/node_modules is not available."""


class BuildError(RuntimeError):
    """naga or spirv-val rejected a kernel, or the variant table is inconsistent."""


def _format_value(value: object) -> str:
    if isinstance(value, bool):  # before int: bool is an int
        return "true" if value else "false"
    return str(value)


def variant_name(stem: str, subs: dict[str, object]) -> str:
    """Output stem for one variant: ``leg_synth`` + ``{"NF": 4}`` -> ``leg_synth_nf4``.

    A variant whose substitutions are not short values names itself with ``"name"``.
    """
    if "name" in subs:
        return str(subs["name"])
    return stem + "".join(f"_{k.lower()}{_format_value(v)}" for k, v in subs.items())


def substitute(text: str, subs: dict[str, object], origin: str = "<wgsl>") -> str:
    """Replace every ``{{KEY}}``; unknown keys and unused substitutions are errors."""
    used: set[str] = set()

    def repl(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in subs:
            raise BuildError(f"{origin}: placeholder {{{{{key}}}}} has no value in {VARIANTS_FILE}")
        used.add(key)
        return _format_value(subs[key])

    out = _PLACEHOLDER.sub(repl, text)
    unused = set(subs) - used - {"name"}
    if unused:
        raise BuildError(f"{origin}: {VARIANTS_FILE} sets {sorted(unused)} but the source never uses them")
    return out


_UNROLL = re.compile(r"/\*unroll\*/\s*for \(var (\w+) = 0u; \1 < (\w+); \1\+\+\) \{")


def unroll(text: str, subs: dict[str, object], origin: str = "<wgsl>") -> str:
    """Expand every ``/*unroll*/ for (var f = 0u; f < N; f++) { body }`` into N copies of
    ``{ body }`` with ``f`` replaced by ``0u``, ``1u``, ... (N a variant key, a literal, or a
    ``const N: u32 = ...u;`` of the source).

    naga guards every loop with an iteration counter, which keeps drivers from unrolling
    short loops; then per-thread arrays indexed by the loop variable live in local memory
    instead of registers. Unrolled here, every index is a constant.
    """
    while (m := _UNROLL.search(text)) is not None:
        var, bound = m.group(1), m.group(2)
        const = re.search(rf"const {bound}: u32 = (\d+)u;", text)
        try:
            count = int(subs[bound]) if bound in subs else int(const.group(1)) if const else int(bound.rstrip("u"))
        except ValueError:
            raise BuildError(f"{origin}: /*unroll*/ loop bound {bound!r} is not a variant key, "
                             "a `const NAME: u32 = Nu;` or a literal") from None
        depth, i = 1, m.end()
        while depth:
            if i >= len(text):
                raise BuildError(f"{origin}: unbalanced braces in an /*unroll*/ loop")
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[m.end() : i - 1]
        copies = [re.sub(rf"\b{var}\b", f"{k}u", body) for k in range(count)]
        text = text[: m.start()] + "{" + "}\n{".join(copies) + "}" + text[i:]
    return text


_INCLUDE = re.compile(r"^//! include (\S+)$", re.MULTILINE)


def expand_includes(text: str, src_dir: Path) -> str:
    """Replace each ``//! include NAME`` line by the file ``src_dir/NAME`` (``.wgsli``):
    code shared by the stages of one family lives once, WGSL having no includes."""
    def repl(m: re.Match[str]) -> str:
        path = src_dir / m.group(1)
        if not path.is_file():
            raise BuildError(f"include {m.group(1)!r}: no such file in {src_dir}")
        return path.read_text().rstrip("\n")

    return _INCLUDE.sub(repl, text)


def plan(src_dir: Path = WGSL_DIR) -> list[tuple[Path, str, str]]:
    """List ``(source, output stem, substituted WGSL text)`` for every output to build."""
    src_dir = Path(src_dir)
    vfile = src_dir / VARIANTS_FILE
    variants: dict[str, list[dict[str, object]]] = json.loads(vfile.read_text()) if vfile.exists() else {}
    sources = sorted(src_dir.glob("*.wgsl"))
    stems = {p.stem for p in sources}
    orphans = sorted(set(variants) - stems)
    if orphans:
        raise BuildError(f"{vfile}: entries without a .wgsl source: {orphans}")
    jobs: list[tuple[Path, str, str]] = []
    for src in sources:
        text = expand_includes(src.read_text(), src_dir)
        if src.stem in variants:
            vlist = variants[src.stem]
            if not isinstance(vlist, list) or not vlist:
                raise BuildError(f"{vfile}: '{src.stem}' must map to a non-empty list of dicts")
            for entry in vlist:
                if not isinstance(entry, dict):
                    raise BuildError(f"{vfile}: '{src.stem}' entries must be dicts, got {entry!r}")
                subs = {k: v for k, v in entry.items() if k != "name"}
                name = str(entry["name"]) if "name" in entry else variant_name(src.stem, subs)
                origin = f"{src.name} [{name}]"
                jobs.append((src, name, unroll(substitute(text, subs, origin), subs, origin)))
        else:
            if _PLACEHOLDER.search(text):
                raise BuildError(f"{src.name} has {{{{...}}}} placeholders but no entry in {VARIANTS_FILE}")
            jobs.append((src, src.stem, unroll(text, {}, src.name)))
    names = [name for _, name, _ in jobs]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        raise BuildError(f"two variants produce the same output name: {dups}")
    return jobs


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise ToolchainMissing("node is not on PATH; it is needed to run naga-wasm (tools/naga)")
    if not (NAGA_DIR / "node_modules" / "naga-wasm").is_dir():
        raise ToolchainMissing(
            f"{NAGA_DIR / 'node_modules'} is missing naga-wasm; run `npm ci --prefix tools/naga` "
            "from the repository root"
        )
    return node


def uses_subgroups(words: bytes) -> bool:
    """True if the SPIR-V module declares any GroupNonUniform* capability."""
    w = memoryview(words).cast("I")
    return any(op == _OP_CAPABILITY and w[i + 1] in _SUBGROUP_CAPS for i, _n, op in _instructions(words))


def _instructions(words: bytes) -> list[tuple[int, int, int]]:
    """``(offset in words, word count, opcode)`` of every instruction after the header."""
    w = memoryview(words).cast("I")
    if len(w) < 5 or w[0] != SPIRV_MAGIC:
        raise BuildError("not a little-endian SPIR-V module")
    out, i = [], 5
    while i < len(w):
        count, opcode = w[i] >> 16, w[i] & 0xFFFF
        if count == 0 or i + count > len(w):
            raise BuildError("corrupt SPIR-V: bad word count")
        out.append((i, count, opcode))
        i += count
    return out


def strip_workgroup_zero_init(words: bytes) -> bytes:
    """Delete naga's zero-initialisation of ``var<workgroup>`` memory.

    WGSL requires workgroup memory to start zeroed, and naga emits it as one
    ``OpStore %var %null`` of the whole variable by invocation 0, then a barrier. Mesa's
    lavapipe expands that store into one store per element and spends minutes of LLVM time
    on a 16 KB array; on GPUs it is a serial store of the whole array in every workgroup.
    Our kernels write workgroup memory before reading it, so the store is dropped (the
    then-empty branch and the barrier stay; both are harmless). A source containing
    ``KEEP_ZERO_INIT`` in a comment keeps it.
    """
    w = memoryview(words).cast("I")
    insts = _instructions(words)
    wg_vars = {w[i + 2] for i, n, op in insts if op == _OP_VARIABLE and w[i + 3] == _SC_WORKGROUP}
    nulls = {w[i + 2] for i, n, op in insts if op == _OP_CONSTANT_NULL}
    drop = {i for i, n, op in insts if op == _OP_STORE and w[i + 1] in wg_vars and w[i + 2] in nulls}
    if not drop:
        return words
    out = bytearray(words[:20])
    for i, n, _op in insts:
        if i not in drop:
            out += words[4 * i: 4 * (i + n)]
    return bytes(out)


def patch_version(words: bytes) -> bytes:
    """Raise the header version to 1.3 when subgroup capabilities need it (naga says 1.0)."""
    if not uses_subgroups(words):
        return words
    out = bytearray(words)
    out[4:8] = SPIRV_1_3.to_bytes(4, "little")
    return bytes(out)


def spirv_val(path: Path) -> None:
    """Run ``spirv-val --target-env vulkan1.1`` when it is installed; raise on failure."""
    exe = shutil.which("spirv-val")
    if exe is None:
        return
    r = subprocess.run([exe, "--target-env", "vulkan1.1", str(path)], capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildError(f"spirv-val rejected {path.name}:\n{r.stdout}{r.stderr}")


def build(out_dir: Path | str | None = None, src_dir: Path | str = WGSL_DIR) -> list[Path]:
    """Translate every kernel (and variant) in ``src_dir`` into ``out_dir`` (default: ``src_dir``).

    Returns the written ``.spv`` paths in a stable order. Raises :class:`ToolchainMissing`
    without node / naga-wasm, :class:`BuildError` when naga or spirv-val fails.
    """
    src_dir = Path(src_dir)
    out_dir = Path(out_dir) if out_dir is not None else src_dir
    jobs = plan(src_dir)
    if not jobs:
        return []
    node = _node()
    out_dir.mkdir(parents=True, exist_ok=True)
    outputs: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="ireesht-spv-") as tmp:
        args: list[str] = []
        for _src, name, text in jobs:
            wgsl = Path(tmp) / f"{name}.wgsl"
            wgsl.write_text(text)
            args += [str(wgsl), str(Path(tmp) / f"{name}.spv")]
        r = subprocess.run([node, str(NAGA_DIR / "wgsl2spv.mjs"), *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise BuildError(f"naga failed:\n{r.stderr}")
        for _src, name, text in jobs:
            words = (Path(tmp) / f"{name}.spv").read_bytes()
            if KEEP_ZERO_INIT not in text:
                words = strip_workgroup_zero_init(words)
            words = patch_version(words)
            dst = out_dir / f"{name}.spv"
            dst.write_bytes(words)
            spirv_val(dst)
            outputs.append(dst)
    return outputs


def stale(src_dir: Path | str = WGSL_DIR) -> list[str]:
    """Names of committed .spv files that differ from a fresh build, are missing, or have no source."""
    src_dir = Path(src_dir)
    with tempfile.TemporaryDirectory(prefix="ireesht-spv-check-") as tmp:
        fresh = {p.name: p.read_bytes() for p in build(tmp, src_dir)}
    shipped = {p.name: p.read_bytes() for p in src_dir.glob("*.spv")}
    bad = [f"{n} (missing)" for n in sorted(set(fresh) - set(shipped))]
    bad += [f"{n} (out of date)" for n in sorted(set(fresh) & set(shipped)) if fresh[n] != shipped[n]]
    bad += [f"{n} (no source)" for n in sorted(set(shipped) - set(fresh))]
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="rebuild into a temp dir; exit 1 listing stale files")
    ap.add_argument("--out", type=Path, default=None, help=f"output directory (default {WGSL_DIR})")
    ns = ap.parse_args(argv)
    try:
        if ns.check:
            bad = stale()
            for b in bad:
                print(f"stale: {b}")
            if bad:
                print("run: python tools/build_spv.py", file=sys.stderr)
                return 1
            print("all .spv files are up to date")
            return 0
        for p in build(ns.out):
            print(p)
    except (ToolchainMissing, BuildError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
