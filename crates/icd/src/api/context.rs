//! Chapter 4.4 of the API: contexts.

use std::ffi::{c_char, c_void, CString};
use std::sync::Arc;

use ferrocl_core::{ClError, ClResult, Context, Device};
use opencl_sys::*;

use crate::api::platform::{check_platform, platform};
use crate::entry::entry;
use crate::handle::{self, get, get_list, new_handle};
use crate::info::{self, answer};
use crate::UserData;

type ContextNotify = unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void);

/// The checked properties of a new context.
struct ContextProperties {
    list: Vec<isize>,
    interop_user_sync: bool,
}

/// Reads a zero-terminated context property list.
///
/// 4.4: CL_INVALID_PROPERTY "if context property name in properties is not a supported
/// property name, if the value specified for a supported property name is not valid, or if
/// the same property name is specified more than once"; CL_INVALID_PLATFORM "if platform
/// value specified in properties is not a valid platform".
///
/// # Safety
/// `properties` is NULL or a zero-terminated list of name/value pairs.
unsafe fn context_properties(
    properties: *const cl_context_properties,
) -> ClResult<ContextProperties> {
    let mut out = ContextProperties {
        list: Vec::new(),
        interop_user_sync: false,
    };
    if properties.is_null() {
        return Ok(out);
    }
    let mut seen = Vec::new();
    let mut p = properties;
    loop {
        // SAFETY: the caller's contract: the list goes on until its zero name.
        let name = unsafe { p.read() };
        if name == 0 {
            break;
        }
        // SAFETY: every non-zero name is followed by its value.
        let value = unsafe { p.add(1).read() };
        if seen.contains(&name) {
            return Err(ClError::InvalidProperty);
        }
        seen.push(name);
        match name {
            CL_CONTEXT_PLATFORM => {
                check_platform(value as cl_platform_id).map_err(|_| ClError::InvalidPlatform)?;
                if value == 0 {
                    return Err(ClError::InvalidPlatform);
                }
            }
            CL_CONTEXT_INTEROP_USER_SYNC => match value as cl_bool {
                CL_TRUE => out.interop_user_sync = true,
                CL_FALSE => out.interop_user_sync = false,
                _ => return Err(ClError::InvalidProperty),
            },
            _ => return Err(ClError::InvalidProperty),
        }
        out.list.extend([name, value]);
        // SAFETY: advancing past the pair just read, inside the list.
        p = unsafe { p.add(2) };
    }
    // The query returns the list as given, terminating zero included.
    out.list.push(0);
    Ok(out)
}

/// Wraps the application's `pfn_notify`.
fn notify_fn(
    pfn_notify: Option<ContextNotify>,
    user_data: *mut c_void,
) -> Option<ferrocl_core::context::NotifyFn> {
    let f = pfn_notify?;
    let user_data = UserData(user_data);
    Some(Box::new(move |message: &str, private: &[u8]| {
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the application gave this callback for exactly this call signature.
        unsafe {
            f(
                message.as_ptr(),
                private.as_ptr().cast(),
                private.len(),
                user_data.get(),
            )
        };
    }))
}

fn make_context(
    properties: ContextProperties,
    devices: Vec<Arc<Device>>,
    pfn_notify: Option<ContextNotify>,
    user_data: *mut c_void,
) -> cl_context {
    let context = Context::new(
        devices,
        properties.list,
        properties.interop_user_sync,
        notify_fn(pfn_notify, user_data),
    );
    new_handle(context)
}

entry! {
    create_context => fn clCreateContext(
        properties: *const cl_context_properties,
        num_devices: cl_uint,
        devices: *const cl_device_id,
        pfn_notify: Option<ContextNotify>,
        user_data: *mut c_void,
        ; errcode_ret
    ) -> cl_context
}

