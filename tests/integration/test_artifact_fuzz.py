"""Fuzzing ireesht.load: a saved artifact's manifest (its JSON values, sealed again with a
fresh digest or not, and its text) and module bytes mutated at random. Every case must raise
ireesht.ArtifactError or load and compute right (against the float64 reference): no other
exception, no crash (cases run in this process: a segfault kills pytest), no hang.

Module bytes are mutated with the manifest left as written: a module whose manifest was sealed
again over new bytes is a forgery, which checksums cannot catch (a module is code; the
README says to load only artifacts one trusts)."""

from __future__ import annotations

import copy
import json
import math
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

import ireesht
from ireesht import host
from ireesht.numerics import reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.runtime import artifacts

TOL = 2e-6  # float32 synthesis against the float64 reference (tests/checks.py)
DEEP = "__deep__"  # replaced by deeply nested brackets in the manifest's text


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    """A CPU artifact of lmax 6, its manifest, and coefficients with their reference field."""
    out = tmp_path_factory.mktemp("fuzz") / "sht6"
    ireesht.build(6, out, targets=("cpu",), cpu_baselines=(host.best_baseline(),))
    rng = np.random.default_rng()
    q = random_coefficients(rng, 6, 6, (2,))
    plan = ireesht.load(out).plan
    return out, json.loads((out / "manifest.json").read_text()), q, \
        reference.synth(q, 6, 6, plan.make_grid())


def _paths(node, prefix=()):
    """Every path (tuple of keys and indices) into a JSON value, the root included."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _random_value(rng: np.random.Generator, old):
    choices = [None, True, False, 0, -1, 1, 2**31, 2**63, 10**30, -(10**30), 0.5, 1e308,
               -0.0, math.nan, math.inf, "", "x", "../sht.vmfb", "/dev/zero", "a" * 10000,
               [], {}, [1, 2], {"name": "c"}, DEEP, "\u00e9\x00", "f" * 64]
    if isinstance(old, bool):
        choices += [not old]
    elif isinstance(old, int):
        choices += [old + 1, old - 1, old * 2, -old, float(old), str(old)]
    elif isinstance(old, float):
        choices += [old * 2, int(old) if math.isfinite(old) else 0]
    elif isinstance(old, str):
        choices += [old[:-1], old + "x", old.upper(), old[::-1], [old], {old: old}]
    elif isinstance(old, (list, dict)):
        choices += [list(old) * 2, list(old)[:-1], [old], {"x": old}]
    return choices[rng.integers(len(choices))]


def _mutate_json(rng: np.random.Generator, manifest: dict) -> dict:
    m = copy.deepcopy(manifest)
    for _ in range(int(rng.integers(1, 4))):
        paths = list(_paths(m))
        path = paths[rng.integers(len(paths))]
        if not path:
            return _random_value(rng, m)
        parent = m
        for key in path[:-1]:
            parent = parent[key]
        action = rng.integers(3)
        if action == 0:  # delete the key, or the list item
            del parent[path[-1]]
        elif action == 1:  # another value
            parent[path[-1]] = _random_value(rng, parent[path[-1]])
        elif isinstance(parent, dict):  # an unknown key next to it
            parent[f"extra{rng.integers(9)}"] = _random_value(rng, None)
        else:
            parent.insert(int(rng.integers(len(parent) + 1)), _random_value(rng, None))
    return m


def _write_json(path: Path, value, rng: np.random.Generator) -> None:
    text = json.dumps(value, indent=int(rng.integers(0, 3)))
    depth = int(rng.choice([50, 5000, 100_000]))
    (path / "manifest.json").write_text(text.replace(f'"{DEEP}"', "[" * depth + "]" * depth))


def _mutate(rng: np.random.Generator, d: Path, manifest: dict) -> str:
    """Mutate artifact directory ``d`` at random; returns what was done."""
    kind = rng.choice(["json", "json sealed", "text", "module"], p=[0.3, 0.35, 0.15, 0.2])
    if kind == "json":
        _write_json(d, _mutate_json(rng, manifest), rng)
    elif kind == "json sealed":  # a consistent digest: the checks of each field
        m = _mutate_json(rng, manifest)
        if isinstance(m, dict):
            try:
                m["digest"] = artifacts.manifest_digest(m)
            except (ValueError, TypeError, RecursionError):
                pass  # NaN or deep nesting: left unsealed
        _write_json(d, m, rng)
    elif kind == "text":
        data = bytearray((d / "manifest.json").read_bytes())
        how = rng.integers(3)
        if how == 0:
            data = data[: rng.integers(len(data))]
        elif how == 1:
            for i in rng.integers(0, len(data), rng.integers(1, 8)):
                data[i] = int(rng.integers(256))
        else:
            at = int(rng.integers(len(data)))
            data[at:at] = rng.integers(0, 256, rng.integers(1, 16), dtype=np.uint8).tobytes()
        (d / "manifest.json").write_bytes(bytes(data))
    else:
        module = d / manifest["artifacts"][0]["file"]
        data = bytearray(module.read_bytes())
        how = rng.integers(4)
        if how == 0:
            for i in rng.integers(0, len(data), rng.integers(1, 64)):
                data[i] ^= int(rng.integers(1, 256))
        elif how == 1:
            data = data[: rng.integers(len(data))]
        elif how == 2:
            data += rng.integers(0, 256, rng.integers(1, 4096), dtype=np.uint8).tobytes()
        else:
            data = bytearray()
        module.write_bytes(bytes(data))
    return str(kind)


def _fuzz(original, tmp_path: Path, cases: int) -> None:
    src, manifest, q, f_ref = original
    seed = int(np.random.SeedSequence().entropy % 2**63)  # fresh cases on every run
    rng = np.random.default_rng(seed)
    outcomes = {"refused": 0, "loaded": 0}
    for case in range(cases):
        d = tmp_path / f"c{case}"
        shutil.copytree(src, d)
        kind = _mutate(rng, d, manifest)
        where = f"seed {seed}, case {case} ({kind})"
        t0 = time.perf_counter()
        try:
            mod = ireesht.load(d)
        except ireesht.ArtifactError:
            outcomes["refused"] += 1
        except Exception as e:  # noqa: BLE001 - the failure this test looks for
            pytest.fail(f"{where}: {type(e).__name__}: {e}")
        else:
            outcomes["loaded"] += 1
            err = rel_l2(mod.synth(q), f_ref)
            assert err <= TOL, f"{where}: loaded, synthesis error {err:.2e}"
        assert time.perf_counter() - t0 < 10, f"{where}: took {time.perf_counter() - t0:.1f} s"
        shutil.rmtree(d)
    # most mutations are refused; a few touch nothing that matters (an unknown key sealed
    # again, another 3.13 compiler version) and load
    assert outcomes["refused"] > cases // 2, outcomes


def test_fuzz_artifacts(original, tmp_path):
    _fuzz(original, tmp_path, 100)


@pytest.mark.slow
def test_fuzz_artifacts_long(original, tmp_path):
    _fuzz(original, tmp_path, 1500)
