//! The `cl_khr_icd` dispatch table and the extension-function lookup, from one list.
//!
//! An ICD loader calls a function of an object's vendor through the table whose address is
//! the object's first word. Every OpenCL 3.0 core function is in it; the slots of window-system
//! sharing extensions (GL, D3D, DX9, EGL), which ferrocl does not offer, are empty.

use std::ffi::{c_char, c_void, CStr};

use opencl_sys::cl_icd::_cl_icd_dispatch;
use opencl_sys::cl_platform_id;

use crate::api::context::*;
use crate::api::event::*;
use crate::api::image::*;
use crate::api::kernel::*;
use crate::api::memory::*;
use crate::api::pipe::*;
use crate::api::platform::*;
use crate::api::program::*;
use crate::api::queue::*;
use crate::api::svm::*;

macro_rules! dispatch_table {
    (entries: [$($f:ident),* $(,)?], absent: [$($n:ident),* $(,)?], extensions: [$($e:ident),* $(,)?]) => {
        static DISPATCH: _cl_icd_dispatch = _cl_icd_dispatch {
            $($f: Some($f),)*
            $($n: None,)*
            // A slot of OpenCL 3.1; not a function pointer in the 3.0 layout.
            clGetKernelSuggestedLocalWorkSize: 0,
        };

        /// The extension functions `clGetExtensionFunctionAddressForPlatform` hands out.
        fn extension_function(name: &[u8]) -> *mut c_void {
            $(if name == stringify!($e).as_bytes() {
                return $e as *mut c_void;
            })*
            std::ptr::null_mut()
        }
    };
}

