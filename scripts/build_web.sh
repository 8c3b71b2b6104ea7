#!/usr/bin/env bash
# Install the web page's front-end libraries from the npm registry and copy the built files into
# src/kgrag/server/static/vendor/ (committed, so `pip install` users never need npm).
# Regenerate with: bash scripts/build_web.sh
set -euo pipefail
cd "$(dirname "$0")/../src/kgrag/server/web"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  npm install --no-audit --no-fund
fi
vendor=../static/vendor
mkdir -p "$vendor"
cp node_modules/cytoscape/dist/cytoscape.min.js "$vendor/cytoscape.min.js"
cp node_modules/cytoscape/LICENSE "$vendor/cytoscape.LICENSE"
echo "copied cytoscape $(node -p 'require("./node_modules/cytoscape/package.json").version') into $vendor"
