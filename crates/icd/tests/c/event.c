/* 5.11 Event Objects, 5.12 Markers, Barriers and Waiting for Events, 5.14 out-of-order
 * execution and 5.15 Profiling: user events, wait lists, callbacks, markers and barriers
 * (3.0 and 1.x), clWaitForEvents, clGetEventInfo, clGetEventProfilingInfo, dependencies across
 * queues and in out-of-order queues. */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>

enum { N = 4096 };

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static cl_int event_status(cl_event event) {
    cl_int status = 0;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    return status;
}

static cl_uint event_refcount(cl_event event) {
    cl_uint count = 0;
    CHECK(clGetEventInfo(event, CL_EVENT_REFERENCE_COUNT, sizeof count, &count, NULL));
    return count;
}

static cl_command_type event_type(cl_event event) {
    cl_command_type type = 0;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    return type;
}

static cl_event user_event(cl_context ctx) {
    cl_int err = CL_SUCCESS;
    cl_event event = clCreateUserEvent(ctx, &err);
    CHECK_RET(err);
    REQUIRE(event != NULL);
    return event;
}

static void pause_ms(int ms) {
    struct timespec pause = {0, (long)ms * 1000 * 1000};
    nanosleep(&pause, NULL);
}

/* A buffer of N bytes, each `value`. */
static cl_mem filled_buffer(unsigned char value) {
    unsigned char data[N];
    memset(data, value, N);
    return make_buffer(context, CL_MEM_COPY_HOST_PTR, N, data);
}

/* Whether every byte of `mem`, read through `q`, equals `value`. */
static int buffer_is(cl_command_queue q, cl_mem mem, unsigned char value) {
    unsigned char data[N];
    CHECK(clEnqueueReadBuffer(q, mem, CL_TRUE, 0, N, data, 0, NULL, NULL));
    for (int i = 0; i < N; i++)
        if (data[i] != value)
            return 0;
    return 1;
}

static void test_user_event(void) {
    cl_event event = user_event(context);
    /* 5.11.1: "The initial execution status for the user event object is CL_SUBMITTED." */
    EXPECT(event_status(event) == CL_SUBMITTED);
    EXPECT(event_type(event) == CL_COMMAND_USER);
    /* Table 51: CL_EVENT_COMMAND_QUEUE "For user event objects, a NULL value is returned." */
    cl_command_queue q = (cl_command_queue)(uintptr_t)1;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
    EXPECT(q == NULL);
    cl_context c = NULL;
    CHECK(clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof c, &c, NULL));
    EXPECT(c == context);
    EXPECT(event_refcount(event) == 1);

    /* clSetUserEventStatus: CL_INVALID_VALUE "if the execution_status is not CL_COMPLETE or a
     * negative integer value". */
    EXPECT_ERR(CL_INVALID_VALUE, clSetUserEventStatus(event, CL_RUNNING));
    EXPECT_ERR(CL_INVALID_VALUE, clSetUserEventStatus(event, CL_SUBMITTED));
    EXPECT_ERR(CL_INVALID_VALUE, clSetUserEventStatus(event, 17));
    EXPECT(event_status(event) == CL_SUBMITTED);
    CHECK(clSetUserEventStatus(event, CL_COMPLETE));
    EXPECT(event_status(event) == CL_COMPLETE);
    /* "CL_INVALID_OPERATION if the execution_status for event has already been changed by a
     * previous call to clSetUserEventStatus." */
    EXPECT_ERR(CL_INVALID_OPERATION, clSetUserEventStatus(event, CL_COMPLETE));
    EXPECT_ERR(CL_INVALID_OPERATION, clSetUserEventStatus(event, -1));
    CHECK(clWaitForEvents(1, &event));
    CHECK(clReleaseEvent(event));

    cl_event failed = user_event(context);
    CHECK(clSetUserEventStatus(failed, -42));
    EXPECT(event_status(failed) == -42);
    EXPECT_ERR(CL_INVALID_OPERATION, clSetUserEventStatus(failed, CL_COMPLETE));
    /* clWaitForEvents: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST "if the execution status of any
     * of the events in event_list is a negative integer value". */
    EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &failed));
    CHECK(clReleaseEvent(failed));

    /* clCreateUserEvent: CL_INVALID_CONTEXT "if context is not a valid context". */
    cl_int err = CL_SUCCESS;
    cl_event bad = clCreateUserEvent(NULL, &err);
    EXPECT_RET(CL_INVALID_CONTEXT, err);
    EXPECT(bad == NULL);
    if (wrong_type_checks()) {
        bad = clCreateUserEvent((cl_context)queue, &err);
        EXPECT_RET(CL_INVALID_CONTEXT, err);
        EXPECT(bad == NULL);
    }
    /* clSetUserEventStatus: CL_INVALID_EVENT "if event is not a valid user event object": NULL,
     * and an event made by an enqueue. */
    EXPECT_ERR(CL_INVALID_EVENT, clSetUserEventStatus(NULL, CL_COMPLETE));
    cl_event marker = NULL;
    CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker));
    CHECK(clWaitForEvents(1, &marker));
    EXPECT_ERR(CL_INVALID_EVENT, clSetUserEventStatus(marker, CL_COMPLETE));
    CHECK(clReleaseEvent(marker));
}

