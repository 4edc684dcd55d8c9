// The four stage dispatches, shared by the WGSL and MLIR kernel families. Sections are
// cut at the `// stage:` lines and pasted into mlir/pipeline.mlir, whose functions define
// the SSA names used here (docs/design.md gives the operands: the i32 operands are
// the push constants, the tensors the bindings, the result the last binding; the F a stage
// makes is written in place into the operand %F_ws, mlir/pipeline.mlir). Each family
// fills in ${dispatch_<stage>} (the op and its callee) and ${clauses_<stage>} (what
// follows the types: hal.dispatch.extern's count/layout/objects, nothing for flow.dispatch).
// The Legendre synthesis writes %${leg_synth_out} into %${leg_synth_ws} (F and F_ws; the MLIR
// family chains two such dispatches where leg_synth_mma.mlir takes the whole groups of 16
// fields, ireesht/codegen/mlir/family.py parts).

// stage: op_leg_synth
    %${leg_synth_out} = ${dispatch_leg_synth}(%lmax, %mmax, %nlat, %npairs, %nlm, %nb,
                                         ${leg_synth_table_args}, %q, %${leg_synth_ws})
        : (i32, i32, i32, i32, i32, i32, ${leg_synth_table_types},
           tensor<?x${nlm}x2x${ft}>{%b}, tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> %${leg_synth_ws}{%b}
${clauses_leg_synth}
// stage: op_fft_synth
    %f = ${dispatch_fft_synth}(%nlat, %nphi, %mc, %nb, ${fft_synth_table_args}, %F)
        : (i32, i32, i32, i32, ${fft_synth_table_types}, tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> tensor<?x${nlat}x${nphi}x${ft}>{%b}
${clauses_fft_synth}
// stage: op_fft_analys
    %F = ${dispatch_fft_analys}(%nlat, %nphi, %mc, %nb, ${fft_analys_table_args}, %f, %F_ws)
        : (i32, i32, i32, i32, ${fft_analys_table_types}, tensor<?x${nlat}x${nphi}x${ft}>{%b},
           tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> %F_ws{%b}
${clauses_fft_analys}
// stage: op_leg_analys
    %q = ${dispatch_leg_analys}(%lmax, %mmax, %nlat, %npairs, %nlm, %nb,
                                         ${leg_analys_table_args}, %${leg_analys_in})
        : (i32, i32, i32, i32, i32, i32, ${leg_analys_table_types},
           tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> tensor<?x${nlm}x2x${ft}>{%b}
${clauses_leg_analys}