dispatch_table! {
    entries: [
        clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo, clCreateContext,
        clCreateContextFromType, clRetainContext, clReleaseContext, clGetContextInfo,
        clCreateCommandQueue, clRetainCommandQueue, clReleaseCommandQueue, clGetCommandQueueInfo,
        clSetCommandQueueProperty, clCreateBuffer, clCreateImage2D, clCreateImage3D,
        clRetainMemObject, clReleaseMemObject, clGetSupportedImageFormats, clGetMemObjectInfo,
        clGetImageInfo, clCreateSampler, clRetainSampler, clReleaseSampler, clGetSamplerInfo,
        clCreateProgramWithSource, clCreateProgramWithBinary, clRetainProgram, clReleaseProgram,
        clBuildProgram, clUnloadCompiler, clGetProgramInfo, clGetProgramBuildInfo, clCreateKernel,
        clCreateKernelsInProgram, clRetainKernel, clReleaseKernel, clSetKernelArg, clGetKernelInfo,
        clGetKernelWorkGroupInfo, clWaitForEvents, clGetEventInfo, clRetainEvent, clReleaseEvent,
        clGetEventProfilingInfo, clFlush, clFinish, clEnqueueReadBuffer, clEnqueueWriteBuffer,
        clEnqueueCopyBuffer, clEnqueueReadImage, clEnqueueWriteImage, clEnqueueCopyImage,
        clEnqueueCopyImageToBuffer, clEnqueueCopyBufferToImage, clEnqueueMapBuffer,
        clEnqueueMapImage, clEnqueueUnmapMemObject, clEnqueueNDRangeKernel, clEnqueueTask,
        clEnqueueNativeKernel, clEnqueueMarker, clEnqueueWaitForEvents, clEnqueueBarrier,
        clGetExtensionFunctionAddress, clSetEventCallback, clCreateSubBuffer,
        clSetMemObjectDestructorCallback, clCreateUserEvent, clSetUserEventStatus,
        clEnqueueReadBufferRect, clEnqueueWriteBufferRect, clEnqueueCopyBufferRect,
        clCreateSubDevices, clRetainDevice, clReleaseDevice, clCreateImage,
        clCreateProgramWithBuiltInKernels, clCompileProgram, clLinkProgram,
        clUnloadPlatformCompiler, clGetKernelArgInfo, clEnqueueFillBuffer, clEnqueueFillImage,
        clEnqueueMigrateMemObjects, clEnqueueMarkerWithWaitList, clEnqueueBarrierWithWaitList,
        clGetExtensionFunctionAddressForPlatform, clCreateCommandQueueWithProperties,
        clCreatePipe, clGetPipeInfo, clSVMAlloc, clSVMFree, clEnqueueSVMFree, clEnqueueSVMMemcpy,
        clEnqueueSVMMemFill, clEnqueueSVMMap, clEnqueueSVMUnmap, clCreateSamplerWithProperties,
        clSetKernelArgSVMPointer, clSetKernelExecInfo, clGetKernelSubGroupInfoKHR, clCloneKernel,
        clCreateProgramWithIL, clEnqueueSVMMigrateMem, clGetDeviceAndHostTimer, clGetHostTimer,
        clGetKernelSubGroupInfo, clSetDefaultDeviceCommandQueue, clSetProgramReleaseCallback,
        clSetProgramSpecializationConstant, clCreateBufferWithProperties,
        clCreateImageWithProperties, clSetContextDestructorCallback,
    ],
    absent: [
        clCreateFromGLBuffer, clCreateFromGLTexture2D, clCreateFromGLTexture3D,
        clCreateFromGLRenderbuffer, clGetGLObjectInfo, clGetGLTextureInfo,
        clEnqueueAcquireGLObjects, clEnqueueReleaseGLObjects, clGetGLContextInfoKHR,
        clGetDeviceIDsFromD3D10KHR, clCreateFromD3D10BufferKHR, clCreateFromD3D10Texture2DKHR,
        clCreateFromD3D10Texture3DKHR, clEnqueueAcquireD3D10ObjectsKHR,
        clEnqueueReleaseD3D10ObjectsKHR, clCreateSubDevicesEXT, clRetainDeviceEXT,
        clReleaseDeviceEXT, clCreateEventFromGLsyncKHR, clCreateFromGLTexture,
        clGetDeviceIDsFromD3D11KHR, clCreateFromD3D11BufferKHR, clCreateFromD3D11Texture2DKHR,
        clCreateFromD3D11Texture3DKHR, clCreateFromDX9MediaSurfaceKHR,
        clEnqueueAcquireD3D11ObjectsKHR, clEnqueueReleaseD3D11ObjectsKHR,
        clGetDeviceIDsFromDX9MediaAdapterKHR, clEnqueueAcquireDX9MediaSurfacesKHR,
        clEnqueueReleaseDX9MediaSurfacesKHR, clCreateFromEGLImageKHR,
        clEnqueueAcquireEGLObjectsKHR, clEnqueueReleaseEGLObjectsKHR, clCreateEventFromEGLSyncKHR,
    ],
    extensions: [clIcdGetPlatformIDsKHR]
}

/// The address every object carries as its first word.
pub fn table_address() -> usize {
    &DISPATCH as *const _cl_icd_dispatch as usize
}

/// 4.5 (extension function access): the address of an extension function by name, or NULL.
///
/// # Safety
/// `func_name` is NULL or a NUL-terminated string.
unsafe fn lookup(func_name: *const c_char) -> *mut c_void {
    if func_name.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the caller's contract.
    extension_function(unsafe { CStr::from_ptr(func_name) }.to_bytes())
}

/// Deprecated since 1.2, still part of the ICD interface.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
    let mut found = std::ptr::null_mut();
    crate::entry::unit("clGetExtensionFunctionAddress", || {
        // SAFETY: the application passes a NUL-terminated name.
        found = unsafe { lookup(func_name) };
    });
    found
}

#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    let mut found = std::ptr::null_mut();
    crate::entry::unit("clGetExtensionFunctionAddressForPlatform", || {
        if check_platform(platform).is_ok() {
            // SAFETY: the application passes a NUL-terminated name.
            found = unsafe { lookup(func_name) };
        }
    });
    found
}
