"""Shared setup of the Python tests: the package from this source tree (python/), the library from
SPINDRIFT_LIBRARY (ctest sets it to the build's libspindrift.so) or the build tree, paths of the
repository's examples, and the command-line tool for the comparisons with its images."""

import os
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "python"))

EXAMPLES = REPOSITORY / "examples"
CAMPFIRE = EXAMPLES / "effects" / "campfire.json"


@pytest.fixture
def campfire_path():
    return CAMPFIRE


@pytest.fixture
def cli():
    """The `spindrift` executable: SPINDRIFT_CLI, else the release build's."""
    path = Path(os.environ.get("SPINDRIFT_CLI", REPOSITORY / "build" / "bin" / "spindrift"))
    if not path.exists():
        pytest.fail(f"the spindrift tool is not at {path}: build it or set SPINDRIFT_CLI")
    return path


@pytest.fixture
def library():
    import spindrift

    with spindrift.Library() as lib:
        yield lib
