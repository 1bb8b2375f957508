// options: -cl-std=CL2.0
// Program-scope variables in the global address space (6.7.1, 6.7.8):
// explicit __global, inferred global for unqualified program-scope
// variables, static storage, initializers that are constant expressions
// (including the address of another global), and static locals in
// functions.

__global int counter = 0;
global float scale = 1.5f;
float4 bias = (float4)(1.0f, 2.0f, 3.0f, 4.0f);   /* inferred __global */
static int hidden[4] = { 1, 2, 3, 4 };
__global int *counter_ptr = &counter;
__constant int limits[2] = { 10, 20 };
__global struct { int hits; float last; } stats = { 0, 0.0f };

int next_id(void)
{
    static __global int id_source = 100;       /* static local in global memory */
    static __constant int step = 1;            /* static local in constant memory */
    return id_source += step;
}

__kernel void use_globals(__global float4 *data)
{
    size_t i = get_global_id(0);
    data[i] = data[i] * scale + bias;
    if (i == 0) {
        counter += hidden[2];
        *counter_ptr += limits[1];
        stats.hits++;
        stats.last = data[0].x;
        data[0].w = (float)next_id();
    }
}

__kernel void read_counter(__global int *out)
{
    out[0] = counter + stats.hits;
}