static void test_gating(void) {
    cl_mem mem = filled_buffer(1);
    cl_command_queue observer = make_queue(context, device);
    unsigned char data[N];
    memset(data, 2, N);
    cl_event gate = user_event(context);
    cl_event write = NULL;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 1, &gate, &write));
    CHECK(clFlush(queue));
    /* 5.11: "In order for the execution status of an enqueued command to change from
     * CL_SUBMITTED to CL_RUNNING, all events that this command is waiting on must have completed
     * successfully": the write has not run, the buffer (read through another queue) is
     * unchanged. */
    pause_ms(50);
    cl_int status = event_status(write);
    EXPECT(status == CL_QUEUED || status == CL_SUBMITTED);
    EXPECT(buffer_is(observer, mem, 1));
    EXPECT(event_status(write) != CL_COMPLETE);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &write));
    EXPECT(event_status(write) == CL_COMPLETE);
    EXPECT(buffer_is(observer, mem, 2));
    CHECK(clReleaseEvent(write));
    CHECK(clReleaseEvent(gate));

    /* "A negative integer value causes all enqueued commands that wait on this user event to be
     * terminated": the command ends with a negative status and never runs. */
    gate = user_event(context);
    memset(data, 3, N);
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 1, &gate, &write));
    CHECK(clFlush(queue));
    CHECK(clSetUserEventStatus(gate, -7));
    EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &write));
    EXPECT(event_status(write) < 0);
    EXPECT(buffer_is(observer, mem, 2));
    CHECK(clReleaseEvent(write));
    CHECK(clReleaseEvent(gate));
    CHECK(clFinish(queue));
    CHECK(clReleaseCommandQueue(observer));
    CHECK(clReleaseMemObject(mem));
}

/* Callback records: the status each registration saw, by registration slot. */
static atomic_int callback_status[8];
static atomic_int callback_calls[8];

static void CL_CALLBACK on_event(cl_event event, cl_int status, void *user_data) {
    (void)event;
    int slot = (int)(intptr_t)user_data;
    atomic_store(&callback_status[slot], status);
    atomic_fetch_add(&callback_calls[slot], 1);
}

/* Waits up to 5 s for the callback in `slot` (callbacks "may be called asynchronously"). */
static int wait_callback(int slot) {
    for (int i = 0; i < 5000 && atomic_load(&callback_calls[slot]) == 0; i++)
        pause_ms(1);
    return atomic_load(&callback_calls[slot]);
}

