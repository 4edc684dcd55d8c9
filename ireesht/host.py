"""This machine's CPU: what it is called and which CPU baselines it executes."""

from __future__ import annotations

import os
import platform
from pathlib import Path

# the portable CPU instruction sets the C kernels' objects are built for, best first
CPU_BASELINES = ("aarch64", "x86-64-v3", "x86-64-v2")


def cpuinfo() -> dict[str, str]:
    """The fields of the first processor in /proc/cpuinfo ({} where there is none)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return {}
    fields: dict[str, str] = {}
    for line in text.split("\n\n")[0].splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


def cpu_baselines() -> set[str]:
    """The CPU baselines (``CPU_BASELINES``) this machine can execute.

    x86-64-v3 needs AVX2, FMA, BMI1/2, F16C, LZCNT and MOVBE; v2 needs SSE4.2, SSSE3 and
    POPCNT. Loading a module built for features the CPU lacks would kill the process with
    SIGILL, so load() checks first.
    """
    machine = platform.machine().lower()
    if machine in ("aarch64", "arm64"):
        return {"aarch64"}
    if machine not in ("x86_64", "amd64"):
        return set()
    info = cpuinfo()
    if not info:  # not Linux: assume the widespread v2 baseline only
        return {"x86-64-v2"}
    flags = set(info.get("flags", "").split())
    found = set()
    if {"sse4_2", "ssse3", "popcnt"} <= flags:
        found.add("x86-64-v2")
        if {"avx2", "fma", "bmi1", "bmi2", "f16c", "abm", "movbe"} <= flags:
            found.add("x86-64-v3")
    return found


def cpu_name() -> str:
    """The CPU's model name and thread count (the ``local-task`` device has no name)."""
    model = cpuinfo().get("model name") or platform.processor() or platform.machine()
    return f"{model} ({os.cpu_count()} threads)"


def cpu_id() -> str:
    """The CPU's model and feature flags, for cache keys of modules built for this host."""
    info = cpuinfo()
    keep = ("model name", "flags", "Features", "CPU implementer", "CPU part")
    return "\n".join(f"{k}: {info[k]}" for k in keep if k in info) or (
        f"{platform.machine()} {platform.processor()}")


def best_baseline() -> str:
    """The best of ``CPU_BASELINES`` this machine executes: aarch64, x86-64-v3 (AVX2, FMA,
    BMI, ...) or x86-64-v2."""
    found = cpu_baselines()
    for base in CPU_BASELINES:
        if base in found:
            return base
    raise RuntimeError(f"target='cpu': no kernel objects for this {platform.machine()} CPU "
                       f"(built for {', '.join(CPU_BASELINES)})")


def baseline(cpu: str) -> str:
    """The baseline of a plan's ``cpu``: "host" resolves to this machine's."""
    return best_baseline() if cpu == "host" else cpu
