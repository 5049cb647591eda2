"""A host access whose bytes no device copy holds returns without taking the runtime's lock,
from the entries' spans published at each unlock (runtime/idiom_resident.c). Checked with
the runtime alone: arrays scaled on the device and kept there, then host accesses of other
bytes (nothing comes back), of each array's bytes (its results come back, the others
stay), with fewer entries than the published spans hold and with more."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from mappers.runtime.build import shared_runtime
from tests.mappers.residency.test_residency import RUNTIME_SCRIPT

LOOKUP_SCRIPT = RUNTIME_SCRIPT.split("if sys.argv[2]")[0] + textwrap.dedent(
    """
    lib.idiom_residency_on()
    arrays = int(sys.argv[2])
    ins = [np.arange(1.0, 513.0) + k for k in range(arrays)]
    outs = [np.full(512, -1.0) for _ in range(arrays)]
    for x, y in zip(ins, outs):
        assert run(SCALE, b"scale", 512, buf(0, x, 1), buf(2, y, 1)) == 0
    held = lib.idiom_device_copies()
    elsewhere = np.zeros(4096)  # bytes no launch was given
    for i in range(0, 4096, 8):
        lib.idiom_host_access_at(ctypes.c_void_p(elsewhere.ctypes.data + 8 * i),
                                 ctypes.c_int64(64))
    untouched = lib.idiom_device_copies() == held and bool((outs[0] == -1.0).all())
    right = []
    for k, y in enumerate(outs):
        lib.idiom_host_access_at(ctypes.c_void_p(y.ctypes.data + 8 * 100), ctypes.c_int64(8))
        right.append(bool(y[100] == 2 * ins[k][100]))
    lib.idiom_host_access()
    every = all(bool((y == 2 * x).all()) for x, y in zip(ins, outs))
    print(json.dumps({"held": held, "untouched": untouched, "right": all(right),
                      "every": every, "left": lib.idiom_device_copies()}))
    """
)


@pytest.mark.parametrize("arrays", [1, 3, 40])
def test_host_accesses_of_other_bytes_leave_the_copies_and_of_theirs_bring_them_back(
    arrays: int,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("IDIOM_")}
    result = subprocess.run(
        [sys.executable, "-c", LOOKUP_SCRIPT, str(shared_runtime()), str(arrays)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**env, "IDIOM_DEVICE": "cpu", "IDIOM_SAFETY_NET": "0"},
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["held"] >= arrays  # each output stayed on the device (inputs may too)
    assert found == {**found, "untouched": True, "right": True, "every": True, "left": 0}