static void test_callbacks(void) {
    for (int i = 0; i < 8; i++) {
        atomic_store(&callback_calls[i], 0);
        atomic_store(&callback_status[i], 99);
    }
    cl_mem mem = filled_buffer(0);
    unsigned char data[N] = {0};
    cl_event gate = user_event(context);
    cl_event write = NULL;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 1, &gate, &write));
    CHECK(clSetEventCallback(write, CL_SUBMITTED, on_event, (void *)0));
    CHECK(clSetEventCallback(write, CL_RUNNING, on_event, (void *)1));
    CHECK(clSetEventCallback(write, CL_COMPLETE, on_event, (void *)2));
    CHECK(clSetEventCallback(gate, CL_COMPLETE, on_event, (void *)3));
    CHECK(clFlush(queue));
    pause_ms(20);
    /* The write cannot complete before its gate. */
    EXPECT(atomic_load(&callback_calls[2]) == 0);
    EXPECT(atomic_load(&callback_calls[3]) == 0);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &write));
    /* "The registered callback function will be called when the execution status of the command
     * associated with event changes to an execution status equal to or past the status
     * specified" and "event_command_status is equal to the command_exec_callback_type used while
     * registering the callback". */
    for (int slot = 0; slot < 4; slot++) {
        EXPECT(wait_callback(slot) == 1);
    }
    EXPECT(atomic_load(&callback_status[0]) == CL_SUBMITTED);
    EXPECT(atomic_load(&callback_status[1]) == CL_RUNNING);
    EXPECT(atomic_load(&callback_status[2]) == CL_COMPLETE);
    EXPECT(atomic_load(&callback_status[3]) == CL_COMPLETE);
    /* Registered on an event that has already completed: called too. */
    CHECK(clSetEventCallback(write, CL_COMPLETE, on_event, (void *)4));
    EXPECT(wait_callback(4) == 1);
    EXPECT(atomic_load(&callback_status[4]) == CL_COMPLETE);
    CHECK(clReleaseEvent(write));
    CHECK(clReleaseEvent(gate));

    /* "for the execution status CL_COMPLETE, if the command is abnormally terminated" the
     * CL_COMPLETE callback is called, with "an appropriate error code" instead. */
    gate = user_event(context);
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 1, &gate, &write));
    CHECK(clSetEventCallback(write, CL_COMPLETE, on_event, (void *)5));
    CHECK(clSetEventCallback(gate, CL_COMPLETE, on_event, (void *)6));
    CHECK(clSetUserEventStatus(gate, -3));
    EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, &write));
    /* (PoCL 3.1 calls neither.) */
    EXPECT_DEVIATES(wait_callback(5) == 1);
    EXPECT_DEVIATES(atomic_load(&callback_status[5]) < 0);
    EXPECT_DEVIATES(wait_callback(6) == 1);
    EXPECT_DEVIATES(atomic_load(&callback_status[6]) == -3);
    CHECK(clReleaseEvent(write));

    /* clSetEventCallback: CL_INVALID_VALUE "if pfn_event_notify is NULL or if
     * command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE";
     * CL_INVALID_EVENT "if event is not a valid event object". */
    EXPECT_ERR(CL_INVALID_VALUE, clSetEventCallback(gate, CL_COMPLETE, NULL, NULL));
    EXPECT_ERR(CL_INVALID_VALUE, clSetEventCallback(gate, CL_QUEUED, on_event, (void *)7));
    EXPECT_ERR(CL_INVALID_VALUE, clSetEventCallback(gate, -1, on_event, (void *)7));
    EXPECT_ERR(CL_INVALID_EVENT, clSetEventCallback(NULL, CL_COMPLETE, on_event, (void *)7));
    if (wrong_type_checks())
        EXPECT_ERR(CL_INVALID_EVENT, clSetEventCallback((cl_event)mem, CL_COMPLETE, on_event, (void *)7));
    CHECK(clReleaseEvent(gate));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(mem));
}

