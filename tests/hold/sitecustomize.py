"""Test hook of tests/test_recovery.py, loaded by every Python process of a test run whose PYTHONPATH names this folder:
an out-of-core job stops right before its first query until the test kills it there or lets it go.

Active only where DI_HOLD_JOBS names a folder: when a job's engine is set up, the job writes
``<folder>/<rule>@<wildcards>.held`` (its scratch folder's last two names; the file holds its pid) and waits until the
file is gone. Nothing of the workflow is changed: the hook wraps ``Engine.__init__`` as the module is imported.
"""

import os
import sys

_HOLD = os.environ.get("DI_HOLD_JOBS")


def _hold_after(init):
    def held_init(self, *args, **kwargs):
        import time
        from pathlib import Path

        init(self, *args, **kwargs)
        flag = Path(_HOLD) / f"{self.spill.parent.name}@{self.spill.name}.held"
        flag.write_text(str(os.getpid()))
        while flag.exists():
            time.sleep(0.02)

    return held_init


class _EngineHold:
    """A meta path finder that lets the real finders find the engine module and wraps its Engine once it has run."""

    def find_spec(self, name, path=None, target=None):
        if name != "directional_inference.engine":
            return None
        for finder in sys.meta_path:
            spec = None if finder is self else getattr(finder, "find_spec", lambda *a: None)(name, path, target)
            if spec is not None:
                break
        else:
            return None
        run_module = spec.loader.exec_module

        def exec_module(module):
            run_module(module)
            module.Engine.__init__ = _hold_after(module.Engine.__init__)

        spec.loader.exec_module = exec_module
        return spec


if _HOLD:
    sys.meta_path.insert(0, _EngineHold())
