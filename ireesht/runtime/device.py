"""The IREE runtime side: devices, loading a compiled module, calls, host <-> device copies.

Needs only ``iree-base-runtime`` and numpy (no compiler), so saved modules load anywhere.
"""

from __future__ import annotations

import os
import threading

import numpy as np

import iree.runtime as rt

from ireesht import host
from ireesht.registry import TARGETS
from ireesht.runtime.artifacts import ArtifactError

# IREE driver used for each ireesht target
DRIVERS = {name: t.driver for name, t in TARGETS.items()}


class ExecutableLoadError(RuntimeError):
    """The device could not create one of the module's kernels (a missing device feature)."""


class DeviceError(RuntimeError):
    """The device failed an operation of a module: lost, out of memory, a kernel fault
    (``ireesht.DeviceError``). The message names the device and target; ``usable`` says
    whether the module can still be called (after a failed allocation or upload it can;
    after a failed call or wait it cannot: load or compile it again)."""

    def __init__(self, message: str, device: str, target: str, usable: bool):
        super().__init__(message)
        self.device, self.target, self.usable = device, target, usable


# what IREE's Python runtime raises for a failure of the device or the runtime
IREE_ERRORS = (RuntimeError, ValueError)


def scan_drivers() -> dict[str, list[dict] | str]:
    """Every IREE HAL driver built into the runtime: its devices, or why it has none."""
    found: dict[str, list[dict] | str] = {}
    for name in rt.query_available_drivers():
        try:
            found[name] = rt.get_driver(name).query_available_devices()
        except (RuntimeError, ValueError) as e:  # no loader / no ICD / no CUDA library
            found[name] = str(e).strip().splitlines()[0]
    return found


def describe_device(driver: str, device: dict) -> dict[str, str]:
    """What a device supports that the kernels care about: fp64 and subgroup arithmetic."""
    if driver == "vulkan":
        dump = rt.get_driver(driver).dump_device_info(device["device_id"])
        fields = dict(line.split(": ", 1) for line in dump.splitlines() if ": " in line)
        sub = dict(kv.split("=", 1) for kv in fields.get("subgroup", "").split() if "=" in kv)
        ops = int(sub.get("operations", "0"), 16)
        return {"type": fields.get("type", "?"),
                "subgroup arithmetic": f"yes (size {sub.get('size')})" if ops & 0x8 else "no",
                "fp64": "not reported by IREE (ireesht check tries it)"}
    if driver == "cuda":
        return {"fp64": "yes", "subgroup arithmetic": "yes (warp 32)"}
    if driver == "metal":
        return {"fp64": "no", "subgroup arithmetic": "yes (SIMD-group 32)"}
    if driver in ("local-task", "local-sync"):
        return {"fp64": "yes", "cpu baselines": ",".join(sorted(host.cpu_baselines())) or "?"}
    return {}


def available_drivers() -> list[str]:
    """IREE HAL drivers that have at least one device on this machine."""
    return [name for name, devices in scan_drivers().items() if isinstance(devices, list) and devices]


SOFTWARE_DEVICES = ("llvmpipe", "lavapipe", "swiftshader")


def is_software(name: str) -> bool:
    """Whether a Vulkan device is a CPU emulation (Mesa's lavapipe, SwiftShader)."""
    return any(s in name.lower() for s in SOFTWARE_DEVICES)


def auto_target(found: dict | None = None) -> str:
    """The target ``target="auto"`` picks: CUDA if a CUDA GPU is present, else a Vulkan
    device that is a real GPU, else Metal, else the CPU (lavapipe is slower than the CPU
    target, BENCHMARKS.md)."""
    found = scan_drivers() if found is None else found
    if _devices(found, "cuda"):
        return "cuda"
    if has_vulkan_gpu(found):
        return "vulkan"
    if _devices(found, "metal"):
        return "metal"
    return "cpu"


def has_vulkan_gpu(found: dict) -> bool:
    """Whether ``scan_drivers()`` found a Vulkan device that is not a CPU emulation."""
    return any(not is_software(d.get("name", "")) for d in _devices(found, "vulkan"))


