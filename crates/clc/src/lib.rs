//! The OpenCL C compiler: source text in, a checked program (and later an `ir::Module`) out,
//! or a build log that says exactly what is wrong and where.
