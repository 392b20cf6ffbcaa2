#!/usr/bin/env bash
# Install LocalStack (localstack-core, no Docker) into a venv that pytest-converge finds
# on its own: ~/.cache/pytest-converge/localstack-venv (override with CONVERGE_LOCALSTACK_VENV).
#
# Idempotent: a venv that already imports the pinned localstack-core is left alone.
# Needs only PyPI. localstack-core 2026.3.0 runs on the host only with Python >= 3.13
# (it declares >=3.10, but localstack/utils/tagging.py imports warnings.deprecated, new in
# 3.13, so on 3.12 the runtime finds no components and exits). The script looks for one
# (PYTHON=..., python3.13, python3.14, pyenv 3.13+) and fails clearly if there is none.
#
# Usage:  .ci/install-localstack.sh            # then: pytest --converge-backend localstack
#         PYTHON=/usr/bin/python3.12 .ci/install-localstack.sh
set -euo pipefail

LOCALSTACK_VERSION="2026.3.0"
# Pins measured to work with localstack-core 2026.3.0 on the host: newer cbor2,
# pyopenssl and cryptography releases break its imports or its TLS setup.
# [runtime]: the bare package lacks the server (rolo, hypercorn) and moto-ext.
PINS=("localstack-core[runtime]==${LOCALSTACK_VERSION}" "cbor2<6" "pyopenssl==25.1.0"
      "cryptography>=45,<46" "service-identity")

CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}"
VENV="${CONVERGE_LOCALSTACK_VENV:-$CACHE_ROOT/pytest-converge/localstack-venv}"

start=$(date +%s)

# True when "$1" runs and is Python >= 3.13 (pyenv shims exist on PATH but may fail to run).
is_new_enough() {
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 13) else 1)' >/dev/null 2>&1
}

find_python() {
    local candidate
    local candidates=()
    [[ -n "${PYTHON:-}" ]] && candidates+=("$PYTHON")
    candidates+=("$(command -v python3.13 || true)" "$(command -v python3.14 || true)")
    local pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
    if [[ -d "$pyenv_root/versions" ]]; then
        for candidate in "$pyenv_root"/versions/3.1[3-9]*/bin/python; do
            candidates+=("$candidate")
        done
    fi
    for candidate in "${candidates[@]}"; do
        [[ -n "$candidate" && -x "$candidate" ]] || continue
        if is_new_enough "$candidate"; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" - "$LOCALSTACK_VERSION" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
# Fails without the [runtime] extra or on a Python that is too old.
import localstack.aws.components  # noqa: F401
sys.exit(0 if version("localstack-core") == sys.argv[1] else 1)
EOF
then
    echo "localstack-core ${LOCALSTACK_VERSION} already installed in $VENV ($(( $(date +%s) - start ))s)"
    echo "interpreter: $VENV/bin/python"
    exit 0
fi

if ! PY="$(find_python)"; then
    echo "error: LocalStack on the host needs Python >= 3.13 and none was found." >&2
    echo "       Tried: \$PYTHON, python3.13, python3.14 and pyenv versions >= 3.13." >&2
    echo "       Install one (e.g. 'pyenv install 3.13') and re-run," >&2
    echo "       or pass PYTHON=/path/to/python3.13." >&2
    exit 2
fi

echo "using $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
mkdir -p "$(dirname "$VENV")"
# --clear: a half-built venv from an interrupted run must not be reused.
"$PY" -m venv --clear "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet "${PINS[@]}"
"$VENV/bin/python" -c 'import localstack.aws.components' || {
    echo "error: localstack-core installed but does not import; see the traceback above." >&2
    exit 3
}

echo "installed localstack-core ${LOCALSTACK_VERSION} in $VENV in $(( $(date +%s) - start ))s"
echo "interpreter: $VENV/bin/python (found automatically; or set CONVERGE_LOCALSTACK_PYTHON)"
