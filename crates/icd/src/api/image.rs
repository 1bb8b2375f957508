//! Chapters 5.3 and 5.7 of the API: image objects (creation, format list, queries), their
//! transfers, copies, fills and maps, and sampler objects.

use std::ffi::c_void;
use std::sync::Arc;

use ferrocl_core::image::{self, image_type, ImageFormat, ImageShape, Sampler};
use ferrocl_core::memory::{flags, Location, Rect};
use ferrocl_core::{ClError, ClResult, Context, HostPtr, MemObject, Work};
use opencl_sys::*;

use crate::api::event::give_event;
use crate::api::event::wait_if_blocking;
use crate::api::memory::{
    check_buffer_flags, check_host_access, command_objects, sub_buffer_flags, submit, triple,
    MAP_FLAGS,
};
use crate::entry::entry;
use crate::handle::{self, get, new_handle};
use crate::info::{self, answer};

const IMAGE_TYPES: [u32; 6] = [
    image_type::IMAGE1D,
    image_type::IMAGE1D_BUFFER,
    image_type::IMAGE1D_ARRAY,
    image_type::IMAGE2D,
    image_type::IMAGE2D_ARRAY,
    image_type::IMAGE3D,
];

/// CL_INVALID_OPERATION "if there are no devices in context that support images".
fn check_image_support(ctx: &Context) -> ClResult<()> {
    if ctx.devices.iter().any(|d| d.info.image_support) {
        Ok(())
    } else {
        Err(ClError::InvalidOperation)
    }
}

/// The image of a memory object handle: CL_INVALID_MEM_OBJECT "if image is not a valid image
/// object".
fn get_image(mem: cl_mem) -> ClResult<Arc<MemObject>> {
    let m = get::<MemObject, _>(mem)?;
    if m.as_image().is_none() {
        return Err(ClError::InvalidMemObject);
    }
    Ok(m)
}

/// What a new image is made of, before the checks.
struct NewImage {
    properties: Option<Vec<u64>>,
    flags: u64,
    format: *const cl_image_format,
    desc: cl_image_desc,
    host_ptr: *mut c_void,
    /// Zero sizes are CL_INVALID_IMAGE_SIZE (clCreateImage2D and 3D) rather than
    /// CL_INVALID_IMAGE_DESCRIPTOR.
    zero_is_size: bool,
}

/// The body of every image constructor (5.3.1).
fn create(context: cl_context, n: NewImage) -> ClResult<cl_mem> {
    let ctx = get::<Context, _>(context)?;
    check_image_support(&ctx)?;
    // CL_INVALID_VALUE "if values specified in flags are not valid" (the buffer rules, and
    // CL_MEM_KERNEL_READ_AND_WRITE).
    let f = check_buffer_flags(n.flags & !flags::KERNEL_READ_AND_WRITE)?
        | (n.flags & flags::KERNEL_READ_AND_WRITE);
    // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR "if values specified in image_format are not valid or
    // if image_format is NULL".
    if n.format.is_null() {
        return Err(ClError::InvalidImageFormatDescriptor);
    }
    // SAFETY: image_format is non-NULL (checked above) and, by the spec, a cl_image_format.
    let raw = unsafe { n.format.read_unaligned() };
    let format = ImageFormat {
        order: raw.image_channel_order,
        data_type: raw.image_channel_data_type,
    };
    let element = match (format.channels(), format.element_size()) {
        (Some(_), Some(e)) => e,
        _ => return Err(ClError::InvalidImageFormatDescriptor),
    };
    let d = &n.desc;
    let shape = ImageShape {
        image_type: d.image_type,
        width: d.image_width,
        height: d.image_height,
        depth: d.image_depth,
        array_size: d.image_array_size,
        row_pitch: d.image_row_pitch,
        slice_pitch: d.image_slice_pitch,
    };
    // CL_INVALID_IMAGE_DESCRIPTOR "if values specified in image_desc are not valid":
    // the type, "num_mip_levels must be 0", "num_samples must be 0".
    if !IMAGE_TYPES.contains(&d.image_type) || d.num_mip_levels != 0 || d.num_samples != 0 {
        return Err(ClError::InvalidImageDescriptor);
    }
    check_sizes(&ctx, &shape, n.zero_is_size)?;
    let buffer = image_buffer(&shape, d.buffer, element)?;
    check_pitches(&shape, element, !n.host_ptr.is_null(), buffer.is_some())?;
    // CL_INVALID_HOST_PTR "if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags".
    let wants_ptr = f & (flags::USE_HOST_PTR | flags::COPY_HOST_PTR) != 0;
    if wants_ptr == n.host_ptr.is_null() {
        return Err(ClError::InvalidHostPtr);
    }
    // CL_IMAGE_FORMAT_NOT_SUPPORTED "if the image_format is not supported".
    if !format.is_supported() {
        return Err(ClError::ImageFormatNotSupported);
    }
    let f = match &buffer {
        Some(b) => image_flags(b.flags, f)?,
        None => f,
    };
    // SAFETY: 5.3.1: host_ptr holds the image's texels with the given pitches: read here with
    // CL_MEM_COPY_HOST_PTR, used for the image's life with CL_MEM_USE_HOST_PTR.
    let host = (!n.host_ptr.is_null()).then(|| unsafe { HostPtr::new(n.host_ptr.cast()) });
    let properties = n.properties.unwrap_or_default();
    let mem = MemObject::new_image(ctx, f, format, shape, host, buffer, properties)?;
    Ok(new_handle(mem))
}