static void test_markers_and_barriers(void) {
    cl_mem mem = filled_buffer(0);
    unsigned char data[N];
    memset(data, 5, N);
    cl_event gate = user_event(context);
    cl_event write = NULL, marker = NULL, barrier = NULL, marker_list = NULL, barrier_list = NULL;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 1, &gate, &write));
    /* "If event_wait_list is NULL, then this particular command waits until all previous
     * enqueued commands to command_queue have completed." */
    CHECK(clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker));
    CHECK(clEnqueueBarrierWithWaitList(queue, 0, NULL, &barrier));
    CHECK(clEnqueueMarkerWithWaitList(queue, 1, &write, &marker_list));
    CHECK(clEnqueueBarrierWithWaitList(queue, 1, &write, &barrier_list));
    CHECK(clFlush(queue));
    EXPECT(event_type(marker) == CL_COMMAND_MARKER);
    EXPECT(event_type(marker_list) == CL_COMMAND_MARKER);
    EXPECT(event_type(barrier) == CL_COMMAND_BARRIER);
    EXPECT(event_type(barrier_list) == CL_COMMAND_BARRIER);
    pause_ms(20);
    EXPECT(event_status(marker) != CL_COMPLETE);
    EXPECT(event_status(barrier) != CL_COMPLETE);
    EXPECT(event_status(marker_list) != CL_COMPLETE);
    EXPECT(event_status(barrier_list) != CL_COMPLETE);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    cl_event all[] = {marker, barrier, marker_list, barrier_list};
    CHECK(clWaitForEvents(4, all));
    EXPECT(event_status(write) == CL_COMPLETE);
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseEvent(all[i]));
    CHECK(clReleaseEvent(write));
    CHECK(clReleaseEvent(gate));

    /* The 1.x forms. clEnqueueMarker: "CL_INVALID_VALUE if event is NULL". */
    cl_event old_marker = NULL;
    CHECK(clEnqueueMarker(queue, &old_marker));
    EXPECT(event_type(old_marker) == CL_COMMAND_MARKER);
    CHECK(clWaitForEvents(1, &old_marker));
    CHECK(clReleaseEvent(old_marker));
    EXPECT_ERR(CL_INVALID_VALUE, clEnqueueMarker(queue, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueMarker(NULL, &old_marker));
    CHECK(clEnqueueBarrier(queue));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueBarrier(NULL));
    /* clEnqueueWaitForEvents: "a wait for a specific event or a list of events to complete before
     * any future commands queued in a command-queue are executed". (PoCL 3.1 aborts the process
     * in clEnqueueWaitForEvents: "unimplemented".) */
    gate = user_event(context);
    if (strict()) {
        CHECK(clEnqueueWaitForEvents(queue, 1, &gate));
        memset(data, 6, N);
        CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 0, NULL, &write));
        CHECK(clFlush(queue));
        pause_ms(20);
        EXPECT(event_status(write) != CL_COMPLETE);
        CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
        CHECK(clWaitForEvents(1, &write));
        CHECK(clReleaseEvent(write));
        /* "CL_INVALID_VALUE if num_events is 0 or event_list is NULL." */
        EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWaitForEvents(queue, 0, &gate));
        EXPECT_ERR(CL_INVALID_VALUE, clEnqueueWaitForEvents(queue, 1, NULL));
    }
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueWaitForEvents(NULL, 1, &gate));

    /* Wait-list errors of the 1.2 forms. */
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue, 1, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue, 0, &gate, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueBarrierWithWaitList(queue, 1, NULL, NULL));
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueBarrierWithWaitList(queue, 0, &gate, NULL));
    cl_event null_event = NULL;
    EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue, 1, &null_event, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueMarkerWithWaitList(NULL, 0, NULL, NULL));
    EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clEnqueueBarrierWithWaitList(NULL, 0, NULL, NULL));
    /* CL_INVALID_CONTEXT "if context associated with command_queue and events in
     * event_wait_list are not the same". */
    cl_context other = make_context(device);
    cl_event foreign = user_event(other);
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueMarkerWithWaitList(queue, 1, &foreign, NULL));
    EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueBarrierWithWaitList(queue, 1, &foreign, NULL));
    if (strict())
        EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueWaitForEvents(queue, 1, &foreign));
    CHECK(clSetUserEventStatus(foreign, CL_COMPLETE));
    CHECK(clReleaseEvent(foreign));
    CHECK(clReleaseContext(other));
    CHECK(clReleaseEvent(gate));
    CHECK(clFinish(queue));
    CHECK(clReleaseMemObject(mem));
}

