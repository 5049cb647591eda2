"""Running a generated kernel through pyopencl: to check it against the interpreter and
to time it while exploring.

`Launch` is the NDRange: the kernel's loops stride by their range's size, so any global
size computes the whole result; fewer work-items than elements each compute several
(the exploration's coarsening). Inputs are numpy arrays (flat) and scalars, by the
program's parameter names; sizes are the size variables' values.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyopencl as cl

from lift.errors import LiftError
from lift.ir import expr as ir
from lift.ir.types import Array, Scalar, Type
from lift.opencl.generate import Kernel
from lift.opencl.lookback import build_options

__all__ = ["Device", "Launch", "numpy_type", "open_device"]

_NUMPY = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "bool": np.int32}


@dataclass(frozen=True)
class Launch:
    global_size: tuple[int, ...]
    local_size: tuple[int, ...] | None = None


def numpy_type(kind: Type) -> Any:
    while isinstance(kind, Array):
        kind = kind.element
    if not isinstance(kind, Scalar):
        raise LiftError(f"no numpy type for {kind}")
    return _NUMPY[kind.name]


class Device:
    """One OpenCL device with a profiling queue."""

    def __init__(self, context: Any, device: Any) -> None:
        self.cl = cl
        self.context = context
        self.device = device
        self.queue = cl.CommandQueue(
            context, properties=cl.command_queue_properties.PROFILING_ENABLE
        )
        self._programs: dict[str, Any] = {}

    @property
    def name(self) -> str:
        return f"{self.device.platform.name.strip()}: {self.device.name.strip()}"

    @property
    def options(self) -> str:
        """The options the runtime builds a generated kernel with on this device."""
        return build_options(self.device.vendor, bool(self.device.type & cl.device_type.GPU))

    def build(self, kernel: Kernel) -> Any:
        if kernel.source not in self._programs:
            program = self.cl.Program(self.context, kernel.source).build(options=self.options)
            self._programs[kernel.source] = self.cl.Kernel(program, kernel.name)
        return self._programs[kernel.source]

    def arguments(
        self, program: ir.Lambda, kernel: Kernel, inputs: Mapping[str, Any], output: np.ndarray
    ) -> tuple[list[Any], Any]:
        """The kernel's arguments (device buffers for arrays, scalars by value, the new
        output buffer unless the kernel writes into a parameter) and the buffer it writes."""
        cl = self.cl
        flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
        args: list[Any] = []
        written = None
        for param in program.params:
            value = inputs[param.name]
            if isinstance(param.type, Array):
                host = np.ascontiguousarray(value, dtype=numpy_type(param.type))
                args.append(cl.Buffer(self.context, flags, hostbuf=host))
                if kernel.output.into and param.name == kernel.output.name:
                    written = args[-1]
            else:
                assert param.type is not None
                args.append(numpy_type(param.type)(value))
        if written is None:
            written = cl.Buffer(self.context, flags, hostbuf=output)
            args.append(written)
        return args, written

    def run(  # noqa: PLR0917 (the arguments of a launch, in their natural order)
        self,
        program: ir.Lambda,
        kernel: Kernel,
        inputs: Mapping[str, Any],
        sizes: Mapping[str, int],
        launch: Launch,
        output: np.ndarray,
        *,
        repeat: int = 1,
    ) -> list[float]:
        """Launch `repeat` times; `output` receives what the kernel wrote (the whole
        written parameter, for a kernel that writes into one). The kernel's times, s."""
        function = self.build(kernel)
        args, written = self.arguments(program, kernel, inputs, output)
        scratch = [
            (self.cl.Buffer(self.context, self.cl.mem_flags.READ_WRITE, 8 * words), 8 * words)
            for words in (length.evaluate(dict(sizes)) for _, length in kernel.scratch)
        ]
        args += [buffer for buffer, _ in scratch]
        size_type = np.int32 if kernel.index == "int" else np.int64
        values = [size_type(sizes[name]) for name in kernel.sizes]
        # Packed sizes: one struct argument, its bytes those of the array (by value).
        args += [np.array(values, size_type)] if kernel.packed_sizes else values
        times = []
        for _ in range(repeat):
            for buffer, size in scratch:  # zeroed before each launch, as the runtime does
                self.cl.enqueue_fill_buffer(self.queue, buffer, np.zeros(1, np.uint8), 0, size)
            event = function(self.queue, launch.global_size, launch.local_size, *args)
            event.wait()
            times.append((event.profile.end - event.profile.start) * 1e-9)
        self.cl.enqueue_copy(self.queue, output, written)
        self.queue.finish()
        return times

    def time(  # noqa: PLR0917
        self,
        program: ir.Lambda,
        kernel: Kernel,
        inputs: Mapping[str, Any],
        sizes: Mapping[str, int],
        launch: Launch,
        output: np.ndarray,
        *,
        repeat: int = 5,
    ) -> float:
        """The median kernel time over `repeat` launches, after one warm-up."""
        times = self.run(program, kernel, inputs, sizes, launch, output, repeat=repeat + 1)
        return statistics.median(times[1:])


def open_device(kind: str | None = None) -> Device:
    """The OpenCL device to explore on: `IDIOM_LIFT_DEVICE` (`gpu` or `cpu`) or `kind`,
    else the first GPU, else the first device."""
    wanted = (kind or os.environ.get("IDIOM_LIFT_DEVICE", "")).lower()
    devices = [d for platform in cl.get_platforms() for d in platform.get_devices()]
    if not devices:
        raise LiftError("no OpenCL device")
    gpus = [d for d in devices if d.type & cl.device_type.GPU]
    cpus = [d for d in devices if d.type & cl.device_type.CPU]
    chosen: Sequence[Any] = {"gpu": gpus, "cpu": cpus}.get(wanted) or gpus or devices
    if not chosen:
        raise LiftError(f"no OpenCL {wanted} device")
    device = chosen[0]
    return Device(cl.Context([device]), device)