/// CL_INVALID_IMAGE_SIZE "if image dimensions specified in image_desc exceed the maximum
/// image dimensions described in the Device Queries table for all devices in context"; the
/// sizes an image type uses "must be greater than or equal to one".
fn check_sizes(ctx: &Context, shape: &ImageShape, zero_is_size: bool) -> ClResult<()> {
    let [w, h, d] = shape.extent();
    if w == 0 || h == 0 || d == 0 {
        return Err(if zero_is_size {
            ClError::InvalidImageSize
        } else {
            ClError::InvalidImageDescriptor
        });
    }
    let fits = ctx.devices.iter().any(|dev| {
        let l = &dev.info.images;
        match shape.image_type {
            image_type::IMAGE1D_BUFFER => w <= l.image_max_buffer_size,
            image_type::IMAGE1D => w <= l.image2d_max_width,
            image_type::IMAGE1D_ARRAY => w <= l.image2d_max_width && h <= l.image_max_array_size,
            image_type::IMAGE2D => w <= l.image2d_max_width && h <= l.image2d_max_height,
            image_type::IMAGE2D_ARRAY => {
                w <= l.image2d_max_width && h <= l.image2d_max_height && d <= l.image_max_array_size
            }
            _ => w <= l.image3d_max_width && h <= l.image3d_max_height && d <= l.image3d_max_depth,
        }
    });
    if fits {
        Ok(())
    } else {
        Err(ClError::InvalidImageSize)
    }
}

/// The buffer an image is made from (`image_desc->buffer`): 5.3.1, "mem_object can be a
/// buffer memory object if image_type is CL_MEM_OBJECT_IMAGE1D_BUFFER or
/// CL_MEM_OBJECT_IMAGE2D ... Otherwise it must be NULL"; a 1D buffer image needs one. Images
/// made from other images are not offered.
fn image_buffer(
    shape: &ImageShape,
    buffer: cl_mem,
    element: usize,
) -> ClResult<Option<Arc<MemObject>>> {
    let needs = shape.image_type == image_type::IMAGE1D_BUFFER;
    let may = needs || shape.image_type == image_type::IMAGE2D;
    if buffer.is_null() {
        return if needs {
            Err(ClError::InvalidImageDescriptor)
        } else {
            Ok(None)
        };
    }
    if !may {
        return Err(ClError::InvalidImageDescriptor);
    }
    let b = get::<MemObject, _>(buffer).map_err(|_| ClError::InvalidImageDescriptor)?;
    if !b.is_buffer() {
        return Err(ClError::InvalidImageDescriptor);
    }
    // "For a 1D image buffer created from a buffer object, the image_width × size of element
    // in bytes must be ≤ size of the buffer object"; "For a 2D image created from a buffer
    // object, the image_row_pitch × image_height must be ≤ size of the buffer object".
    let (row, _) = shape.pitches(element);
    let bytes = if needs {
        shape.width.checked_mul(element)
    } else {
        row.checked_mul(shape.height)
    };
    if bytes.is_none_or(|n| n > b.size) {
        return Err(ClError::InvalidImageSize);
    }
    Ok(Some(b))
}

/// The flags of an image made from a buffer with `parent`'s flags, checked and inherited as a
/// sub-buffer's are, CL_MEM_KERNEL_READ_AND_WRITE kept. 5.3.1: CL_INVALID_VALUE "if an image
/// is being created from another memory object (buffer or image) under one of the following
/// circumstances: 1) mem_object was created with CL_MEM_WRITE_ONLY and flags specifies
/// CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, 2) mem_object was created with CL_MEM_READ_ONLY and
/// flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, 3) flags specifies
/// CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR"; the flags not given
/// are inherited from mem_object.
fn image_flags(parent: u64, f: u64) -> ClResult<u64> {
    let rw = f & flags::KERNEL_READ_AND_WRITE;
    Ok(sub_buffer_flags(parent, f & !rw)? | rw)
}

