"""``device=``: a device by index, name or URI for compile and load, clear errors naming the
devices here, and modules on two devices running at once in one process."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import ireesht
from ireesht.numerics import reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.runtime.device import list_devices, open_device


def test_the_cpu_is_device_0_of_target_cpu():
    rows = [r for r in list_devices() if r["target"] == "cpu"]
    assert [(r["index"], r["uri"]) for r in rows] == [(0, "local-task")]
    assert open_device("cpu", 0)[1] == open_device("cpu", "0")[1] == rows[0]["name"]


def test_a_vulkan_device_by_index_name_part_and_uri(vulkan):
    row = next(r for r in list_devices() if r["target"] == "vulkan" and r["name"] == vulkan)
    by_index, name = open_device("vulkan", row["index"])
    assert name == vulkan
    assert open_device("vulkan", vulkan.split()[0].upper())[1] == vulkan  # a part, any case
    assert open_device("vulkan", row["uri"])[1] == vulkan
    assert open_device("vulkan", row["index"])[0] is by_index  # one IREE device per URI


def test_a_wrong_device_names_the_devices_here():
    name = open_device("cpu")[1]
    listing = r"0: '" + name.replace("(", r"\(").replace(")", r"\)") + r"' \(local-task\)"
    with pytest.raises(ValueError, match=r"device=1: target 'cpu' has 1 device\(s\) here, "
                       r"expected an index 0\.\.0: " + listing):
        open_device("cpu", 1)
    with pytest.raises(ValueError, match=r"device='no such gpu': names no device of target "
                       r"'cpu'; expected an index, a name or a URI of one of: " + listing):
        open_device("cpu", "no such gpu")
    with pytest.raises(TypeError, match=r"device=1\.0: expected None, a device index, name "
                       r"or IREE URI"):
        open_device("cpu", 1.0)
    with pytest.raises(TypeError, match=r"device=True"):
        open_device("cpu", True)


def test_compile_refuses_a_wrong_device_before_compiling(monkeypatch):
    from ireesht.codegen import module as codegen

    monkeypatch.setattr(codegen, "compile_plan", lambda *a: pytest.fail("compiled"))
    with pytest.raises(ValueError, match=r"device=-1: target 'cpu' has 1 device"):
        ireesht.compile(3, target="cpu", device=-1, use_cache=False)


def test_compile_and_load_on_a_named_device(vulkan, tmp_path):
    mod = ireesht.compile(5, target="vulkan", device=0)
    assert mod.info["device"] == vulkan
    mod.save(tmp_path / "m")
    assert ireesht.load(tmp_path / "m", device=vulkan).info["device"] == vulkan


def test_two_modules_on_two_devices_run_at_once(vulkan, rng):
    """The CPU target and lavapipe, each called from its own thread many times over: every
    result is its own input's, against the reference."""
    mods = [ireesht.compile(15, target="cpu", device=0),
            ireesht.compile(15, target="vulkan", device=vulkan)]
    p = mods[0].plan
    grid = p.make_grid()
    q = random_coefficients(rng, p.lmax, p.mmax, (8, 3))
    f_ref = reference.synth(q, p.lmax, p.mmax, grid)
    errors: list[float] = []
    barrier = threading.Barrier(len(mods))

    def work(mod):
        barrier.wait()
        for i in range(len(q)):
            errors.append(rel_l2(mod.synth(q[i]), f_ref[i]))

    threads = [threading.Thread(target=work, args=(m,)) for m in mods]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 2 * len(q)
    assert max(errors) < 1e-5  # float32: 2e-7 measured
