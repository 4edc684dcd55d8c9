"""Code generation: the MLIR module of a resolved plan, from the kernel templates of its
variants, and its compilation with IREE's compiler (imported only when compiling)."""