def _devices(found: dict, driver: str) -> list[dict]:
    devices = found.get(driver)
    return devices if isinstance(devices, list) else []


def device_uri(driver: str, device: dict) -> str:
    """The IREE URI of one device of ``query_available_devices()``: by its path (a UUID for
    CUDA and Vulkan); the driver's name where devices have no path (the CPU's local-task)."""
    return f"{driver}://{device['path']}" if device.get("path") else driver


def list_devices(found: dict | None = None) -> list[dict]:
    """Every device of each ireesht target on this machine, in IREE's order: ``target``,
    ``index`` (what ``device=index`` picks), ``name``, ``uri`` and ``driver``."""
    found = scan_drivers() if found is None else found
    return [{"target": target, "index": i, "uri": device_uri(driver, d), "driver": driver,
             "name": host.cpu_name() if driver == "local-task" else d.get("name") or driver}
            for target, driver in DRIVERS.items()
            for i, d in enumerate(_devices(found, driver))]


def open_device(target: str, device: int | str | None = None):
    """A device of the target's IREE driver, with a clear error when there is none.

    ``device``: None (the first device, a real GPU before a software Vulkan driver), an
    index into the target's devices (``ireesht devices`` lists them; under
    ``CUDA_VISIBLE_DEVICES``, as dask_cuda sets it per worker, index 0 is the first visible
    GPU), a device's name or path (or a unique part of its name), or an IREE device URI
    (``"vulkan://<path>"``). IREE runtime flags (e.g.
    ``--vulkan_dedicated_compute_queue=false``) can be given in ``$IREESHT_IREE_FLAGS``;
    they apply to devices created afterwards. Modules on one device share it (IREE caches
    a device per URI). Returns ``(device, name)``.
    """
    driver = DRIVERS[target]
    flags = os.environ.get("IREESHT_IREE_FLAGS", "").split()
    if flags:
        rt.flags.parse_flags(*flags)
    try:
        devices = rt.get_driver(driver).query_available_devices()
    except (RuntimeError, ValueError) as e:  # no loader / no ICD / driver not built in
        devices, why = [], str(e)
    else:
        why = "no device found"
    if not devices:
        raise RuntimeError(
            f"target={target!r}: IREE's {driver!r} driver has no device ({why.strip()}); "
            f"drivers with a device here: {available_drivers()}"
            + ("; on Debian, `apt-get install mesa-vulkan-drivers` gives a CPU Vulkan driver"
               if driver == "vulkan" else "")
        )
    rows = [r for r in list_devices({driver: devices}) if r["target"] == target]
    if isinstance(device, str) and "://" in device:
        if not device.startswith(driver + "://"):
            raise ValueError(f"device={device!r}: expected an IREE URI of the {driver!r} "
                             f"driver, like {driver}://0")
        name = next((r["name"] for r in rows if r["uri"] != driver and r["uri"] == device),
                    device)
        try:
            return rt.get_device(device), name
        except (RuntimeError, ValueError) as e:
            raise ValueError(f"device={device!r}: {str(e).strip().splitlines()[0]}; "
                             f"devices here: {_listing(rows)}") from None
    if device is None:
        best = min(range(len(rows)), key=lambda i: is_software(rows[i]["name"]))
    else:
        best = _device_index(target, device, rows, devices)
    # the first device by the driver's name, as before device= existed: one IREE device
    # object (cached per URI) for both spellings
    return rt.get_device(rows[best]["uri"] if best else driver), rows[best]["name"]


