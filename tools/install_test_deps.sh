#!/usr/bin/env bash
# System pieces the tests use, installed only when missing:
#   mesa-vulkan-drivers  Mesa's CPU Vulkan driver (lavapipe), for the Vulkan tests without a GPU
#   spirv-tools          spirv-val, which checks every shipped .spv
#   tools/naga           naga-wasm (npm, pinned by its lock file), for the .spv freshness test
set -u
need=()
ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
command -v spirv-val >/dev/null 2>&1 || need+=(spirv-tools)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${need[*]} (apt-get)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null \
      || { echo "apt-get install ${need[*]} failed" >&2; exit 1; }
  else
    echo "missing: ${need[*]}. Install them (Debian/Ubuntu: sudo apt-get install ${need[*]});" \
         "without them the Vulkan / spirv-val tests are skipped." >&2
  fi
fi
if command -v npm >/dev/null 2>&1; then
  [ -d tools/naga/node_modules/naga-wasm ] || npm ci --silent --prefix tools/naga >/dev/null 2>&1 \
    || echo "npm ci --prefix tools/naga failed: the .spv freshness test will say why" >&2
else
  echo "node/npm not found: the .spv freshness test is skipped" >&2
fi
exit 0
