#!/usr/bin/env bash
# Install MiniStack into the venv pytest-converge looks for (and would otherwise provision
# itself on first use): <cache>/ministack/<version>, where <cache> is $CONVERGE_CACHE_DIR,
# else $XDG_CACHE_HOME/pytest-converge, else ~/.cache/pytest-converge.
#
# Its own venv: MiniStack pins botocore exactly, so it never shares the plugin's environment.
# Idempotent: a complete venv of the pinned version is left alone. Needs only PyPI.
#
# Usage:  .ci/install-ministack.sh            # then: pytest --converge-backend ministack
#         PYTHON=/usr/bin/python3.12 .ci/install-ministack.sh
set -euo pipefail

# Keep in step with pytest_converge/emulator/ministack.py (PINNED_VERSION, COMPLETE_MARK).
MINISTACK_VERSION="1.5.33"
COMPLETE_MARK=".converge-complete"

if [[ -n "${CONVERGE_CACHE_DIR:-}" ]]; then
  CACHE="$CONVERGE_CACHE_DIR"
else
  CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/pytest-converge"
fi
VENV="$CACHE/ministack/$MINISTACK_VERSION"
PY="${PYTHON:-python3}"
start=$(date +%s)

if [[ -f "$VENV/$COMPLETE_MARK" && -x "$VENV/bin/python" ]] \
   && "$VENV/bin/python" -c 'import ministack.app' >/dev/null 2>&1; then
  echo "ministack ${MINISTACK_VERSION} already installed in $VENV"
  exit 0
fi

mkdir -p "$(dirname "$VENV")"
# --clear: a half-built venv from an interrupted run must not be reused.
"$PY" -m venv --clear "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "ministack==${MINISTACK_VERSION}"
LOG_LEVEL=ERROR "$VENV/bin/python" -c 'import ministack.app' || {
  echo "error: ministack installed but does not import; see the traceback above." >&2
  exit 3
}
echo "ministack==${MINISTACK_VERSION}" > "$VENV/$COMPLETE_MARK"
echo "installed ministack ${MINISTACK_VERSION} in $VENV in $(( $(date +%s) - start ))s"