/// 5.3.1: "The image_row_pitch must be zero if host_ptr is NULL ... and the image is not a 2D
/// image created from a buffer. If image_row_pitch is non-zero, then it must be greater than
/// or equal to the image_width times the size of an image element in bytes, and must be a
/// multiple of the size of an image element in bytes." "The image_slice_pitch must be zero if
/// host_ptr is NULL"; non-zero, it is at least the row pitch times the height (a 3D image or
/// 2D array) or the row pitch (a 1D array), and a multiple of the row pitch.
fn check_pitches(shape: &ImageShape, element: usize, host: bool, buffer: bool) -> ClResult<()> {
    let bad = ClError::InvalidImageDescriptor;
    if shape.row_pitch != 0 {
        if !host && !buffer {
            return Err(bad);
        }
        let least = shape.width.checked_mul(element).ok_or(bad)?;
        if shape.row_pitch < least || shape.row_pitch % element != 0 {
            return Err(bad);
        }
    }
    if shape.slice_pitch != 0 {
        if !host {
            return Err(bad);
        }
        let (row, _) = shape.pitches(element);
        let least = match shape.image_type {
            image_type::IMAGE1D_ARRAY => row,
            image_type::IMAGE2D_ARRAY | image_type::IMAGE3D => row.saturating_mul(shape.height),
            // Other types ignore it.
            _ => return Ok(()),
        };
        if shape.slice_pitch < least || shape.slice_pitch % row != 0 {
            return Err(bad);
        }
    }
    Ok(())
}

/// A `cl_image_desc` with the given fields and the rest zero.
fn desc(image_type: u32, size: [usize; 3], pitches: [usize; 2]) -> cl_image_desc {
    cl_image_desc {
        image_type,
        image_width: size[0],
        image_height: size[1],
        image_depth: size[2],
        image_array_size: 0,
        image_row_pitch: pitches[0],
        image_slice_pitch: pitches[1],
        num_mip_levels: 0,
        num_samples: 0,
        buffer: std::ptr::null_mut(),
    }
}

/// Reads the application's `cl_image_desc`: CL_INVALID_IMAGE_DESCRIPTOR "if image_desc is
/// NULL".
///
/// # Safety
/// `d` is NULL or a readable `cl_image_desc`.
unsafe fn read_desc(d: *const cl_image_desc) -> ClResult<cl_image_desc> {
    if d.is_null() {
        return Err(ClError::InvalidImageDescriptor);
    }
    // SAFETY: the caller's contract.
    Ok(unsafe { d.read_unaligned() })
}

