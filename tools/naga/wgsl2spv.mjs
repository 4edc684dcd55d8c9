// WGSL -> SPIR-V with naga (naga-wasm, pinned in package.json).
//
// usage: node wgsl2spv.mjs IN.wgsl OUT.spv [IN2.wgsl OUT2.spv ...]
//
// Several pairs per call, because loading the WASM module dominates the cost of a call.
// Output is naga's SPIR-V as-is (version 1.0). tools/build_spv.py does the rest
// (placeholder substitution before, version patch and spirv-val after).
import { readFileSync, writeFileSync } from "node:fs";
import { translate, nagaVersion, NagaError } from "naga-wasm";

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  console.error("usage: node wgsl2spv.mjs IN.wgsl OUT.spv [IN2.wgsl OUT2.spv ...]");
  process.exit(2);
}
let failed = false;
for (let a = 0; a < args.length; a += 2) {
  const [inp, out] = [args[a], args[a + 1]];
  try {
    const words = translate({ from: "wgsl", to: "spirv", source: readFileSync(inp, "utf8") });
    writeFileSync(out, Buffer.from(words.buffer, words.byteOffset, words.byteLength));
    console.log(`naga ${nagaVersion}: ${inp} -> ${out} (${words.length} words)`);
  } catch (e) {
    console.error(`${inp}:`);
    console.error(e instanceof NagaError ? e.formatted : e);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