static void test_wait_for_events(void) {
    cl_event a = user_event(context), b = user_event(context);
    CHECK(clSetUserEventStatus(a, CL_COMPLETE));
    CHECK(clSetUserEventStatus(b, CL_COMPLETE));
    cl_event both[] = {a, b};
    CHECK(clWaitForEvents(2, both));
    /* "CL_INVALID_VALUE if num_events is zero or event_list is NULL." */
    EXPECT_ERR(CL_INVALID_VALUE, clWaitForEvents(0, both));
    EXPECT_ERR(CL_INVALID_VALUE, clWaitForEvents(1, NULL));
    /* "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same context." */
    cl_context other = make_context(device);
    cl_event foreign = user_event(other);
    CHECK(clSetUserEventStatus(foreign, CL_COMPLETE));
    cl_event mixed[] = {a, foreign};
    EXPECT_ERR(CL_INVALID_CONTEXT, clWaitForEvents(2, mixed));
    /* "CL_INVALID_EVENT if event objects specified in event_list are not valid event objects." */
    cl_event with_null[] = {a, NULL};
    EXPECT_ERR(CL_INVALID_EVENT, clWaitForEvents(2, with_null));
    if (wrong_type_checks()) {
        cl_event wrong[] = {(cl_event)other};
        EXPECT_ERR(CL_INVALID_EVENT, clWaitForEvents(1, wrong));
    }
    CHECK(clReleaseEvent(foreign));
    CHECK(clReleaseContext(other));
    CHECK(clReleaseEvent(a));
    CHECK(clReleaseEvent(b));
}

struct waiter {
    cl_event event;
    cl_int result;
    uint64_t woke_ns;
};

static void *wait_in_thread(void *arg) {
    struct waiter *w = arg;
    w->result = clWaitForEvents(1, &w->event);
    w->woke_ns = now_ns();
    return NULL;
}

/* clWaitForEvents "waits on the host thread for commands identified by event objects in
 * event_list to complete": a thread blocked on a user event wakes once another thread sets it,
 * and not before; with a negative status it returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
static void test_wait_from_another_thread(void) {
    cl_int statuses[] = {CL_COMPLETE, -9};
    cl_int results[] = {CL_SUCCESS, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST};
    for (int i = 0; i < 2; i++) {
        struct waiter w = {user_event(context), 99, 0};
        pthread_t thread;
        REQUIRE(pthread_create(&thread, NULL, wait_in_thread, &w) == 0);
        pause_ms(50);
        uint64_t set_ns = now_ns();
        CHECK(clSetUserEventStatus(w.event, statuses[i]));
        pthread_join(thread, NULL);
        EXPECT_RET(results[i], w.result);
        EXPECT(w.woke_ns >= set_ns);
        CHECK(clReleaseEvent(w.event));
    }
}

struct delayed_set {
    cl_event event;
    int delay_ms;
    uint64_t set_ns;
};

static void *set_after_delay(void *arg) {
    struct delayed_set *d = arg;
    pause_ms(d->delay_ms);
    d->set_ns = now_ns();
    CHECK(clSetUserEventStatus(d->event, CL_COMPLETE));
    return NULL;
}

/* Blocking calls wait for what their commands wait for: a blocking read gated on a user event
 * "does not return until the buffer data has been read", and clFinish "does not return until all
 * previously queued commands in command_queue have been processed and completed"; here the user
 * event is set by another thread while the main thread is blocked. */
