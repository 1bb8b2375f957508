//! Images (`cl_mem` objects of an image type) and samplers (`cl_sampler`): their formats,
//! layouts and descriptors, the host side of image transfers and fills, and sampler objects.
//!
//! An image is a [`MemObject`] whose `image` field holds an [`Image`]: its format, type,
//! sizes and pitches, and the [`ImageDescriptor`] kernels receive (the kernel ABI,
//! `ferrocl-device`). Its texels are stored like a buffer's bytes: the CPU device's memory is
//! the host's, so transfers are rectangle copies and a mapping is the image itself.

use std::sync::{Arc, Mutex};

use ferrocl_device::{DeviceCopy, ImageDescriptor};

use crate::context::Context;
use crate::device::Device;
use crate::error::{ClError, ClResult};
use crate::memory::{copy, flags, HostPtr, Location, MemObject};
use crate::object::IcdHeader;

/// `cl_channel_order` values.
pub mod order {
    pub const R: u32 = 0x10B0;
    pub const A: u32 = 0x10B1;
    pub const RG: u32 = 0x10B2;
    pub const RA: u32 = 0x10B3;
    pub const RGB: u32 = 0x10B4;
    pub const RGBA: u32 = 0x10B5;
    pub const BGRA: u32 = 0x10B6;
    pub const ARGB: u32 = 0x10B7;
    pub const INTENSITY: u32 = 0x10B8;
    pub const LUMINANCE: u32 = 0x10B9;
}

/// `cl_channel_type` values.
pub mod channel_type {
    pub const SNORM_INT8: u32 = 0x10D0;
    pub const SNORM_INT16: u32 = 0x10D1;
    pub const UNORM_INT8: u32 = 0x10D2;
    pub const UNORM_INT16: u32 = 0x10D3;
    pub const SIGNED_INT8: u32 = 0x10D7;
    pub const SIGNED_INT16: u32 = 0x10D8;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT16: u32 = 0x10DB;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
}

/// `cl_mem_object_type` values of images.
pub mod image_type {
    pub const IMAGE2D: u32 = 0x10F1;
    pub const IMAGE3D: u32 = 0x10F2;
    pub const IMAGE2D_ARRAY: u32 = 0x10F3;
    pub const IMAGE1D: u32 = 0x10F4;
    pub const IMAGE1D_ARRAY: u32 = 0x10F5;
    pub const IMAGE1D_BUFFER: u32 = 0x10F6;
}

/// An image format (`cl_image_format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageFormat {
    pub order: u32,
    pub data_type: u32,
}

use channel_type as ct;

/// Every channel data type of the orders that take them all.
const ALL_TYPES: [u32; 12] = [
    ct::UNORM_INT8,
    ct::UNORM_INT16,
    ct::SNORM_INT8,
    ct::SNORM_INT16,
    ct::SIGNED_INT8,
    ct::SIGNED_INT16,
    ct::SIGNED_INT32,
    ct::UNSIGNED_INT8,
    ct::UNSIGNED_INT16,
    ct::UNSIGNED_INT32,
    ct::HALF_FLOAT,
    ct::FLOAT,
];
/// The 8-bit types (BGRA and ARGB), and the normalized and float types (INTENSITY,
/// LUMINANCE): API 5.3.1.1, "CL_INTENSITY. This format can only be used if channel data type
/// = CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_HALF_FLOAT, or
/// CL_FLOAT", and "CL_ARGB, CL_BGRA ... can only be used if channel data type =
/// CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8 or CL_UNSIGNED_INT8".
const BYTE_TYPES: [u32; 4] = [
    ct::UNORM_INT8,
    ct::SNORM_INT8,
    ct::SIGNED_INT8,
    ct::UNSIGNED_INT8,
];
const NORM_TYPES: [u32; 6] = [
    ct::UNORM_INT8,
    ct::UNORM_INT16,
    ct::SNORM_INT8,
    ct::SNORM_INT16,
    ct::HALF_FLOAT,
    ct::FLOAT,
];

