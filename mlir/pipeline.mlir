// One transform plan: @synth (q -> F -> f) and @analys (f -> F -> q), each chaining a
// Legendre and a Fourier dispatch of one kernel family (docs/design.md).
// Filled in by ireesht/codegen/pipeline.py and codegen/module.py (string.Template placeholders). All sizes but
// the batch B are static, so IREE itself rejects a wrongly shaped table or field; B is
// the one dynamic dimension and a push constant.
// Tables are function arguments: the caller uploads them once and passes the resident
// device arrays on every call. F, between the two dispatches, is the workspace %F_ws (below).

${aliases}
#fft_layout = #hal.pipeline.layout<constants = 4, bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // twiddle
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // F or f
  #hal.pipeline.binding<storage_buffer>             // f or F (result)
]>
#leg_synth_layout = #hal.pipeline.layout<constants = 6, bindings = [
${leg_synth_bindings}
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // q
  #hal.pipeline.binding<storage_buffer>             // F (result)
]>
#leg_analys_layout = #hal.pipeline.layout<constants = 6, bindings = [
${leg_analys_bindings}
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // F
  #hal.pipeline.binding<storage_buffer>             // q (result)
]>

module @sht ${module_attrs} {
${executables}
  // F_ws: the intermediate F, written in place by the dispatch that makes it (its result is
  // tied to F_ws, mlir/ops.mlir), so that a call that passes it allocates and copies nothing.
  func.func private @synth_impl(${synth_table_params}, %${synth_arg}: tensor<?x${qnlm}x2x${ft}>,
      %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${nlat}x${nphi}x${ft}> {
    %c0 = arith.constant 0 : index
    %b = tensor.dim %F_ws, %c0 : tensor<?x${nlat}x${mc}x2x${ft}>
    %nb = arith.index_cast %b : index to i32
    %lmax = arith.constant ${lmax} : i32
    %mmax = arith.constant ${mmax} : i32
    %nlat = arith.constant ${nlat} : i32
    %npairs = arith.constant ${npairs} : i32
    %nlm = arith.constant ${nlm} : i32
    %nphi = arith.constant ${nphi} : i32
    %mc = arith.constant ${mc} : i32
${synth_nyquist_split}
${synth_scale}
${op_leg_synth}
${op_fft_synth}
${synth_nyquist_add}
    return %${synth_f} : tensor<?x${nlat}x${nphi}x${ft}>
  }

  func.func private @analys_impl(${analys_table_params}, %f: tensor<?x${nlat}x${nphi}x${ft}>,
      %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${qnlm}x2x${ft}> {
    %c0 = arith.constant 0 : index
    %b = tensor.dim %F_ws, %c0 : tensor<?x${nlat}x${mc}x2x${ft}>
    %nb = arith.index_cast %b : index to i32
    %lmax = arith.constant ${lmax} : i32
    %mmax = arith.constant ${mmax} : i32
    %nlat = arith.constant ${nlat} : i32
    %npairs = arith.constant ${npairs} : i32
    %nlm = arith.constant ${nlm} : i32
    %nphi = arith.constant ${nphi} : i32
    %mc = arith.constant ${mc} : i32
${op_fft_analys}
${op_theta_analys}
${op_leg_analys}
${analys_scale}
${analys_nyquist}
    return %${analys_result} : tensor<?x${qnlm}x2x${ft}>
  }

  // The exported functions. synth / analys allocate their result and F on every call and
  // return when it is done (IREE's synchronous ABI). synth_async / analys_async write them
  // into buffers the caller passes (the result as iree.abi.output, F in place), and every
  // other intermediate (the ops of scaling, the Nyquist order, the theta step, vector
  // plans) into %transients, storage the caller keeps (iree.abi.transients; its size for a
  // batch: the exported <name>_transients_size), so that IREE allocates nothing per call
  // (an allocation per call made the H100's enqueued calls wait for the ones before).
  // They take IREE's coarse-fences ABI: two more arguments, a fence to wait on before
  // starting and one signalled when done. They are util.func: IREE 3.13 drops
  // iree.abi.model from a func.func when it imports it.
  // The reflection attribute names the plan the module was compiled for
  // (Plan.fingerprint): runtime.device.Session refuses the module with any other plan.
  func.func @synth(${synth_table_params}, %q: tensor<?x${qnlm}x2x${ft}>) -> tensor<?x${nlat}x${nphi}x${ft}>
      attributes {iree.reflection = {ireesht.plan = "${plan_fingerprint}"}} {
    %c0 = arith.constant 0 : index
    %b = tensor.dim %q, %c0 : tensor<?x${qnlm}x2x${ft}>
    %F_ws = tensor.empty(%b) : tensor<?x${nlat}x${mc}x2x${ft}>
    %f = call @synth_impl(${synth_table_args}, %q, %F_ws)
        : (${synth_table_types}, tensor<?x${qnlm}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${nlat}x${nphi}x${ft}>
    return %f : tensor<?x${nlat}x${nphi}x${ft}>
  }

  util.func public @synth_async(${synth_table_params}, %q: tensor<?x${qnlm}x2x${ft}>,
      %f_out: tensor<?x${nlat}x${nphi}x${ft}> {iree.abi.output = 0 : index}, %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>,
      %transients: !hal.buffer {iree.abi.transients}) -> tensor<?x${nlat}x${nphi}x${ft}>
      attributes {iree.abi.model = "coarse-fences"} {
    %f = func.call @synth_impl(${synth_table_args}, %q, %F_ws)
        : (${synth_table_types}, tensor<?x${qnlm}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${nlat}x${nphi}x${ft}>
    util.return %f : tensor<?x${nlat}x${nphi}x${ft}>
  }

  func.func @analys(${analys_table_params}, %f: tensor<?x${nlat}x${nphi}x${ft}>) -> tensor<?x${qnlm}x2x${ft}> {
    %c0 = arith.constant 0 : index
    %b = tensor.dim %f, %c0 : tensor<?x${nlat}x${nphi}x${ft}>
    %F_ws = tensor.empty(%b) : tensor<?x${nlat}x${mc}x2x${ft}>
    %q = call @analys_impl(${analys_table_args}, %f, %F_ws)
        : (${analys_table_types}, tensor<?x${nlat}x${nphi}x${ft}>,
           tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${qnlm}x2x${ft}>
    return %q : tensor<?x${qnlm}x2x${ft}>
  }

  util.func public @analys_async(${analys_table_params}, %f: tensor<?x${nlat}x${nphi}x${ft}>,
      %q_out: tensor<?x${qnlm}x2x${ft}> {iree.abi.output = 0 : index}, %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>,
      %transients: !hal.buffer {iree.abi.transients}) -> tensor<?x${qnlm}x2x${ft}>
      attributes {iree.abi.model = "coarse-fences"} {
    %q = func.call @analys_impl(${analys_table_args}, %f, %F_ws)
        : (${analys_table_types}, tensor<?x${nlat}x${nphi}x${ft}>,
           tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${qnlm}x2x${ft}>
    util.return %q : tensor<?x${qnlm}x2x${ft}>
  }
${vector_functions}
}
