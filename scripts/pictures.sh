#!/usr/bin/env bash
# The README's pictures (the Marketplace page), taken from the real product: the end-to-end tests that show each
# screen call picture(page, '<name>') (test/e2e/harness.ts) at the moment it is on screen, into test-results/pictures/;
# this runs those tests on the test build and copies the pictures into docs/images/. Run it after a visible change.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run package:test >/dev/null
vsix=$(ls dist/test-build/*.vsix | head -n1)
rm -rf test-results/pictures
# The tests that take a picture (grep, so a new picture's test is run without editing this list).
mapfile -t tests < <(grep -l "picture(page, '" test/e2e/*.e2e.ts | LC_ALL=C sort)
MCP_E2E_VSIX="$vsix" node --import tsx --test --test-concurrency=1 "${tests[@]}"
mkdir -p docs/images
cp test-results/pictures/*.png docs/images/
ls -l docs/images/