/// The formats the CPU device supports, for every image type and access (a superset of API
/// 5.3.2.1's minimum lists, tables 28 and 29): each order with the types it allows.
pub fn supported_formats() -> Vec<ImageFormat> {
    let groups: [(&[u32], &[u32]); 3] = [
        (
            &[order::R, order::A, order::RG, order::RA, order::RGBA],
            &ALL_TYPES,
        ),
        (&[order::BGRA, order::ARGB], &BYTE_TYPES),
        (&[order::INTENSITY, order::LUMINANCE], &NORM_TYPES),
    ];
    let mut out = Vec::new();
    for (orders, types) in groups {
        for &o in orders {
            for &t in types {
                out.push(ImageFormat {
                    order: o,
                    data_type: t,
                });
            }
        }
    }
    out
}

impl ImageFormat {
    /// Channels per texel, `None` for an order that is no `cl_channel_order`.
    pub fn channels(self) -> Option<u32> {
        Some(match self.order {
            order::R | order::A | order::INTENSITY | order::LUMINANCE => 1,
            order::RG | order::RA => 2,
            order::RGB => 3,
            order::RGBA | order::BGRA | order::ARGB => 4,
            _ => return None,
        })
    }

    /// Bytes per channel, `None` for a type that is no `cl_channel_type` this module knows.
    pub fn channel_size(self) -> Option<u32> {
        Some(match self.data_type {
            ct::SNORM_INT8 | ct::UNORM_INT8 | ct::SIGNED_INT8 | ct::UNSIGNED_INT8 => 1,
            ct::SNORM_INT16
            | ct::UNORM_INT16
            | ct::SIGNED_INT16
            | ct::UNSIGNED_INT16
            | ct::HALF_FLOAT => 2,
            ct::SIGNED_INT32 | ct::UNSIGNED_INT32 | ct::FLOAT => 4,
            _ => return None,
        })
    }

    /// Bytes per texel.
    pub fn element_size(self) -> Option<usize> {
        Some((self.channels()? * self.channel_size()?) as usize)
    }

    /// Whether the device supports the format.
    pub fn is_supported(self) -> bool {
        supported_formats().contains(&self)
    }

    /// The bytes of one texel of `color` (four `float`s, `int`s or `uint`s as the format's
    /// type reads them: `clEnqueueFillImage`'s fill color), converted as API 5.3.5 says:
    /// "The fill color is ... converted to the appropriate image channel format and order
    /// associated with image" (the conversion rules of OpenCL C 8.3).
    pub fn texel(self, color: [u32; 4]) -> Vec<u8> {
        let mut out = Vec::new();
        for c in self.memory_channels() {
            let bits = color[*c];
            let f = f32::from_bits(bits);
            let bytes: Vec<u8> = match self.data_type {
                ct::UNORM_INT8 => vec![sat_round(f * 255.0, 0.0, 255.0) as u8],
                ct::SNORM_INT8 => vec![sat_round(f * 127.0, -128.0, 127.0) as i8 as u8],
                ct::UNORM_INT16 => (sat_round(f * 65535.0, 0.0, 65535.0) as u16)
                    .to_ne_bytes()
                    .to_vec(),
                ct::SNORM_INT16 => (sat_round(f * 32767.0, -32768.0, 32767.0) as i16)
                    .to_ne_bytes()
                    .to_vec(),
                ct::SIGNED_INT8 => vec![(bits as i32).clamp(-128, 127) as i8 as u8],
                ct::SIGNED_INT16 => ((bits as i32).clamp(-32768, 32767) as i16)
                    .to_ne_bytes()
                    .to_vec(),
                ct::UNSIGNED_INT8 => vec![bits.min(255) as u8],
                ct::UNSIGNED_INT16 => (bits.min(65535) as u16).to_ne_bytes().to_vec(),
                ct::SIGNED_INT32 | ct::UNSIGNED_INT32 | ct::FLOAT => bits.to_ne_bytes().to_vec(),
                ct::HALF_FLOAT => half_bits(f).to_ne_bytes().to_vec(),
                _ => Vec::new(),
            };
            out.extend(bytes);
        }
        out
    }

