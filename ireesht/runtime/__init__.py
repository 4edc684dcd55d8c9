"""IREE's runtime side: devices and sessions, the ``Module`` a plan runs as, the disk cache
and saved artifacts. Imports no code generator and not IREE's compiler, so saved modules load
where only ``iree-base-runtime`` and numpy are installed."""
