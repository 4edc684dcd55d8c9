"""Host-side numerics in numpy: grids and quadrature, coefficient layout, the Legendre and
Ishioka recurrence tables, the FFT plans' twiddles, and the
float64 reference that the tests trust. Needs neither IREE's compiler nor its runtime."""
