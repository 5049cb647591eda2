"""The OpenCL device the Lift tests run kernels on: PoCL's CPU device, where there is one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from lift.exploration.device import Device


@pytest.fixture(scope="module")
def device() -> Device:
    pytest.importorskip("pyopencl")
    devices = pytest.importorskip("lift.exploration.device")  # imports pyopencl
    try:
        return devices.open_device("cpu")  # type: ignore[no-any-return]
    except Exception as error:  # no OpenCL platform here
        pytest.skip(f"no OpenCL device: {error}")
