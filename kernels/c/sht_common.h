// Shared definitions of the CPU ("c") kernel family: scalar type, vector type, bit tricks.
// Objects are freestanding (embedded ELF linked by iree-compile): no libc, no libm, no
// globals, no thread-locals. Stage contract: kernels/c/README.md.
#ifndef SHT_COMMON_H
#define SHT_COMMON_H

#include <stddef.h>
#include <stdint.h>

// Type-generic over the scalar: float now, double with -DSHT_F64.
#ifdef SHT_F64
typedef double real;
typedef int64_t ireal;  // integer of the same width: lane masks and bit patterns
#define W 4             // lanes per vector: 32 bytes, one AVX2 register
#else
typedef float real;
typedef int32_t ireal;
#define W 8
#endif

// The element type of the data buffers (F, f) of the Fourier stages: real, or float with
// -DSHT_IO32 (float64 arithmetic on float32 buffers: the "float64" FFT of float32 plans).
#ifdef SHT_IO32
typedef float io_t;
#else
typedef real io_t;
#endif

typedef real vr __attribute__((ext_vector_type(W)));
typedef ireal vm __attribute__((ext_vector_type(W)));  // comparison results: 0 or -1 per lane

#define INLINE static inline __attribute__((always_inline))

INLINE vr vsplat(real a) { return (vr)a; }

// mask ? a : b, lane-wise, by bits (C has no vector ?: for these types)
INLINE vr vsel(vm mask, vr a, vr b) { return (vr)(((vm)a & mask) | ((vm)b & ~mask)); }

INLINE vr vabs(vr a) {
  vm bits = (vm)a;
  return (vr)(bits & (vm)(~((ireal)1 << (8 * sizeof(real) - 1))));
}

INLINE int vany(vm mask) {
  ireal r = 0;
  for (int i = 0; i < W; i++) r |= mask[i];
  return r != 0;
}

INLINE int vall(vm mask) {
  ireal r = -1;
  for (int i = 0; i < W; i++) r &= mask[i];
  return r != 0;
}

INLINE real vsum(vr a) {
  real s = 0;
  for (int i = 0; i < W; i++) s += a[i];
  return s;
}

// 2^n as a double, exact, for n in [-1022, 1023] (no libm ldexp)
INLINE double exp2i_d(int n) {
  union { uint64_t u; double d; } b;
  b.u = (uint64_t)(n + 1023) << 52;
  return b.d;
}

INLINE size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

#endif