static void test_blocking_calls_wait(void) {
    cl_mem mem = filled_buffer(4);
    unsigned char data[N];
    struct delayed_set d = {user_event(context), 50, 0};
    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, set_after_delay, &d) == 0);
    memset(data, 0, N);
    CHECK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, N, data, 1, &d.event, NULL));
    uint64_t returned = now_ns();
    pthread_join(thread, NULL);
    EXPECT(returned >= d.set_ns);
    EXPECT(data[0] == 4 && data[N - 1] == 4);
    CHECK(clReleaseEvent(d.event));

    d.event = user_event(context);
    d.set_ns = 0;
    memset(data, 8, N);
    cl_event write = NULL;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 1, &d.event, &write));
    REQUIRE(pthread_create(&thread, NULL, set_after_delay, &d) == 0);
    CHECK(clFinish(queue));
    returned = now_ns();
    pthread_join(thread, NULL);
    EXPECT(returned >= d.set_ns);
    EXPECT(event_status(write) == CL_COMPLETE);
    EXPECT(buffer_is(queue, mem, 8));
    CHECK(clReleaseEvent(write));
    CHECK(clReleaseEvent(d.event));
    CHECK(clReleaseMemObject(mem));
}

static void test_event_info_and_refcounts(void) {
    cl_mem mem = filled_buffer(0);
    unsigned char data[16] = {0};
    cl_event event = NULL;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, sizeof data, data, 0, NULL, &event));
    struct {
        cl_event_info param;
        size_t size;
    } queries[] = {
        {CL_EVENT_COMMAND_QUEUE, sizeof(cl_command_queue)},
        {CL_EVENT_CONTEXT, sizeof(cl_context)},
        {CL_EVENT_COMMAND_TYPE, sizeof(cl_command_type)},
        {CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(cl_int)},
        {CL_EVENT_REFERENCE_COUNT, sizeof(cl_uint)},
    };
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        size_t size = 0;
        CHECK(clGetEventInfo(event, queries[i].param, 0, NULL, &size));
        EXPECT(size == queries[i].size);
        unsigned char value[16];
        /* CL_INVALID_VALUE if "the size in bytes specified by param_value_size is less than size
         * of the return type ... and param_value is not NULL". */
        EXPECT_ERR(CL_INVALID_VALUE, clGetEventInfo(event, queries[i].param, queries[i].size - 1, value, NULL));
    }
    cl_command_queue q = NULL;
    CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL));
    EXPECT(q == queue);
    cl_context c = NULL;
    CHECK(clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof c, &c, NULL));
    EXPECT(c == context);
    /* A blocking write "does not return until the command is complete". */
    EXPECT(event_status(event) == CL_COMPLETE);
    EXPECT(event_type(event) == CL_COMMAND_WRITE_BUFFER);
    size_t size = 0;
    EXPECT_ERR(CL_INVALID_VALUE, clGetEventInfo(event, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_VALUE, clGetEventInfo(event, CL_PROFILING_COMMAND_START, 0, NULL, &size));
    /* "CL_INVALID_EVENT if event is not a valid event object." */
    EXPECT_ERR(CL_INVALID_EVENT, clGetEventInfo(NULL, CL_EVENT_CONTEXT, 0, NULL, &size));
    if (wrong_type_checks())
        EXPECT_ERR(CL_INVALID_EVENT, clGetEventInfo((cl_event)mem, CL_EVENT_CONTEXT, 0, NULL, &size));

    /* "The OpenCL commands that return an event perform an implicit retain." The count may
     * include the implementation's own references ([18]: "should be considered immediately
     * stale"), so only the changes are checked. */
    cl_uint count = event_refcount(event);
    EXPECT(count >= 1);
    CHECK(clRetainEvent(event));
    EXPECT(event_refcount(event) == count + 1);
    CHECK(clReleaseEvent(event));
    EXPECT(event_refcount(event) == count);
    CHECK(clReleaseEvent(event));
    EXPECT_ERR(CL_INVALID_EVENT, clRetainEvent(NULL));
    EXPECT_ERR(CL_INVALID_EVENT, clReleaseEvent(NULL));
    if (wrong_type_checks()) {
        EXPECT_ERR(CL_INVALID_EVENT, clRetainEvent((cl_event)queue));
        EXPECT_ERR(CL_INVALID_EVENT, clReleaseEvent((cl_event)context));
    }
    CHECK(clReleaseMemObject(mem));
}