fn create_context(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: Option<ContextNotify>,
    user_data: *mut c_void,
) -> ClResult<cl_context> {
    platform();
    // SAFETY: properties is NULL or, by the spec, a zero-terminated list of name/value pairs.
    let properties = unsafe { context_properties(properties) }?;
    // 4.4: CL_INVALID_VALUE "if devices is NULL", "if num_devices is equal to zero", "if
    // pfn_notify is NULL but user_data is not NULL".
    if devices.is_null() || num_devices == 0 || (pfn_notify.is_none() && !user_data.is_null()) {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: devices is non-NULL (checked above) and, by the spec, holds num_devices handles.
    let mut list = unsafe { get_list::<Device, _>(devices, num_devices) }?;
    // 4.4: "Duplicate devices specified in devices are ignored."
    let mut unique: Vec<Arc<Device>> = Vec::with_capacity(list.len());
    for d in list.drain(..) {
        if !unique.iter().any(|u| Arc::ptr_eq(u, &d)) {
            unique.push(d);
        }
    }
    // 4.4: CL_DEVICE_NOT_AVAILABLE "if a device in devices is currently not available even
    // though the device was returned by clGetDeviceIDs".
    if unique.iter().any(|d| !d.backend().available()) {
        return Err(ClError::DeviceNotAvailable);
    }
    Ok(make_context(properties, unique, pfn_notify, user_data))
}

entry! {
    create_context_from_type => fn clCreateContextFromType(
        properties: *const cl_context_properties,
        device_type: cl_device_type,
        pfn_notify: Option<ContextNotify>,
        user_data: *mut c_void,
        ; errcode_ret
    ) -> cl_context
}

fn create_context_from_type(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: Option<ContextNotify>,
    user_data: *mut c_void,
) -> ClResult<cl_context> {
    let platform = platform();
    // SAFETY: properties is NULL or, by the spec, a zero-terminated list of name/value pairs.
    let properties = unsafe { context_properties(properties) }?;
    if pfn_notify.is_none() && !user_data.is_null() {
        return Err(ClError::InvalidValue);
    }
    let mut count: cl_uint = 0;
    // SAFETY: the pointers are NULL or point at this function's locals, `count` long.
    let code = unsafe {
        crate::api::platform::clGetDeviceIDs(
            platform as *const _ as cl_platform_id,
            device_type,
            0,
            std::ptr::null_mut(),
            &mut count,
        )
    };
    if code != CL_SUCCESS {
        return Err(ClError::from_code(code).unwrap_or(ClError::InvalidValue));
    }
    let mut handles = vec![std::ptr::null_mut(); count as usize];
    // SAFETY: the pointers are NULL or point at this function's locals, `count` long.
    let code = unsafe {
        crate::api::platform::clGetDeviceIDs(
            platform as *const _ as cl_platform_id,
            device_type,
            count,
            handles.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    };
    if code != CL_SUCCESS {
        return Err(ClError::from_code(code).unwrap_or(ClError::InvalidValue));
    }
    // SAFETY: `handles` holds `count` handles.
    let mut devices = unsafe { get_list::<Device, _>(handles.as_ptr(), count) }?;
    // 4.4: CL_DEVICE_NOT_AVAILABLE "if no devices that match device_type and property values
    // specified in properties are currently available"; the context takes those that are.
    devices.retain(|d| d.backend().available());
    if devices.is_empty() {
        return Err(ClError::DeviceNotAvailable);
    }
    Ok(make_context(properties, devices, pfn_notify, user_data))
}

entry! {
    retain_context => fn clRetainContext(context: cl_context) -> cl_int
}

fn retain_context(context: cl_context) -> ClResult<()> {
    handle::retain::<Context, _>(context)
}

entry! {
    release_context => fn clReleaseContext(context: cl_context) -> cl_int
}

fn release_context(context: cl_context) -> ClResult<()> {
    handle::release::<Context, _>(context)
}

entry! {
    get_context_info => fn clGetContextInfo(
        context: cl_context,
        param_name: cl_context_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_context_info(
    context: cl_context,
    param_name: cl_context_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let ctx = get::<Context, _>(context)?;
    let bytes = match param_name {
        CL_CONTEXT_REFERENCE_COUNT => info::of(&handle::ref_count::<Context, _>(context)?),
        CL_CONTEXT_NUM_DEVICES => info::of(&(ctx.devices.len() as cl_uint)),
        CL_CONTEXT_DEVICES => info::of(
            &ctx.devices
                .iter()
                .map(handle::handle_of::<Device, c_void>)
                .collect::<Vec<_>>(),
        ),
        // 4.4: "If the properties argument specified in clCreateContext or
        // clCreateContextFromType used to create context was not NULL, the implementation
        // must return the values specified in the properties argument in the same order
        // and without including additional properties. If the properties argument ... was
        // NULL, the implementation must return param_value_size_ret equal to 0".
        CL_CONTEXT_PROPERTIES => info::of(&ctx.properties),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    set_context_destructor_callback => fn clSetContextDestructorCallback(
        context: cl_context,
        pfn_notify: Option<unsafe extern "C" fn(cl_context,
        *mut c_void)>,
        user_data: *mut c_void,
    ) -> cl_int
}

fn set_context_destructor_callback(
    context: cl_context,
    pfn_notify: Option<unsafe extern "C" fn(cl_context, *mut c_void)>,
    user_data: *mut c_void,
) -> ClResult<()> {
    let ctx = get::<Context, _>(context)?;
    // 4.4: CL_INVALID_VALUE "if pfn_notify is NULL".
    let f = pfn_notify.ok_or(ClError::InvalidValue)?;
    let (handle, user_data) = (UserData(context.cast()), UserData(user_data));
    ctx.add_destructor(Box::new(move || {
        // SAFETY: the application registered this callback with this signature.
        unsafe { f(handle.get().cast(), user_data.get()) }
    }));
    Ok(())
}
