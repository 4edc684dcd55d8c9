"""Where the package's data directories are: installed from a wheel, or a source checkout."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def data_dir(package: str, source: str, pattern: str) -> Path:
    """The directory of data package ``package`` (e.g. ``ireesht.kernels.wgsl``) holding
    files matching ``pattern``, else ``<repo>/<source>`` in a source checkout.

    pyproject maps each data package to a source folder (``kernels/wgsl`` and so on). The
    spec's search locations are used rather than ``importlib.resources.files``: the data
    packages have no ``__init__.py``, and for such namespace packages ``files()`` returns a
    ``MultiplexedPath`` whose ``str()`` is not a path.
    """
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for loc in (spec.submodule_search_locations or ()) if spec else ():
        if any(Path(loc).glob(pattern)):
            return Path(loc)
    checkout = Path(__file__).resolve().parents[2] / source
    if any(checkout.glob(pattern)):
        return checkout
    raise FileNotFoundError(f"ireesht data not found: neither package {package} nor {checkout} "
                            f"holds {pattern} files")