static void test_profiling(void) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue profiled = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_RET(err);
    unsigned char *data = malloc(1 << 22);
    REQUIRE(data != NULL);
    memset(data, 9, 1 << 22);
    cl_mem mem = make_buffer(context, CL_MEM_READ_WRITE, 1 << 22, NULL);
    cl_ulong device_before = 0, device_after = 0, host = 0;
    int have_timer = clGetDeviceAndHostTimer(device, &device_before, &host) == CL_SUCCESS;
    cl_event event = NULL;
    CHECK(clEnqueueWriteBuffer(profiled, mem, CL_FALSE, 0, 1 << 22, data, 0, NULL, &event));
    CHECK(clWaitForEvents(1, &event));
    if (have_timer)
        CHECK(clGetDeviceAndHostTimer(device, &device_after, &host));
    cl_profiling_info params[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                                  CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};
    cl_ulong t[5] = {0};
    for (int i = 0; i < 5; i++) {
        size_t size = 0;
        CHECK(clGetEventProfilingInfo(event, params[i], sizeof t[i], &t[i], &size));
        EXPECT(size == sizeof(cl_ulong));
        /* CL_INVALID_VALUE if the size "is less than size of the return type". */
        cl_uint small = 0;
        EXPECT_ERR(CL_INVALID_VALUE, clGetEventProfilingInfo(event, params[i], sizeof small, &small, NULL));
    }
    /* The timestamps follow the command's state transitions, in order. */
    EXPECT(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
    EXPECT(t[0] > 0);
    /* 4.2: "The timestamp returned from clGetEventProfilingInfo for an event on a device
     * and a device timestamp queried from the same device will always be in the same timebase." */
    if (have_timer)
        EXPECT(device_before <= t[0] && t[3] <= device_after);
    size_t size = 0;
    /* (PoCL 3.1 accepts any param_name.) */
    EXPECT_ERR_DEVIATES(CL_INVALID_VALUE, clGetEventProfilingInfo(event, 0x7fff, 0, NULL, &size));
    EXPECT_ERR(CL_INVALID_EVENT, clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, 0, NULL, &size));
    CHECK(clReleaseEvent(event));

    /* CL_PROFILING_INFO_NOT_AVAILABLE "if the CL_QUEUE_PROFILING_ENABLE flag is not set for the
     * command-queue, if the execution status of the command identified by event is not
     * CL_COMPLETE or if event is a user event object". */
    cl_ulong value = 0;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, 64, data, 0, NULL, &event));
    EXPECT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof value,
                                                                        &value, NULL));
    CHECK(clReleaseEvent(event));
    cl_event gate = user_event(context);
    EXPECT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE, clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_QUEUED, sizeof value,
                                                                        &value, NULL));
    CHECK(clEnqueueWriteBuffer(profiled, mem, CL_FALSE, 0, 64, data, 1, &gate, &event));
    EXPECT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof value,
                                                                        &value, NULL));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &event));
    EXPECT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE, clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_END, sizeof value,
                                                                        &value, NULL));
    CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof value, &value, NULL));
    CHECK(clReleaseEvent(event));
    CHECK(clReleaseEvent(gate));
    CHECK(clReleaseMemObject(mem));
    CHECK(clReleaseCommandQueue(profiled));
    free(data);
}

static void test_cross_queue(void) {
    cl_command_queue second = make_queue(context, device);
    cl_mem mem = filled_buffer(0);
    unsigned char data[N];
    memset(data, 7, N);
    cl_event gate = user_event(context);
    cl_event write = NULL, read = NULL;
    CHECK(clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, N, data, 1, &gate, &write));
    unsigned char back[N];
    memset(back, 0, N);
    /* The read on the second queue waits for the first queue's write. */
    CHECK(clEnqueueReadBuffer(second, mem, CL_FALSE, 0, N, back, 1, &write, &read));
    CHECK(clFlush(queue));
    CHECK(clFlush(second));
    pause_ms(20);
    EXPECT(event_status(read) != CL_COMPLETE);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &read));
    EXPECT(event_status(write) == CL_COMPLETE);
    EXPECT(memcmp(back, data, N) == 0);
    CHECK(clReleaseEvent(write));
    CHECK(clReleaseEvent(read));
    CHECK(clReleaseEvent(gate));
    CHECK(clReleaseMemObject(mem));
    CHECK(clReleaseCommandQueue(second));
}