def _device_index(target: str, device, rows: list[dict], devices: list[dict]) -> int:
    """The index of the device that ``device`` (an index, a name, a path or a unique part
    of a name) names among the target's ``rows``; ValueError naming them otherwise."""
    if isinstance(device, bool) or not isinstance(device, (int, np.integer, str)):
        raise TypeError(f"device={device!r}: expected None, a device index, name or IREE "
                        f"URI; devices of target {target!r} here: {_listing(rows)}")
    if isinstance(device, str) and device.strip().isdigit():
        device = int(device)
    if not isinstance(device, str):
        if 0 <= device < len(rows):
            return int(device)
        raise ValueError(f"device={device!r}: target {target!r} has {len(rows)} device(s) "
                         f"here, expected an index 0..{len(rows) - 1}: {_listing(rows)}")
    exact = [i for i, (r, d) in enumerate(zip(rows, devices))
             if device in (r["name"], d.get("name"), d.get("path"))]
    part = [i for i, r in enumerate(rows) if device.lower() in r["name"].lower()]
    found = exact or part
    if len(found) == 1:
        return found[0]
    raise ValueError(f"device={device!r}: " + ("names several" if found else "names no")
                     + f" device of target {target!r}; expected an index, a name or a URI "
                     f"of one of: {_listing(rows)}")


def _listing(rows: list[dict]) -> str:
    return "; ".join(f"{r['index']}: {r['name']!r} ({r['uri']})" for r in rows)


# Targets whose enqueued calls run in the order they were submitted without waiting on each
# other: IREE's CUDA driver hands every queue submission of a device whose waits are met, in
# the order made, to one worker thread that issues them onto one CUDA stream, and every
# ``*_async`` function submits a single command buffer (tests/integration/test_transients.py
# checks it). A call that waits on the previous call's timeline value instead costs up to
# 60 us more host time (H100; BENCHMARKS.md, "Where an enqueued call goes"). Vulkan queues and
# the CPU's task system run submissions concurrently: there each call waits for the one
# before it.
STREAM_ORDERED = frozenset({"cuda"})


