"""Reading the runtime's per-call records (IDIOM_STATS, mappers/runtime/idiom_runtime.h):
the figures the GPU benchmarks report on launches. Standard library only: the GPU machine
runs it without the rest of the tool."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["host_seconds_on_device_data", "policy_counts"]

PARTIAL_PAGES = 65536
"""Bytes a launch may upload and still count as finding its data on the device: the bytes
on the partial pages at its arrays' ends, sent again where the host changed them."""


def host_seconds_on_device_data(call: Mapping[str, object]) -> float | None:
    """The host time of a launch beside the device's work, where the launch ran and its data
    was already on the device: the call's time less the time it waited for the device to
    run its kernel and what was queued before it (`wait_seconds`; records without it: less
    its own kernel time), all of a call that returned before its kernel ran; None for any
    other record (a declined launch, a check whose outputs were replayed, an upload, a host
    access)."""
    uploaded = call.get("upload_bytes")
    kernel = call.get("kernel_seconds")
    seconds = call.get("seconds")
    if (
        call.get("entry") != "cl_run"
        or call.get("status") != 0
        or call.get("replayed")
        or not isinstance(uploaded, int)
        or uploaded > PARTIAL_PAGES
        or not isinstance(seconds, float | int)
    ):
        return None
    if call.get("asynchronous"):
        return float(seconds)
    if not isinstance(kernel, float | int):
        return None
    wait = call.get("wait_seconds")
    return float(seconds) - float(wait if isinstance(wait, float | int) else kernel)


def policy_counts(calls: Iterable[Mapping[str, object]]) -> dict[str, int]:
    """How many times `auto` gave each reason (its "policy" field), launched or declined."""
    reasons: dict[str, int] = {}
    for call in calls:
        if "policy" in call:
            reason = str(call["policy"])
            reasons[reason] = reasons.get(reason, 0) + 1
    return reasons
