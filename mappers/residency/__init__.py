"""Device residency: where the rewritten program calls `idiom_host_access`, so that arrays stay
on the device between kernel launches until the host touches them.

`placement` places the calls over every function of the whole program (a forward data-flow
analysis); `host_effects` says what each instruction asks of the device copies; `host_ranges`
bounds the bytes a host loop nest touches before it runs; `host_fast` inlines the calls'
common case (nothing on a device, nothing to do).
"""