entry! {
    create_image => fn clCreateImage(
        context: cl_context,
        flags_: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image(
    context: cl_context,
    flags_: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    // clCreateImageWithProperties with NULL properties (which no_properties reads as none).
    create_image_with_properties(
        context,
        std::ptr::null(),
        flags_,
        image_format,
        image_desc,
        host_ptr,
    )
}

entry! {
    create_image_with_properties => fn clCreateImageWithProperties(
        context: cl_context,
        properties: *const cl_mem_properties,
        flags_: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image_with_properties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags_: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    get::<Context, _>(context)?;
    let new = NewImage {
        properties: crate::api::memory::no_properties(properties)?,
        flags: flags_,
        format: image_format,
        // SAFETY: image_desc is NULL or, by the spec, a cl_image_desc.
        desc: unsafe { read_desc(image_desc) }?,
        host_ptr,
        zero_is_size: false,
    };
    create(context, new)
}

entry! {
    create_image2d => fn clCreateImage2D(
        context: cl_context,
        flags_: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_row_pitch: usize,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image2d(
    context: cl_context,
    flags_: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_row_pitch: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    let size = [image_width, image_height, 0];
    let new = NewImage {
        properties: None,
        flags: flags_,
        format: image_format,
        desc: desc(image_type::IMAGE2D, size, [image_row_pitch, 0]),
        host_ptr,
        zero_is_size: true,
    };
    create(context, new)
}

entry! {
    create_image3d => fn clCreateImage3D(
        context: cl_context,
        flags_: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_depth: usize,
        image_row_pitch: usize,
        image_slice_pitch: usize,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image3d(
    context: cl_context,
    flags_: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_depth: usize,
    image_row_pitch: usize,
    image_slice_pitch: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    // 5.3.1 (clCreateImage3D): CL_INVALID_IMAGE_SIZE "if image_depth ≤ 1".
    if image_depth <= 1 {
        get::<Context, _>(context)?;
        return Err(ClError::InvalidImageSize);
    }
    let size = [image_width, image_height, image_depth];
    let new = NewImage {
        properties: None,
        flags: flags_,
        format: image_format,
        desc: desc(
            image_type::IMAGE3D,
            size,
            [image_row_pitch, image_slice_pitch],
        ),
        host_ptr,
        zero_is_size: true,
    };
    create(context, new)
}

entry! {
    get_supported_image_formats => fn clGetSupportedImageFormats(
        context: cl_context,
        flags_: cl_mem_flags,
        image_type_: cl_mem_object_type,
        num_entries: cl_uint,
        image_formats: *mut cl_image_format,
        num_image_formats: *mut cl_uint,
    ) -> cl_int
}

fn get_supported_image_formats(
    context: cl_context,
    flags_: cl_mem_flags,
    image_type_: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> ClResult<()> {
    let ctx = get::<Context, _>(context)?;
    // 5.3.2: CL_INVALID_VALUE "if flags or image_type are not valid, or if num_entries is 0
    // and image_formats is not NULL".
    check_buffer_flags(flags_ & !flags::KERNEL_READ_AND_WRITE)?;
    if !IMAGE_TYPES.contains(&image_type_) || (num_entries == 0 && !image_formats.is_null()) {
        return Err(ClError::InvalidValue);
    }
    // Every format works with every type and access on a device with images.
    let list = if ctx.devices.iter().any(|d| d.info.image_support) {
        image::supported_formats()
    } else {
        Vec::new()
    };
    if !image_formats.is_null() {
        for (i, f) in list.iter().take(num_entries as usize).enumerate() {
            let entry = cl_image_format {
                image_channel_order: f.order,
                image_channel_data_type: f.data_type,
            };
            // SAFETY: image_formats is non-NULL and, by the spec, holds num_entries entries;
            // i < num_entries.
            unsafe { image_formats.add(i).write_unaligned(entry) };
        }
    }
    if !num_image_formats.is_null() {
        // SAFETY: num_image_formats is non-NULL and, by the spec, writable.
        unsafe { num_image_formats.write(list.len() as cl_uint) };
    }
    Ok(())
}

entry! {
    get_image_info => fn clGetImageInfo(
        image: cl_mem,
        param_name: cl_image_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_image_info(
    image: cl_mem,
    param_name: cl_image_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let mem = get_image(image)?;
    let img = mem.as_image().ok_or(ClError::InvalidMemObject)?;
    let t = img.image_type;
    let has_height = !matches!(
        t,
        image_type::IMAGE1D | image_type::IMAGE1D_BUFFER | image_type::IMAGE1D_ARRAY
    );
    let is_array = matches!(t, image_type::IMAGE1D_ARRAY | image_type::IMAGE2D_ARRAY);
    let bytes = match param_name {
        CL_IMAGE_FORMAT => {
            let mut v = info::of(&img.format.order);
            v.extend(info::of(&img.format.data_type));
            v
        }
        CL_IMAGE_ELEMENT_SIZE => info::of(&img.element_size()),
        CL_IMAGE_ROW_PITCH => info::of(&img.row_pitch),
        CL_IMAGE_SLICE_PITCH => info::of(&img.slice_pitch),
        CL_IMAGE_WIDTH => info::of(&img.width),
        // 5.3.7: "For a 1D image, 1D image buffer and 1D image array object, height = 0";
        // "For a 1D image, 1D image buffer, 2D image or 1D and 2D image array object, depth =
        // 0"; the array size is "0 if image is not an image array".
        CL_IMAGE_HEIGHT => info::of(&if has_height { img.height } else { 0 }),
        CL_IMAGE_DEPTH => info::of(&if t == image_type::IMAGE3D {
            img.depth
        } else {
            0
        }),
        CL_IMAGE_ARRAY_SIZE => info::of(&if is_array { img.array_size } else { 0 }),
        CL_IMAGE_BUFFER => info::of(
            &img.buffer
                .as_ref()
                .map_or(std::ptr::null_mut(), handle::handle_of::<MemObject, c_void>),
        ),
        CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => info::of(&0u32),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

/// An origin and region of `image`, read and checked (5.3.3): CL_INVALID_VALUE "if origin or
/// region is NULL", "if the region being read or written specified by origin and region is
/// out of bounds or if ptr is a NULL value", "if values in origin and region do not follow
/// rules described in the argument description for origin and region" (the unused
/// coordinates 0, their sizes 1).
///
/// # Safety
/// `origin` and `region` are NULL or three `size_t`.
unsafe fn image_rect(
    mem: &MemObject,
    origin: *const usize,
    region: *const usize,
) -> ClResult<([usize; 3], [usize; 3])> {
    // SAFETY: the caller's contract.
    let (o, r) = unsafe { (triple(origin)?, triple(region)?) };
    let img = mem.as_image().ok_or(ClError::InvalidMemObject)?;
    img.check_region(o, r)?;
    Ok((o, r))
}

/// The host side's pitches of a read or write (5.3.3): "If row_pitch is set to 0, the
/// appropriate row pitch is calculated based on the size of each element in bytes multiplied
/// by width", "If slice_pitch is set to 0, the appropriate slice pitch is calculated based on
/// the row_pitch × height"; CL_INVALID_VALUE if a pitch given is too small. For a 1D image
/// array the slice pitch is the layer's, the second axis.
fn host_pitches(
    img: &image::Image,
    region: [usize; 3],
    row: usize,
    slice: usize,
) -> ClResult<[usize; 2]> {
    let e = img.element_size();
    let row = if row == 0 { region[0] * e } else { row };
    let one_d_array = img.image_type == image_type::IMAGE1D_ARRAY;
    let layer = if one_d_array { row } else { row * region[1] };
    let slice = if slice == 0 { layer } else { slice };
    if row < region[0] * e || slice < layer {
        return Err(ClError::InvalidValue);
    }
    Ok(if one_d_array {
        [slice, slice]
    } else {
        [row, slice]
    })
}

/// The rectangle of texels `origin`/`region` of an image, as a byte rectangle copy sees it:
/// where it starts, and its rows.
fn image_end(mem: &Arc<MemObject>, origin: [usize; 3]) -> (Location, [usize; 2]) {
    let img = mem.as_image().expect("checked to be an image");
    let s = img.strides();
    (
        Location::Mem(mem.clone(), img.offset_of(origin)),
        [s[1], s[2]],
    )
}

/// The shared body of clEnqueueReadImage and clEnqueueWriteImage.
///
/// # Safety
/// As the entry points'.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer(
    read: bool,
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the caller's contract.
    let (queue, [mem], deps) =
        unsafe { command_objects(command_queue, [image], num_events, events) }?;
    let img = mem.as_image().ok_or(ClError::InvalidMemObject)?;
    // SAFETY: the caller's contract.
    let (o, r) = unsafe { image_rect(&mem, origin, region) }?;
    if ptr.is_null() {
        return Err(ClError::InvalidValue);
    }
    let host_pitch = host_pitches(img, r, row_pitch, slice_pitch)?;
    // CL_INVALID_OPERATION "if clEnqueueReadImage is called on image which has been created
    // with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS" (and writes alike).
    check_host_access(&mem, read, !read)?;
    let region = [r[0] * img.element_size(), r[1], r[2]];
    let (dev, dev_pitch) = image_end(&mem, o);
    // SAFETY: the application keeps ptr valid for the rectangle until the command completes.
    let host = Location::Host(unsafe { HostPtr::new(ptr.cast()) });
    let (work, command_type) = if read {
        let rect = Rect {
            region,
            src_pitch: dev_pitch,
            dst_pitch: host_pitch,
        };
        (
            Work::CopyRect {
                src: dev,
                dst: host,
                rect,
            },
            CL_COMMAND_READ_IMAGE,
        )
    } else {
        let rect = Rect {
            region,
            src_pitch: host_pitch,
            dst_pitch: dev_pitch,
        };
        (
            Work::CopyRect {
                src: host,
                dst: dev,
                rect,
            },
            CL_COMMAND_WRITE_IMAGE,
        )
    };
    // SAFETY: the caller's contract.
    unsafe { submit(&queue, command_type, work, &deps, blocking, event) }
}

entry! {
    enqueue_read_image => fn clEnqueueReadImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_read: cl_bool,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_read_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_read: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the C arguments with the spec's contracts: origin and region of three values,
    // ptr valid for the rectangle until the command completes, the wait list and event as
    // for every enqueue.
    unsafe {
        transfer(
            true,
            command_queue,
            image,
            blocking_read,
            origin,
            region,
            row_pitch,
            slice_pitch,
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

entry! {
    enqueue_write_image => fn clEnqueueWriteImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_write: cl_bool,
        origin: *const usize,
        region: *const usize,
        input_row_pitch: usize,
        input_slice_pitch: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_write_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_write: cl_bool,
    origin: *const usize,
    region: *const usize,
    input_row_pitch: usize,
    input_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: as in clEnqueueReadImage.
    unsafe {
        transfer(
            false,
            command_queue,
            image,
            blocking_write,
            origin,
            region,
            input_row_pitch,
            input_slice_pitch,
            ptr.cast_mut(),
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

/// Whether two texel rectangles of one image share a texel.
fn boxes_overlap(a: [usize; 3], b: [usize; 3], r: [usize; 3]) -> bool {
    (0..3).all(|i| a[i] < b[i] + r[i] && b[i] < a[i] + r[i])
}

entry! {
    enqueue_copy_image => fn clEnqueueCopyImage(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_image: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_image(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [src, dst], deps) = unsafe {
        command_objects(
            command_queue,
            [src_image, dst_image],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    let (si, di) = match (src.as_image(), dst.as_image()) {
        (Some(s), Some(d)) => (s, d),
        _ => return Err(ClError::InvalidMemObject),
    };
    // 5.3.4: CL_IMAGE_FORMAT_MISMATCH "if src_image and dst_image do not use the same image
    // format".
    if si.format != di.format {
        return Err(ClError::ImageFormatMismatch);
    }
    // SAFETY: origins and region are NULL or, by the spec, three values.
    let (so, r) = unsafe { image_rect(&src, src_origin, region) }?;
    // SAFETY: as above.
    let (d_o, _) = unsafe { image_rect(&dst, dst_origin, region) }?;
    // CL_MEM_COPY_OVERLAP "if src_image and dst_image are the same image object and the
    // source and destination regions overlap".
    if Arc::ptr_eq(&src, &dst) && boxes_overlap(so, d_o, r) {
        return Err(ClError::MemCopyOverlap);
    }
    let (s, sp) = image_end(&src, so);
    let (d, dp) = image_end(&dst, d_o);
    let work = Work::CopyRect {
        src: s,
        dst: d,
        rect: Rect {
            region: [r[0] * si.element_size(), r[1], r[2]],
            src_pitch: sp,
            dst_pitch: dp,
        },
    };
    // SAFETY: event is NULL or, by the spec, writable.
    unsafe { submit(&queue, CL_COMMAND_COPY_IMAGE, work, &deps, CL_FALSE, event) }
}

entry! {
    enqueue_fill_image => fn clEnqueueFillImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        fill_color: *const c_void,
        origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_fill_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [mem], deps) = unsafe {
        command_objects(
            command_queue,
            [image],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    let img = mem.as_image().ok_or(ClError::InvalidMemObject)?;
    // 5.3.5: CL_INVALID_VALUE "if fill_color is NULL".
    if fill_color.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: origin and region are NULL or, by the spec, three values.
    let (o, r) = unsafe { image_rect(&mem, origin, region) }?;
    // SAFETY: fill_color is non-NULL and, by the spec, "a four component RGBA floating-point
    // color value if the image channel data type is not an unnormalized signed or unsigned
    // integer type, ... a four component signed integer value ... a four component unsigned
    // integer value": four 32-bit values in every case.
    let color = unsafe { fill_color.cast::<[u32; 4]>().read_unaligned() };
    let texel = img.format.texel(color);
    let target = mem.clone();
    let work = Work::Host(Box::new(move || {
        target.for_host(true)?;
        image::fill(&target, o, r, &texel);
        Ok(())
    }));
    // SAFETY: event is NULL or, by the spec, writable.
    unsafe { submit(&queue, CL_COMMAND_FILL_IMAGE, work, &deps, CL_FALSE, event) }
}

/// The shared body of clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage: `to_buffer`
/// copies from the image.
///
/// # Safety
/// `origin` and `region` are NULL or three values; the wait list and event as for every
/// enqueue.
#[allow(clippy::too_many_arguments)]
unsafe fn image_buffer_copy(
    to_buffer: bool,
    command_queue: cl_command_queue,
    image: cl_mem,
    buffer: cl_mem,
    origin: *const usize,
    region: *const usize,
    offset: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the caller's contract.
    let (queue, [img_mem, buf], deps) =
        unsafe { command_objects(command_queue, [image, buffer], num_events, events) }?;
    let img = img_mem.as_image().ok_or(ClError::InvalidMemObject)?;
    if !buf.is_buffer() {
        return Err(ClError::InvalidMemObject);
    }
    // SAFETY: the caller's contract.
    let (o, r) = unsafe { image_rect(&img_mem, origin, region) }?;
    // 5.3.6: CL_INVALID_VALUE "if the region specified by dst_offset and dst_offset + dst_cb
    // refer to a region outside dst_buffer" (dst_cb = region[0] × region[1] × region[2] ×
    // the element size), and the same of src_offset.
    let e = img.element_size();
    let bytes = r[0] * r[1] * r[2] * e;
    if offset.checked_add(bytes).is_none_or(|end| end > buf.size) {
        return Err(ClError::InvalidValue);
    }
    let (im, ip) = image_end(&img_mem, o);
    let linear = Location::Mem(buf, offset);
    let packed = [r[0] * e, r[0] * e * r[1]];
    let region = [r[0] * e, r[1], r[2]];
    let (work, command_type) = if to_buffer {
        let rect = Rect {
            region,
            src_pitch: ip,
            dst_pitch: packed,
        };
        (
            Work::CopyRect {
                src: im,
                dst: linear,
                rect,
            },
            CL_COMMAND_COPY_IMAGE_TO_BUFFER,
        )
    } else {
        let rect = Rect {
            region,
            src_pitch: packed,
            dst_pitch: ip,
        };
        (
            Work::CopyRect {
                src: linear,
                dst: im,
                rect,
            },
            CL_COMMAND_COPY_BUFFER_TO_IMAGE,
        )
    };
    // SAFETY: the caller's contract.
    unsafe { submit(&queue, command_type, work, &deps, CL_FALSE, event) }
}

entry! {
    enqueue_copy_image_to_buffer => fn clEnqueueCopyImageToBuffer(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        region: *const usize,
        dst_offset: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_image_to_buffer(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the C arguments with the spec's contracts.
    unsafe {
        image_buffer_copy(
            true,
            command_queue,
            src_image,
            dst_buffer,
            src_origin,
            region,
            dst_offset,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

entry! {
    enqueue_copy_buffer_to_image => fn clEnqueueCopyBufferToImage(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_image: cl_mem,
        src_offset: usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_buffer_to_image(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the C arguments with the spec's contracts.
    unsafe {
        image_buffer_copy(
            false,
            command_queue,
            dst_image,
            src_buffer,
            dst_origin,
            region,
            src_offset,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

entry! {
    enqueue_map_image => fn clEnqueueMapImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_map: cl_bool,
        map_flags: cl_map_flags,
        origin: *const usize,
        region: *const usize,
        image_row_pitch: *mut usize,
        image_slice_pitch: *mut usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
        ; errcode_ret
    ) -> *mut c_void
}

fn enqueue_map_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    image_row_pitch: *mut usize,
    image_slice_pitch: *mut usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<*mut c_void> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [mem], deps) = unsafe {
        command_objects(
            command_queue,
            [image],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    let img = mem.as_image().ok_or(ClError::InvalidMemObject)?;
    // SAFETY: origin and region are NULL or, by the spec, three values.
    let (o, r) = unsafe { image_rect(&mem, origin, region) }?;
    // 5.3.8: CL_INVALID_VALUE "if image_row_pitch is NULL", and "if image is a 3D image, 1D
    // or 2D image array object and image_slice_pitch is NULL"; map_flags as for buffers.
    let sliced = matches!(
        img.image_type,
        image_type::IMAGE3D | image_type::IMAGE1D_ARRAY | image_type::IMAGE2D_ARRAY
    );
    if image_row_pitch.is_null() || (sliced && image_slice_pitch.is_null()) {
        return Err(ClError::InvalidValue);
    }
    if map_flags & !MAP_FLAGS != 0
        || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
            && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
    {
        return Err(ClError::InvalidValue);
    }
    let writes = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    check_host_access(&mem, map_flags & CL_MAP_READ != 0, writes)?;
    // The mapped region is the image itself, with its own pitches: from the first texel of
    // the region to one past its last.
    let s = img.strides();
    let start = img.offset_of(o);
    let len = (r[2] - 1) * s[2] + (r[1] - 1) * s[1] + r[0] * s[0];
    let ptr = mem.map(start, len, writes)?;
    // SAFETY: image_row_pitch is non-NULL (checked above) and, by the spec, writable; so is
    // image_slice_pitch when non-NULL.
    unsafe {
        image_row_pitch.write(img.row_pitch);
        if !image_slice_pitch.is_null() {
            image_slice_pitch.write(img.slice_pitch);
        }
    }
    let ev = queue.enqueue(CL_COMMAND_MAP_IMAGE, Work::Map { mem, writes }, &deps)?;
    // SAFETY: the spec's contract on event: NULL or writable.
    unsafe { give_event(event, ev.clone()) };
    wait_if_blocking(&ev, blocking_map)?;
    Ok(ptr as *mut c_void)
}

/// Checks a sampler's modes and makes it (5.7.1): CL_INVALID_VALUE "if the property name in
/// sampler_properties is not a supported property name, if the value specified for a
/// supported property name is not valid"; CL_INVALID_OPERATION "if images are not supported
/// by any device associated with context".
fn new_sampler(
    context: cl_context,
    normalized: u64,
    addressing: u64,
    filter: u64,
    properties: Vec<u64>,
) -> ClResult<cl_sampler> {
    let ctx = get::<Context, _>(context)?;
    if normalized > 1
        || !(u64::from(image::ADDRESS_NONE)..=u64::from(image::ADDRESS_MIRRORED_REPEAT))
            .contains(&addressing)
        || !(u64::from(image::FILTER_NEAREST)..=u64::from(image::FILTER_LINEAR)).contains(&filter)
    {
        return Err(ClError::InvalidValue);
    }
    check_image_support(&ctx)?;
    let s = Sampler::new(
        ctx,
        normalized == 1,
        addressing as u32,
        filter as u32,
        properties,
    );
    Ok(new_handle(s))
}

entry! {
    create_sampler => fn clCreateSampler(
        context: cl_context,
        normalized_coords: cl_bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode,
        ; errcode_ret
    ) -> cl_sampler
}

fn create_sampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
) -> ClResult<cl_sampler> {
    new_sampler(
        context,
        u64::from(normalized_coords),
        u64::from(addressing_mode),
        u64::from(filter_mode),
        Vec::new(),
    )
}

entry! {
    create_sampler_with_properties => fn clCreateSamplerWithProperties(
        context: cl_context,
        sampler_properties: *const cl_sampler_properties,
        ; errcode_ret
    ) -> cl_sampler
}

fn create_sampler_with_properties(
    context: cl_context,
    sampler_properties: *const cl_sampler_properties,
) -> ClResult<cl_sampler> {
    get::<Context, _>(context)?;
    // The defaults (5.7.1): "CL_SAMPLER_NORMALIZED_COORDS ... default CL_TRUE",
    // "CL_SAMPLER_ADDRESSING_MODE ... default CL_ADDRESS_CLAMP", "CL_SAMPLER_FILTER_MODE ...
    // default CL_FILTER_NEAREST".
    let (mut normalized, mut addressing, mut filter) = (1u64, 0x1132u64, 0x1140u64);
    let mut list = Vec::new();
    if !sampler_properties.is_null() {
        let mut seen = Vec::new();
        let mut i = 0;
        loop {
            // SAFETY: sampler_properties is non-NULL and, by the spec, a zero-terminated list
            // of name-value pairs: each name read is before the terminator.
            let name = unsafe { sampler_properties.add(i).read() };
            list.push(name);
            if name == 0 {
                break;
            }
            // SAFETY: as above: a name other than 0 is followed by its value.
            let value = unsafe { sampler_properties.add(i + 1).read() };
            list.push(value);
            // CL_INVALID_VALUE "if the same property name is specified more than once".
            if seen.contains(&name) {
                return Err(ClError::InvalidValue);
            }
            seen.push(name);
            match u32::try_from(name).unwrap_or(0) {
                CL_SAMPLER_NORMALIZED_COORDS => normalized = value,
                CL_SAMPLER_ADDRESSING_MODE => addressing = value,
                CL_SAMPLER_FILTER_MODE => filter = value,
                _ => return Err(ClError::InvalidValue),
            }
            i += 2;
        }
    }
    new_sampler(context, normalized, addressing, filter, list)
}

entry! {
    retain_sampler => fn clRetainSampler(sampler: cl_sampler) -> cl_int
}

fn retain_sampler(sampler: cl_sampler) -> ClResult<()> {
    handle::retain::<Sampler, _>(sampler)
}

entry! {
    release_sampler => fn clReleaseSampler(sampler: cl_sampler) -> cl_int
}

fn release_sampler(sampler: cl_sampler) -> ClResult<()> {
    handle::release::<Sampler, _>(sampler)
}

entry! {
    get_sampler_info => fn clGetSamplerInfo(
        sampler: cl_sampler,
        param_name: cl_sampler_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_sampler_info(
    sampler: cl_sampler,
    param_name: cl_sampler_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let s = get::<Sampler, _>(sampler)?;
    let bytes = match param_name {
        CL_SAMPLER_REFERENCE_COUNT => info::of(&handle::ref_count::<Sampler, _>(sampler)?),
        CL_SAMPLER_CONTEXT => info::of(&handle::handle_of::<Context, c_void>(&s.context)),
        CL_SAMPLER_NORMALIZED_COORDS => info::of(&s.normalized_coords),
        CL_SAMPLER_ADDRESSING_MODE => info::of(&s.addressing_mode),
        CL_SAMPLER_FILTER_MODE => info::of(&s.filter_mode),
        CL_SAMPLER_PROPERTIES => info::of(&s.properties),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

/// The sampler behind a kernel argument's `cl_sampler` (5.9.2: CL_INVALID_SAMPLER "for an
/// argument declared to be of type sampler_t when the specified arg_value is not a valid
/// sampler object"): its bit-field, as the kernel receives it.
pub(crate) fn sampler_arg(handle: cl_sampler) -> ClResult<(Arc<Sampler>, u32)> {
    let s = get::<Sampler, _>(handle)?;
    let bits = s.bits();
    Ok((s, bits))
}
