//! `libferrocl.so`: the OpenCL C API entry points and the `cl_khr_icd` dispatch table.
