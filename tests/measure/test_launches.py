"""The launch figures the GPU benchmarks read from IDIOM_STATS records."""

from __future__ import annotations

import pytest

from measure.launches import host_seconds_on_device_data, policy_counts

LAUNCH = {"entry": "cl_run", "status": 0, "seconds": 0.0003, "kernel_seconds": 0.0001}


def test_a_launch_on_device_data_gives_its_host_time() -> None:
    call = {**LAUNCH, "upload_bytes": 4096}  # the partial pages only
    assert host_seconds_on_device_data(call) == pytest.approx(0.0002)


def test_a_launch_that_waited_for_the_device_gives_the_rest() -> None:
    """A launch after others that did not wait finishes their kernels too: its host time
    is what it did beside waiting."""
    call = {**LAUNCH, "upload_bytes": 0, "seconds": 0.0005, "wait_seconds": 0.00045}
    assert host_seconds_on_device_data(call) == pytest.approx(0.00005)


def test_a_launch_that_returned_before_its_kernel_is_all_host_time() -> None:
    call = {**LAUNCH, "upload_bytes": 0, "kernel_seconds": None, "asynchronous": 1}
    assert host_seconds_on_device_data(call) == pytest.approx(0.0003)


@pytest.mark.parametrize(
    "other",
    [
        {"upload_bytes": 1 << 20},  # its data went up
        {"upload_bytes": 0, "status": 1},  # declined
        {"upload_bytes": 0, "replayed": 1},  # a check not launched
        {"upload_bytes": 0, "kernel_seconds": None},  # the kernel did not complete
        {"upload_bytes": 0, "entry": "host_access"},
    ],
)
def test_other_records_give_none(other: dict[str, object]) -> None:
    assert host_seconds_on_device_data({**LAUNCH, **other}) is None


def test_policy_counts_every_reason() -> None:
    calls = [{"policy": "large"}, {"policy": "large"}, {"policy": "data on the device"}, {}]
    assert policy_counts(calls) == {"large": 2, "data on the device": 1}
