"""Loads VeRL's reference reward modules (gsm8k, math_reward, math_dapo) without importing the
rest of VeRL: they only need `re`. Installs the pinned wheel without dependencies when missing.

Used by tools/rewards_verl_fixtures.py and tools/rewards_bench.py.
"""

import importlib.util
import os
import subprocess
import sys

VERL_VERSION = "0.9.1"


def _package_dir():
    spec = importlib.util.find_spec("verl")
    if spec is None:
        subprocess.check_call(
            [sys.executable, "-m", "pip", "install", "-q", "--no-deps", f"verl=={VERL_VERSION}"]
        )
        importlib.invalidate_caches()
        spec = importlib.util.find_spec("verl")
    return spec.submodule_search_locations[0]


def load(name):
    """Returns VeRL's verl/utils/reward_score/<name>.py as a module."""
    path = os.path.join(_package_dir(), "utils", "reward_score", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"verl_reward_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
