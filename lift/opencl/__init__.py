"""OpenCL C generated from lowered expressions."""
