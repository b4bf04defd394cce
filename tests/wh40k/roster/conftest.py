from pathlib import Path

import pytest

FILES = Path(__file__).resolve().parent / "files"


@pytest.fixture
def files() -> Path:
    return FILES
