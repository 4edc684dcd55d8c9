"""The IREE runtime side: devices, loading a compiled module, calls, host <-> device copies.

Needs only ``iree-base-runtime`` and numpy (no compiler), so saved modules load anywhere.
"""

from __future__ import annotations

import os

import numpy as np

import iree.runtime as rt

# IREE driver used for each ireesht target
DRIVERS = {"vulkan": "vulkan"}


class ExecutableLoadError(RuntimeError):
    """The device could not create one of the module's kernels (a missing device feature)."""


def scan_drivers() -> dict[str, list[dict] | str]:
    """Every IREE HAL driver built into the runtime: its devices, or why it has none."""
    found: dict[str, list[dict] | str] = {}
    for name in rt.query_available_drivers():
        try:
            found[name] = rt.get_driver(name).query_available_devices()
        except (RuntimeError, ValueError) as e:  # no loader / no ICD / no CUDA library
            found[name] = str(e).strip().splitlines()[0]
    return found


def available_drivers() -> list[str]:
    """IREE HAL drivers that have at least one device on this machine."""
    return [name for name, devices in scan_drivers().items() if isinstance(devices, list) and devices]


def open_device(target: str):
    """The first device of the target's IREE driver, with a clear error when there is none.

    IREE runtime flags (e.g. ``--vulkan_dedicated_compute_queue=false``) can be given in
    ``$IREESHT_IREE_FLAGS``; they apply to devices created afterwards.
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
    return rt.get_device(driver), devices[0].get("name", driver)


class Session:
    """A loaded module on one device."""

    def __init__(self, vmfb: bytes, target: str):
        self.device, self.device_name = open_device(target)
        self.config = rt.Config(device=self.device)
        vm_module = rt.VmModule.copy_buffer(self.config.vm_instance, vmfb)
        try:
            self.context = rt.SystemContext(vm_modules=[vm_module], config=self.config)
        except RuntimeError as e:
            if "executable" in str(e) or "Pipelines" in str(e):
                raise ExecutableLoadError(str(e)) from e
            raise
        self.functions = self.context.modules[vm_module.name]

    def upload(self, array: np.ndarray) -> rt.DeviceArray:
        """Copy a host array to the device (once; pass the result on every call)."""
        return rt.asdevicearray(self.device, np.ascontiguousarray(array))

    def empty(self, shape: tuple[int, ...]) -> rt.DeviceArray:
        """A float32 device array whose contents are undefined (one upload when made)."""
        return rt.asdevicearray(self.device, np.empty(shape, np.float32))

    def call(self, name: str, *args) -> rt.DeviceArray:
        return self.functions[name](*args)

    def to_numpy(self, array: rt.DeviceArray) -> np.ndarray:
        """Copy a device array to a new host array (see :func:`to_numpy`)."""
        return to_numpy(self.device, array)


def to_numpy(device, array: rt.DeviceArray | rt.HalBufferView) -> np.ndarray:
    """Copy a device result to a new host array through a host-visible staging buffer.

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
        wait_semaphores=rt.HalFence.create_at(sem, 0),
        signal_semaphores=rt.HalFence.create_at(sem, 1),
    )
    rt.HalFence.create_at(sem, 1).wait()
    dtype = rt.HalElementType.map_to_dtype(view.element_type)
    return np.array(staging.map().asarray(tuple(view.shape), dtype))  # copy out of the mapping


def is_device_array(value) -> bool:
    return isinstance(value, rt.DeviceArray)


def check_device_array(
    name: str, array, trailing: tuple[int, ...], batch: int | None = None
) -> None:
    """Device inputs are not copied to the host, so only shape and dtype are checked."""
    if not is_device_array(array):
        raise ValueError(f"{name}: {type(array).__name__}, expected an iree.runtime.DeviceArray")
    shape = tuple(array.shape)
    lead = "B" if batch is None else str(batch)
    if (len(shape) != len(trailing) + 1 or shape[1:] != trailing or array.dtype != np.float32
            or (batch is not None and shape[0] != batch)):
        raise ValueError(
            f"{name}: device array {shape} {array.dtype}, expected ({lead}, "
            + ", ".join(map(str, trailing)) + ") float32"
        )
