//! The ferrocl runtime: platform, devices, contexts, command queues, events and memory
//! objects, with the object semantics of the OpenCL 3.0 API specification.