    /// Which component (0 = r ... 3 = a) each channel in memory holds, in memory order.
    fn memory_channels(self) -> &'static [usize] {
        match self.order {
            order::R | order::INTENSITY | order::LUMINANCE => &[0],
            order::A => &[3],
            order::RG => &[0, 1],
            order::RA => &[0, 3],
            order::RGB => &[0, 1, 2],
            order::BGRA => &[2, 1, 0, 3],
            order::ARGB => &[3, 0, 1, 2],
            _ => &[0, 1, 2, 3],
        }
    }
}

/// `x` rounded to the nearest integer (ties to even) and clamped to `[lo, hi]`; NaN is 0
/// (OpenCL C 6.4.3.3: "Conversions to integer ... saturated ... NaN should be converted to
/// 0").
fn sat_round(x: f32, lo: f32, hi: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else {
        x.round_ties_even().clamp(lo, hi)
    }
}

/// The IEEE binary16 bits of `f`, rounded to nearest even.
pub fn half_bits(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let abs = f.abs();
    if abs.is_nan() {
        return sign | 0x7e00;
    }
    if abs >= 65520.0 {
        return sign | 0x7c00;
    }
    if abs < 6.103_515_6e-5 {
        // Subnormal halves: multiples of 2^-24, rounded to nearest even.
        let q = (abs * 16_777_216.0).round_ties_even() as u16;
        return sign | q;
    }
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mant = bits & 0x7f_ffff;
    // 13 bits to drop, rounded to nearest even.
    let mut h = ((exp as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

/// A device's image limits (`CL_DEVICE_IMAGE*`, `CL_DEVICE_MAX_*_IMAGE_ARGS`,
/// `CL_DEVICE_MAX_SAMPLERS`); all 0 on a device without images.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageLimits {
    pub max_read_image_args: u32,
    pub max_write_image_args: u32,
    pub max_read_write_image_args: u32,
    pub max_samplers: u32,
    pub image2d_max_width: usize,
    pub image2d_max_height: usize,
    pub image3d_max_width: usize,
    pub image3d_max_height: usize,
    pub image3d_max_depth: usize,
    pub image_max_buffer_size: usize,
    pub image_max_array_size: usize,
    /// In texels (a power of two).
    pub image_pitch_alignment: u32,
    pub image_base_address_alignment: u32,
}

impl ImageLimits {
    /// The CPU device's limits: API 4.2, Table 5's full-profile minimums (128 read and 64
    /// write image arguments, 16 samplers, 2D images of 16384 x 16384, 3D of 2048 each way,
    /// 65536-texel buffer images, arrays of 2048) or more. Images are host memory, so any
    /// pitch and base address will do: both alignments are one texel.
    pub fn cpu() -> ImageLimits {
        ImageLimits {
            max_read_image_args: 128,
            max_write_image_args: 64,
            max_read_write_image_args: 64,
            max_samplers: 16,
            image2d_max_width: 16384,
            image2d_max_height: 16384,
            image3d_max_width: 2048,
            image3d_max_height: 2048,
            image3d_max_depth: 2048,
            image_max_buffer_size: 1 << 27,
            image_max_array_size: 2048,
            image_pitch_alignment: 1,
            image_base_address_alignment: 1,
        }
    }
}

/// Fills the `region` at `origin` of image `mem` with copies of `texel` (its element size).
pub fn fill(mem: &MemObject, origin: [usize; 3], region: [usize; 3], texel: &[u8]) {
    let Some(image) = mem.as_image() else { return };
    let s = image.strides();
    let base = mem.base().wrapping_add(image.offset_of(origin));
    for z in 0..region[2] {
        for y in 0..region[1] {
            for x in 0..region[0] {
                let at = base.wrapping_add(z * s[2] + y * s[1] + x * s[0]);
                // SAFETY: the caller checked the region against the image's extent, so every
                // texel lies inside the image's storage; `texel` is our own bytes.
                unsafe { std::ptr::copy_nonoverlapping(texel.as_ptr(), at, texel.len()) };
            }
        }
    }
}

/// What an image memory object is beyond its bytes.
#[derive(Debug)]
pub struct Image {
    pub format: ImageFormat,
    pub image_type: u32,
    pub width: usize,
    /// 1 for 1D images, as the descriptor holds it (`CL_IMAGE_HEIGHT` reports 0).
    pub height: usize,
    /// 1 but for 3D images (`CL_IMAGE_DEPTH` reports 0).
    pub depth: usize,
    /// 0 but for image arrays.
    pub array_size: usize,
    pub row_pitch: usize,
    /// The bytes of a 2D slice, or of one image of an array; 0 for 1D and 2D images.
    pub slice_pitch: usize,
    /// The buffer of a 1D buffer image or a 2D image made from a buffer (`CL_IMAGE_BUFFER`).
    pub buffer: Option<Arc<MemObject>>,
    /// What kernels receive: its address is the argument's value.
    descriptor: Box<ImageDescriptor>,
    /// Its copies in the memory of devices with memory of their own (a GPU's), each with the
    /// address of the image's bytes there.
    device_descriptors: Mutex<Vec<DeviceDescriptor>>,
}

/// An image's descriptor in a device's memory.
#[derive(Debug)]
struct DeviceDescriptor {
    device: Arc<Device>,
    copy: DeviceCopy,
    /// The `data` it holds.
    data: u64,
}

/// The sizes and pitches of a new image, as `cl_image_desc` gives them, checked by the caller.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImageShape {
    pub image_type: u32,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    /// 0: the image's own, computed.
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl ImageShape {
    /// Sizes along the three axes of an origin or region: texels, then rows or layers, then
    /// slices or layers.
    pub fn extent(&self) -> [usize; 3] {
        match self.image_type {
            image_type::IMAGE1D | image_type::IMAGE1D_BUFFER => [self.width, 1, 1],
            image_type::IMAGE1D_ARRAY => [self.width, self.array_size, 1],
            image_type::IMAGE2D => [self.width, self.height, 1],
            image_type::IMAGE2D_ARRAY => [self.width, self.height, self.array_size],
            _ => [self.width, self.height, self.depth],
        }
    }

    /// The row and slice pitches the layout has with `element` bytes per texel: those given,
    /// or the tightly packed ones. 5.3.1: for a 1D image array the slice pitch is "the size of
    /// each 1D image in bytes"; for a 2D image "image_slice_pitch must be 0".
    pub fn pitches(&self, element: usize) -> (usize, usize) {
        let row = if self.row_pitch == 0 {
            self.width * element
        } else {
            self.row_pitch
        };
        let slice = match self.image_type {
            image_type::IMAGE1D_ARRAY if self.slice_pitch == 0 => row,
            image_type::IMAGE2D_ARRAY | image_type::IMAGE3D if self.slice_pitch == 0 => {
                row * self.height
            }
            image_type::IMAGE1D_ARRAY | image_type::IMAGE2D_ARRAY | image_type::IMAGE3D => {
                self.slice_pitch
            }
            _ => 0,
        };
        (row, slice)
    }

    /// Whether the image has a dimension of layers or slices (a stride of `slice_pitch`).
    fn has_slices(&self) -> bool {
        matches!(
            self.image_type,
            image_type::IMAGE1D_ARRAY | image_type::IMAGE2D_ARRAY | image_type::IMAGE3D
        )
    }

    /// The bytes the layout spans with these pitches.
    pub fn bytes(&self, element: usize, (row, slice): (usize, usize)) -> usize {
        let [w, h, d] = self.extent();
        if self.image_type == image_type::IMAGE1D_ARRAY {
            return slice * (h - 1) + w * element;
        }
        if self.has_slices() {
            slice * (d - 1) + row * (h - 1) + w * element
        } else {
            row * (h - 1) + w * element
        }
    }
}

/// The byte strides of the three axes of an origin or region of an image of `image_type`
/// with these texel size and pitches: a 1D image array's layers are `slice` apart (its second
/// axis), a 2D array's and a 3D image's `slice` (the third).
fn axis_strides(image_type: u32, element: usize, (row, slice): (usize, usize)) -> [usize; 3] {
    match image_type {
        image_type::IMAGE1D_ARRAY => [element, slice, slice],
        _ => [element, row, slice.max(row)],
    }
}

impl Image {
    /// The byte strides of the three axes of an origin or region.
    pub fn strides(&self) -> [usize; 3] {
        axis_strides(
            self.image_type,
            self.element_size(),
            (self.row_pitch, self.slice_pitch),
        )
    }

    pub fn element_size(&self) -> usize {
        self.format.element_size().unwrap_or(1)
    }

    /// Sizes along the three axes of an origin or region.
    pub fn extent(&self) -> [usize; 3] {
        self.shape().extent()
    }

    fn shape(&self) -> ImageShape {
        ImageShape {
            image_type: self.image_type,
            width: self.width,
            height: self.height,
            depth: self.depth,
            array_size: self.array_size,
            row_pitch: self.row_pitch,
            slice_pitch: self.slice_pitch,
        }
    }

    /// The byte offset of texel `origin`.
    pub fn offset_of(&self, origin: [usize; 3]) -> usize {
        let s = self.strides();
        origin[0] * s[0] + origin[1] * s[1] + origin[2] * s[2]
    }

    /// The address of the descriptor kernels receive, valid while the image lives.
    pub fn descriptor_addr(&self) -> u64 {
        &*self.descriptor as *const ImageDescriptor as u64
    }

    /// The address of the descriptor kernels on `device` (which has memory of its own)
    /// receive, whose image bytes are at `data` there: made and uploaded on first use.
    pub fn device_descriptor_addr(&self, device: &Arc<Device>, data: u64) -> ClResult<u64> {
        let memory = device.backend().memory().ok_or(ClError::InvalidDevice)?;
        let mut copies = self
            .device_descriptors
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let i = match copies.iter().position(|c| Arc::ptr_eq(&c.device, device)) {
            Some(i) => i,
            None => {
                let size = std::mem::size_of::<ImageDescriptor>();
                copies.push(DeviceDescriptor {
                    device: device.clone(),
                    copy: memory.allocate(size)?,
                    data: 0,
                });
                copies.len() - 1
            }
        };
        let c = &mut copies[i];
        if c.data != data || data == 0 {
            let descriptor = ImageDescriptor {
                data,
                ..*self.descriptor
            };
            let bytes = (&descriptor as *const ImageDescriptor).cast::<u8>();
            // SAFETY: the copy holds one descriptor; `bytes` is this one's.
            unsafe { memory.upload(c.copy.addr(), bytes, std::mem::size_of::<ImageDescriptor>()) }?;
            c.data = data;
        }
        Ok(c.copy.addr())
    }

    /// Checks an origin and region of this image against its extent. API 5.3.3:
    /// CL_INVALID_VALUE "if the region being read or written specified by origin and region is
    /// out of bounds", "if values in origin and region do not follow rules described in the
    /// argument description" (the unused coordinates 0 and region sizes 1), or "if any region
    /// array element is 0".
    pub fn check_region(&self, origin: [usize; 3], region: [usize; 3]) -> ClResult<()> {
        let extent = self.extent();
        for axis in 0..3 {
            if region[axis] == 0
                || origin[axis]
                    .checked_add(region[axis])
                    .is_none_or(|end| end > extent[axis])
            {
                return Err(ClError::InvalidValue);
            }
        }
        Ok(())
    }
}

impl MemObject {
    /// The image this object is, if it is one.
    pub fn as_image(&self) -> Option<&Image> {
        self.image.as_deref()
    }

    /// A new image of `format` and `shape` (checked by the caller against the spec's rules and
    /// the device's limits). With `buffer`, the image's texels are that buffer's bytes (a 1D
    /// buffer image, or a 2D image from a buffer); with `CL_MEM_USE_HOST_PTR` they are the
    /// application's memory, with its pitches; otherwise a new allocation, packed, filled from
    /// `host_ptr` with `CL_MEM_COPY_HOST_PTR`.
    pub fn new_image(
        context: Arc<Context>,
        mem_flags: u64,
        format: ImageFormat,
        shape: ImageShape,
        host_ptr: Option<HostPtr>,
        buffer: Option<Arc<MemObject>>,
        properties: Vec<u64>,
    ) -> ClResult<Arc<MemObject>> {
        let element = format
            .element_size()
            .ok_or(ClError::ImageFormatNotSupported)?;
        // The layout has the pitches the application gave (API 5.3.7: CL_IMAGE_ROW_PITCH and
        // CL_IMAGE_SLICE_PITCH return "the value provided ... by the application", else the
        // packed ones), so CL_MEM_USE_HOST_PTR is zero-copy and CL_MEM_COPY_HOST_PTR one copy.
        let (row, slice) = shape.pitches(element);
        let size = shape.bytes(element, (row, slice));
        let mem = match &buffer {
            Some(b) => MemObject::new_sub_buffer(b, mem_flags, 0, size),
            None => MemObject::new_buffer(
                context,
                mem_flags & !flags::COPY_HOST_PTR,
                size,
                host_ptr.filter(|_| mem_flags & flags::USE_HOST_PTR != 0),
                Vec::new(),
            )?,
        };
        if let Some(host) = host_ptr.filter(|_| mem_flags & flags::COPY_HOST_PTR != 0) {
            // 5.3.1: host_ptr holds the image's texels with these pitches: `size` bytes from the
            // first texel to one past the last.
            copy(
                &Location::Host(host),
                &Location::Mem(mem.clone(), 0),
                size,
                None,
            )?;
        }
        let descriptor = Box::new(ImageDescriptor {
            data: mem.base() as u64,
            width: shape.width as u32,
            height: shape.height.max(1) as u32,
            depth: shape.depth.max(1) as u32,
            array_size: shape.array_size as u32,
            row_pitch: row as u64,
            slice_pitch: slice as u64,
            channel_order: format.order,
            channel_data_type: format.data_type,
            element_size: element as u32,
            num_channels: format.channels().unwrap_or(1),
            image_type: shape.image_type,
            reserved: 0,
        });
        let image = Image {
            format,
            image_type: shape.image_type,
            width: shape.width,
            height: shape.height.max(1),
            depth: shape.depth.max(1),
            array_size: shape.array_size,
            row_pitch: row,
            slice_pitch: slice,
            buffer,
            descriptor,
            device_descriptors: Mutex::new(Vec::new()),
        };
        Ok(mem.into_image(image, mem_flags, properties))
    }
}

/// A sampler (`cl_sampler`).
#[repr(C)]
#[derive(Debug)]
pub struct Sampler {
    icd: IcdHeader,
    pub context: Arc<Context>,
    pub normalized_coords: bool,
    /// `cl_addressing_mode` (`CL_ADDRESS_NONE` 0x1130 ... `CL_ADDRESS_MIRRORED_REPEAT` 0x1134).
    pub addressing_mode: u32,
    /// `cl_filter_mode` (`CL_FILTER_NEAREST` 0x1140, `CL_FILTER_LINEAR` 0x1141).
    pub filter_mode: u32,
    /// `CL_SAMPLER_PROPERTIES`, with the terminating zero; empty when none were given.
    pub properties: Vec<u64>,
}

/// `CL_ADDRESS_NONE`, the first addressing mode.
pub const ADDRESS_NONE: u32 = 0x1130;
/// `CL_ADDRESS_MIRRORED_REPEAT`, the last one.
pub const ADDRESS_MIRRORED_REPEAT: u32 = 0x1134;
/// `CL_ADDRESS_REPEAT`.
pub const ADDRESS_REPEAT: u32 = 0x1133;
pub const FILTER_NEAREST: u32 = 0x1140;
pub const FILTER_LINEAR: u32 = 0x1141;

impl Sampler {
    /// A sampler with modes the caller checked.
    pub fn new(
        context: Arc<Context>,
        normalized_coords: bool,
        addressing_mode: u32,
        filter_mode: u32,
        properties: Vec<u64>,
    ) -> Arc<Sampler> {
        Arc::new(Sampler {
            icd: IcdHeader::new(),
            context,
            normalized_coords,
            addressing_mode,
            filter_mode,
            properties,
        })
    }

    /// The sampler as kernels see it (the kernel ABI's `ArgKind::Sampler`): OpenCL C's
    /// `CLK_NORMALIZED_COORDS_TRUE` (1) | `CLK_ADDRESS_*` (0, 2, 4, 6, 8 for none,
    /// clamp-to-edge, clamp, repeat, mirrored repeat) | `CLK_FILTER_*` (0x10, 0x20).
    pub fn bits(&self) -> u32 {
        u32::from(self.normalized_coords)
            | ((self.addressing_mode - ADDRESS_NONE) * 2)
            | (0x10 << (self.filter_mode - FILTER_NEAREST))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversion_rounds_to_nearest_even() {
        assert_eq!(half_bits(1.0), 0x3c00);
        assert_eq!(half_bits(-2.0), 0xc000);
        assert_eq!(half_bits(65504.0), 0x7bff);
        // Halfway between 65504 and 65536 (infinity) rounds to even: infinity.
        assert_eq!(half_bits(65520.0), 0x7c00);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to the even 1.
        assert_eq!(half_bits(1.0 + f32::powi(2.0, -11)), 0x3c00);
        assert_eq!(half_bits(1.0 + 3.0 * f32::powi(2.0, -11)), 0x3c02);
        // The smallest subnormal half, and half of it (a tie, to even: 0).
        assert_eq!(half_bits(f32::powi(2.0, -24)), 0x0001);
        assert_eq!(half_bits(f32::powi(2.0, -25)), 0x0000);
        assert_eq!(half_bits(f32::NAN) & 0x7e00, 0x7e00);
    }

    #[test]
    fn fill_colors_convert_as_8_3_says() {
        let f = |x: f32| x.to_bits();
        let bgra = ImageFormat {
            order: order::BGRA,
            data_type: channel_type::UNORM_INT8,
        };
        // r, g, b, a = 1.0, 0.5, 0.0, 2.0 (saturated): stored b, g, r, a.
        assert_eq!(
            bgra.texel([f(1.0), f(0.5), f(0.0), f(2.0)]),
            vec![0, 128, 255, 255]
        );
        let snorm = ImageFormat {
            order: order::R,
            data_type: channel_type::SNORM_INT16,
        };
        assert_eq!(snorm.texel([f(-1.5), 0, 0, 0]), (-32768i16).to_ne_bytes());
        let sint = ImageFormat {
            order: order::RG,
            data_type: channel_type::SIGNED_INT8,
        };
        assert_eq!(sint.texel([(-300i32) as u32, 5, 0, 0]), vec![0x80, 5]);
    }

    #[test]
    fn sampler_bits_are_the_language_constants() {
        let context = Context::new(Vec::new(), Vec::new(), false, None);
        let bits = |n, a, f| Sampler::new(context.clone(), n, a, f, Vec::new()).bits();
        // CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR = 1 | 6 | 0x20.
        assert_eq!(bits(true, ADDRESS_REPEAT, FILTER_LINEAR), 0x27);
        // CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST.
        assert_eq!(bits(false, ADDRESS_NONE, FILTER_NEAREST), 0x10);
        // CLK_ADDRESS_MIRRORED_REPEAT is 8.
        assert_eq!(bits(true, ADDRESS_MIRRORED_REPEAT, FILTER_NEAREST), 0x19);
    }

    #[test]
    fn the_minimum_formats_are_supported() {
        // API 5.3.2.1, table 28.
        for t in [
            channel_type::UNORM_INT8,
            channel_type::UNORM_INT16,
            channel_type::SIGNED_INT8,
            channel_type::SIGNED_INT16,
            channel_type::SIGNED_INT32,
            channel_type::UNSIGNED_INT8,
            channel_type::UNSIGNED_INT16,
            channel_type::UNSIGNED_INT32,
            channel_type::HALF_FLOAT,
            channel_type::FLOAT,
        ] {
            assert!(ImageFormat {
                order: order::RGBA,
                data_type: t
            }
            .is_supported());
        }
        assert!(ImageFormat {
            order: order::BGRA,
            data_type: channel_type::UNORM_INT8
        }
        .is_supported());
    }
}