class Session:
    """A loaded module on one device; its methods may be called from any number of threads.

    Every invocation, wait and device-to-host copy holds ``lock``: IREE's VM context is not
    safe to invoke from several threads at once, and the timeline below (the order of
    enqueued calls) is a counter that two threads would both advance. ``Module`` holds the
    same (re-entrant) lock around a call and the buffers it keeps between calls. The device
    runs one module's calls one after another anyway, so the lock costs little; the host's
    checks, conversions and uploads run outside it.

    ``fingerprint``: the plan's (``Plan.fingerprint``); the module must carry the same in
    its reflection, else ArtifactError (a module used with another plan than its own would
    give wrong numbers). IREE's errors become ``DeviceError`` naming the device.
    """

    def __init__(self, vmfb: bytes, target: str, device: int | str | None = None,
                 fingerprint: str | None = None):
        self.target = target
        self.device, self.device_name = open_device(target, device)
        self.config = rt.Config(device=self.device)
        vm_module = rt.VmModule.copy_buffer(self.config.vm_instance, vmfb)
        if fingerprint is not None:
            synth = vm_module.lookup_function("synth")
            found = (synth.reflection or {}).get("ireesht.plan") if synth is not None else None
            if found != fingerprint:
                raise ArtifactError(f"the module was compiled for the plan with fingerprint "
                                    f"{found}, not for this plan ({fingerprint}): the plan or "
                                    f"the module was replaced")
        try:
            self.context = rt.SystemContext(vm_modules=[vm_module], config=self.config)
        except RuntimeError as e:
            if "executable" in str(e) or "Pipelines" in str(e):
                raise ExecutableLoadError(str(e)) from e
            raise
        self.functions = self.context.modules[vm_module.name]
        self._vm_module = vm_module
        self._invokers: dict[str, object] = {}  # looking a function up costs ~5 us per call
        # Calls of coarse-fences functions (enqueue) run in the order they were enqueued:
        # call k signals value k + 1 of this timeline, and waits for value k unless the
        # device's own order already keeps them in line (STREAM_ORDERED).
        self._timeline = self.device.create_semaphore(0)
        self._wait_for_previous = target not in STREAM_ORDERED
        self._enqueued = 0
        self.lock = threading.RLock()
        self.failed: str | None = None  # why the module is unusable, after a device failure

    # --- device failures -------------------------------------------------------------
    def _fail(self, what: str, error: Exception, usable: bool):
        """Raise DeviceError for IREE's ``error`` during ``what``; unless ``usable``, the
        session is unusable from now on (its timeline may never be reached)."""
        detail = (str(error).strip().splitlines() or [type(error).__name__])[0][:300]
        message = (f"device {self.device_name!r} (target {self.target!r}) failed in {what}: "
                   f"{detail}")
        if not usable:
            self.failed = message
            message += "; this module is no longer usable: load or compile it again"
        raise DeviceError(message, self.device_name, self.target, usable) from error

    def check_usable(self) -> None:
        if self.failed is not None:
            raise DeviceError(f"this module is unusable after an earlier failure: "
                              f"{self.failed}", self.device_name, self.target, False)

    # --- memory --------------------------------------------------------------------
    def upload(self, array: np.ndarray) -> rt.DeviceArray:
        """Copy a host array to the device (once; pass the result on every call)."""
        array = np.ascontiguousarray(array)
        if array.dtype.kind not in "biufc":
            raise ValueError(f"array: dtype {array.dtype}, expected numbers")
        self.check_usable()
        try:
            return rt.asdevicearray(self.device, array)
        except IREE_ERRORS as e:
            self._fail(f"an upload of {array.nbytes} bytes", e, usable=True)

    def empty(self, shape: tuple[int, ...], dtype=np.float32) -> rt.DeviceArray:
        """A device array whose contents are undefined (one upload when made)."""
        return self.upload(np.empty(shape, dtype))

    def transients(self, name: str, *args: rt.DeviceArray) -> rt.HalBuffer:
        """Device storage for the intermediates of a call of coarse-fences function ``name``
        on ``args`` (its ``iree.abi.transients`` argument, mlir/pipeline.mlir), of the size
        the module's ``<name>_transients_size`` gives for them (at least 256 bytes: a
        function with no intermediate takes a buffer too)."""
        with self.lock:
            self.check_usable()
            size = 0
            query = self._vm_module.lookup_function(f"{name}_transients_size")
            try:
                if query is not None:
                    placeholder = args[-1]._buffer_view.get_buffer()  # never read
                    arg_list = self._arg_list(args, placeholder)
                    results = rt.VmVariantList(1)
                    self.context.vm_context.invoke(query, arg_list, results)
                    size = int(results.get_variant(0))
                return self.device.allocator.allocate_buffer(
                    memory_type=rt.MemoryType.DEVICE_LOCAL,
                    allowed_usage=rt.BufferUsage.DEFAULT, allocation_size=max(size, 256))
            except IREE_ERRORS as e:
                self._fail(f"the intermediates of {name} ({size} bytes)", e, usable=True)

    # --- calls ---------------------------------------------------------------------
    def call(self, name: str, *args) -> rt.DeviceArray:
        """Call a function of IREE's synchronous ABI, after every enqueued call is done
        (its arguments may be their results); returns its results."""
        with self.lock:
            self.synchronize()
            fn = self._invokers.get(name)
            if fn is None:
                fn = self._invokers[name] = self.functions[name]
            try:
                return self._invoke_sync(fn, args)
            except IREE_ERRORS as e:
                self._fail(name, e, usable=False)

    def _invoke_sync(self, fn, args):
        return fn(*args)

    def enqueue(self, name: str, *args: rt.DeviceArray, transients: rt.HalBuffer) -> None:
        """Enqueue a call of a coarse-fences function (``iree.abi.model = "coarse-fences"``
        in mlir/pipeline.mlir) on device arrays ``args`` and storage ``transients``
        (``Session.transients``) and return at once. It starts once every call enqueued
        before it is done; its results (written into buffers among ``args``: the functions
        return nothing else that is needed) are ready when ``synchronize()`` returns."""
        with self.lock:
            self.check_usable()
            fn = self._invokers.get(name)
            if fn is None:
                fn = self._invokers[name] = self._vm_module.lookup_function(name)
            arg_list = self._arg_list(args, transients)
            try:
                self._invoke(fn, arg_list)
            except IREE_ERRORS as e:
                self._fail(name, e, usable=False)
            self._enqueued += 1

    def _arg_list(self, args, transients: rt.HalBuffer) -> rt.VmVariantList:
        """A coarse-fences call's arguments: ``args``, ``transients``, and the fences of the
        call's place on the timeline (it waits for the call before it, or for nothing on a
        STREAM_ORDERED target)."""
        arg_list = rt.VmVariantList(len(args) + 3)
        for a in args:
            arg_list.push_ref(a._buffer_view)
        arg_list.push_ref(transients)
        arg_list.push_ref(rt.HalFence.create_at(self._timeline, self._enqueued)
                          if self._wait_for_previous else rt.HalFence(0))
        arg_list.push_ref(rt.HalFence.create_at(self._timeline, self._enqueued + 1))
        return arg_list

    def _invoke(self, fn, arg_list) -> None:
        self.context.vm_context.invoke(fn, arg_list, rt.VmVariantList(2))

    def synchronize(self) -> None:
        """Wait until every enqueued call is done; raises DeviceError if one failed."""
        with self.lock:
            self.check_usable()
            try:
                rt.HalFence.create_at(self._timeline, self._enqueued).wait()
            except IREE_ERRORS as e:
                self._fail("a wait for its calls", e, usable=False)

    def to_numpy(self, array: rt.DeviceArray) -> np.ndarray:
        """Copy a device array to a new host array once every enqueued call is done (see
        :func:`to_numpy`)."""
        with self.lock:
            self.check_usable()
            try:
                return to_numpy(self.device, array,
                                rt.HalFence.create_at(self._timeline, self._enqueued))
            except IREE_ERRORS as e:
                self._fail("a copy to the host", e, usable=False)


