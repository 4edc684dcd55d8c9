"""Shared fixtures: fresh random inputs, and the Vulkan device the pipeline tests need."""

from __future__ import annotations

import os

import numpy as np
import pytest


@pytest.fixture
def rng() -> np.random.Generator:
    # unseeded on purpose: every run checks new inputs
    return np.random.default_rng()


def _vulkan_device_names() -> list[str]:
    try:
        import iree.runtime as rt

        return [d.get("name", "") for d in rt.get_driver("vulkan").query_available_devices()]
    except Exception:  # no runtime, no loader, no ICD: all mean "no Vulkan here"
        return []


@pytest.fixture(scope="session")
def vulkan() -> str:
    """Name of the Vulkan device; skips (fails in CI, IREESHT_REQUIRE_VULKAN=1) without one."""
    names = _vulkan_device_names()
    if not names:
        msg = ("no Vulkan device: install a driver (Debian: apt-get install mesa-vulkan-drivers "
               "gives lavapipe, the CPU one)")
        if os.environ.get("IREESHT_REQUIRE_VULKAN"):
            pytest.fail(msg)
        pytest.skip(msg)
    return names[0]
