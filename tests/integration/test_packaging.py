"""The package works installed, outside the source tree: kernels and templates ship as
package data."""

from __future__ import annotations

import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(out), str(REPO)], check=True)
    return next(out.glob("ireesht-*.whl"))


def test_wheel_ships_kernels_and_templates(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {Path(n).name for n in names if n.startswith("ireesht/kernels/wgsl/")}
    assert {p.name for p in (REPO / "kernels" / "wgsl").glob("*.spv")} <= shipped
    assert "ireesht/mlir/pipeline.mlir" in names


def test_installed_wheel_transforms_outside_the_source_tree(wheel, tmp_path, vulkan):
    # a fresh venv that sees the already installed IREE and numpy, with ireesht from the wheel
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    py = env_dir / "bin" / "python"
    # system_site_packages reaches the base interpreter's packages only: when the tests run
    # in a venv (make test), its site-packages go on the path after the new venv's own, as
    # plain directories (their .pth files, such as the editable ireesht's, stay unread)
    purelib = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "test_parent.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run([py, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    script = (
        "import numpy as np, ireesht, ireesht.numerics.reference as r\n"
        "assert 'site-packages' in ireesht.__file__, ireesht.__file__\n"
        "m = ireesht.compile(12, use_cache=False, target='vulkan')\n"
        "q = np.random.default_rng().uniform(-1, 1, (2, ireesht.nlm(12, 12))) * (1 + 1j)\n"
        "q[:, :13] = q[:, :13].real\n"
        "f = m.synth(q)\n"
        "err = np.linalg.norm(f - r.synth(q, 12, 12, m.plan.make_grid())) / np.linalg.norm(f)\n"
        "assert err < 2e-6, err\n"
        "print('ok', err)\n"
    )
    out = subprocess.run([py, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")
