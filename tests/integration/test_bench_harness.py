"""tools/bench.py's SHTns peer (``shtns_ms``) without a GPU: a stand-in for
tools/peers/shtns_bench.cu that reads its files as the program does (sizes from its arguments)
and saves what it read, so that the arguments and the file layouts the harness writes are
checked, and what the harness makes of the program's RESULT line."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from ireesht.numerics.reference import random_coefficients
from ireesht.plan import Plan

ROOT = Path(__file__).resolve().parents[2]

# the program's reading: QFILE nf x BATCH x nlm complex128 (nf = 2 for PREC 32v / 64v: S then
# T), FFILE BATCH x NLAT x NPHI float64 (scalar only, "-" for vectors); exits 3 on a short file
FAKE = """#!{python}
import json, os, sys
import numpy as np
a = sys.argv[1:]
lmax, mmax, nlat, nphi, batch = map(int, a[2:7])
prec, qf, ff = a[7], a[9], a[10]
nlm = (mmax + 1) * (lmax + 1) - mmax * (mmax + 1) // 2
nf = 2 if prec.endswith("v") else 1
q = np.fromfile(qf, np.complex128)
if q.size != nf * batch * nlm:
    sys.exit(3)
np.save(os.path.join(os.environ["FAKE_OUT"], "q.npy"), q.reshape(nf, batch, nlm))
if nf == 1:
    f = np.fromfile(ff, np.float64)
    if f.size != batch * nlat * nphi:
        sys.exit(3)
    np.save(os.path.join(os.environ["FAKE_OUT"], "f.npy"), f.reshape(batch, nlat, nphi))
json.dump(a, open(os.path.join(os.environ["FAKE_OUT"], "argv.json"), "w"))
print("RESULT " + json.dumps(dict(synth_enq_ms=0.5, analys_enq_ms=0.25, synth_wait_ms=0.75,
      analys_wait_ms=0.625, err_synth=None if nf == 2 else 1e-7, err_roundtrip=2e-7)))
"""


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("tools_bench", ROOT / "tools" / "bench.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def fake(tmp_path, monkeypatch):
    exe = tmp_path / "shtns_bench"
    exe.write_text(FAKE.format(python=sys.executable))
    exe.chmod(0o755)
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("FAKE_OUT", str(out))
    return str(exe), out


def test_shtns_vector_case_passes_s_then_t(bench, fake, rng):
    exe, out = fake
    p = Plan.create(31, target="cuda", transform="vector")  # kernels at 32, fields at 31
    batch = 3
    q = random_coefficients(rng, p.band_lmax, p.mmax, (batch, 2))  # the harness's (batch, S/T)
    r = bench.shtns_ms(p, batch, 7, {"q": q, "f": None, "f_is_reference": False}, exe)
    assert r == {"enqueued_ms": [0.5, 0.25], "waited_ms": [0.75, 0.625],
                 "error_roundtrip": 2e-7}
    argv = json.loads((out / "argv.json").read_text())
    assert argv[:9] == ["bench", "gauss", "31", "31", str(p.nlat), str(p.nphi), "3", "32v",
                        "native"]
    assert argv[10] == "-" and argv[11:] == ["7", "5", "7"]
    read = np.load(out / "q.npy")
    np.testing.assert_array_equal(read[0], q[:, 0])  # every field's S, then every T
    np.testing.assert_array_equal(read[1], q[:, 1])


def test_shtns_scalar_case_passes_q_and_reference(bench, fake, rng):
    exe, out = fake
    p = Plan.create(15, target="cuda", dtype="float64")
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f = rng.standard_normal((p.nlat, p.nphi))  # one reference field, checked for each
    r = bench.shtns_ms(p, 2, 4, {"q": q, "f": f, "f_is_reference": True}, exe)
    assert r["error_synth"] == 1e-7 and r["synth_checked_against"] == "reference"
    assert r["enqueued_ms"] == [0.5, 0.25]
    assert json.loads((out / "argv.json").read_text())[1:9] == [
        "gauss", "15", "15", str(p.nlat), str(p.nphi), "2", "64", "native"]
    np.testing.assert_array_equal(np.load(out / "q.npy")[0], q)
    np.testing.assert_array_equal(np.load(out / "f.npy"), np.broadcast_to(f, (2, *f.shape)))


def test_shtns_failures_are_reported(bench, fake, rng):
    exe, _ = fake
    p = Plan.create(31, target="cuda", transform="vector")
    q = random_coefficients(rng, p.band_lmax, p.mmax, (1, 2))
    # a file of the wrong size: the program exits without a RESULT line
    r = bench.shtns_ms(p, 1, 3, {"q": q[:, :1], "f": None, "f_is_reference": False}, exe)
    assert r["error"].startswith("rc 3")
    odd = Plan.create(30, nlat=31, nphi=64, grid="equiangular", target="cuda",
                      transform="vector")
    assert bench.shtns_ms(odd, 2, 3, {"q": None}, exe) == {
        "error": "SHTns batches only even nlat on the GPU"}


def test_table_shows_the_vector_ratio(bench, capsys):
    row = {"enqueued_ms": [1.0, 0.5], "waited_ms": [1.5, 1.0], "error_roundtrip": 3e-7,
           "shtns": {"enqueued_ms": [0.5, 1.0], "waited_ms": [1.0, 1.0],
                     "error_roundtrip": 2e-7}}
    bench.table({"results": {"l31_b1_vector/cuda:mlir": row}})
    line = capsys.readouterr().out.splitlines()[-1]
    assert "| 2.00 / 0.50 |" in line and "0.5000 / 1.0000" in line