def to_numpy(device, array: rt.DeviceArray | rt.HalBufferView,
             after: rt.HalFence | None = None) -> np.ndarray:
    """Copy a device result to a new host array through a host-visible staging buffer,
    once fence ``after`` is reached (at once without one).

    ``DeviceArray.to_host()`` / ``np.asarray`` fail on IREE 3.13's Vulkan driver: they
    import a fresh numpy allocation, and Vulkan imports only 4096-byte aligned host memory.
    A queue copy into a mappable buffer works on every driver.
    """
    view = array._buffer_view if isinstance(array, rt.DeviceArray) else array
    src = view.get_buffer()
    staging = device.allocator.allocate_buffer(
        memory_type=int(rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE),
        allowed_usage=int(rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING_SCOPED),
        allocation_size=src.byte_length(),
    )
    sem = device.create_semaphore(0)
    device.queue_copy(
        src, staging,
        wait_semaphores=rt.HalFence.create_at(sem, 0) if after is None else after,
        signal_semaphores=rt.HalFence.create_at(sem, 1),
    )
    rt.HalFence.create_at(sem, 1).wait()
    dtype = rt.HalElementType.map_to_dtype(view.element_type)
    return np.array(staging.map().asarray(tuple(view.shape), dtype))  # copy out of the mapping


def is_device_array(value) -> bool:
    return isinstance(value, rt.DeviceArray)


def check_device_array(
    name: str, array, trailing: tuple[int, ...], dtype=np.float32, batch: int | None = None
) -> int:
    """Device inputs are not copied to the host, so only shape and dtype are checked.
    Returns the leading (batch) dimension."""
    if not is_device_array(array):
        raise ValueError(f"{name}: {type(array).__name__}, expected an iree.runtime.DeviceArray")
    # from the buffer view: DeviceArray.shape goes through numpy's function dispatch (1.5 us
    # against 0.2, on every call of the device-array path)
    shape = tuple(array._buffer_view.shape)
    lead = "B" if batch is None else str(batch)
    if (len(shape) != len(trailing) + 1 or shape[1:] != trailing or array.dtype != dtype
            or (batch is not None and shape[0] != batch)):
        raise ValueError(
            f"{name}: device array {shape} {array.dtype}, expected ({lead}, "
            + ", ".join(map(str, trailing)) + f") {np.dtype(dtype).name}"
        )
    return shape[0]