static void test_out_of_order(void) {
    cl_command_queue_properties supported = device_ulong(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    if (!(supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue ooo = clCreateCommandQueueWithProperties(context, device, props, &err);
    CHECK_RET(err);
    cl_mem mem = filled_buffer(0);
    unsigned char first[N], second[N];
    memset(first, 1, N);
    memset(second, 2, N);

    /* 5.14: "To guarantee a specific order of execution ... a wait on a particular event ... can
     * be used": B waits for A, so B's bytes are the last written. */
    cl_event gate = user_event(context);
    cl_event a = NULL, b = NULL;
    CHECK(clEnqueueWriteBuffer(ooo, mem, CL_FALSE, 0, N, first, 1, &gate, &a));
    CHECK(clEnqueueWriteBuffer(ooo, mem, CL_FALSE, 0, N, second, 1, &a, &b));
    CHECK(clFlush(ooo));
    pause_ms(20);
    EXPECT(event_status(b) != CL_COMPLETE);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &b));
    EXPECT(event_status(a) == CL_COMPLETE);
    EXPECT(buffer_is(queue, mem, 2));
    CHECK(clReleaseEvent(a));
    CHECK(clReleaseEvent(b));
    CHECK(clReleaseEvent(gate));

    /* A barrier "guarantees that no later-enqueued commands will execute until the waited-for
     * commands have executed". */
    gate = user_event(context);
    cl_event barrier = NULL;
    CHECK(clEnqueueWriteBuffer(ooo, mem, CL_FALSE, 0, N, first, 1, &gate, &a));
    CHECK(clEnqueueBarrierWithWaitList(ooo, 0, NULL, &barrier));
    CHECK(clEnqueueWriteBuffer(ooo, mem, CL_FALSE, 0, N, second, 0, NULL, &b));
    CHECK(clFlush(ooo));
    pause_ms(20);
    EXPECT(event_status(barrier) != CL_COMPLETE);
    EXPECT(event_status(b) != CL_COMPLETE);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clFinish(ooo));
    EXPECT(event_status(b) == CL_COMPLETE);
    EXPECT(buffer_is(queue, mem, 2));
    CHECK(clReleaseEvent(a));
    CHECK(clReleaseEvent(b));
    CHECK(clReleaseEvent(barrier));
    CHECK(clReleaseEvent(gate));

    /* A marker without a wait list waits for "all previous enqueued commands". */
    gate = user_event(context);
    cl_event marker = NULL;
    CHECK(clEnqueueWriteBuffer(ooo, mem, CL_FALSE, 0, N, first, 1, &gate, &a));
    CHECK(clEnqueueMarkerWithWaitList(ooo, 0, NULL, &marker));
    CHECK(clFlush(ooo));
    pause_ms(20);
    EXPECT(event_status(marker) != CL_COMPLETE);
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(1, &marker));
    EXPECT(event_status(a) == CL_COMPLETE);
    CHECK(clReleaseEvent(a));
    CHECK(clReleaseEvent(marker));
    CHECK(clReleaseEvent(gate));
    CHECK(clReleaseMemObject(mem));
    CHECK(clReleaseCommandQueue(ooo));
}

int main(void) {
    device = first_device();
    context = make_context(device);
    queue = make_queue(context, device);
    test_user_event();
    test_gating();
    test_callbacks();
    test_markers_and_barriers();
    test_wait_for_events();
    test_wait_from_another_thread();
    test_blocking_calls_wait();
    test_event_info_and_refcounts();
    test_profiling();
    test_cross_queue();
    test_out_of_order();
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    return finish();
}
