//! The platform: the one `cl_platform_id` ferrocl offers, and the devices it finds.

use std::sync::{Arc, OnceLock};

use crate::device::Device;
use crate::features::{self, NameVersion, Version};
use crate::machine::Machine;
use crate::object::IcdHeader;

/// The ferrocl platform (`cl_platform_id`).
#[repr(C)]
pub struct Platform {
    icd: IcdHeader,
    devices: Vec<Arc<Device>>,
    /// The extensions every device supports.
    extensions: Vec<NameVersion>,
}

static PLATFORM: OnceLock<Platform> = OnceLock::new();

impl Platform {
    /// The platform, built on first use with the devices `devices` makes for this machine
    /// (the library that offers the platform names its devices; the runtime depends on no
    /// device). Later calls return the platform the first one built. Call
    /// [`crate::object::set_dispatch`] before it if its objects are to be handed to an ICD
    /// loader.
    pub fn init(devices: impl FnOnce(&Machine) -> Vec<Device>) -> &'static Platform {
        PLATFORM.get_or_init(|| {
            let machine = Machine::probe();
            let devices: Vec<Arc<Device>> = devices(&machine).into_iter().map(Arc::new).collect();
            // API 3.0, 4.1: CL_PLATFORM_EXTENSIONS lists extensions "supported by all devices
            // associated with this platform" — all of those, here.
            let extensions = devices.first().map_or(Vec::new(), |first| {
                first
                    .info
                    .extensions
                    .iter()
                    .filter(|e| devices.iter().all(|d| d.info.extensions.contains(e)))
                    .copied()
                    .collect()
            });
            Platform {
                icd: IcdHeader::new(),
                devices,
                extensions,
            }
        })
    }

    /// The platform [`Platform::init`] built.
    ///
    /// # Panics
    /// If `init` has not run: the library offering the platform calls it first.
    pub fn get() -> &'static Platform {
        PLATFORM
            .get()
            .expect("Platform::init names the devices before the platform is used")
    }

    pub fn devices(&self) -> &[Arc<Device>] {
        &self.devices
    }

    pub const PROFILE: &'static str = "FULL_PROFILE";
    pub const NAME: &'static str = "ferrocl";
    pub const VENDOR: &'static str = "ferrocl";
    /// The suffix of `clIcdGetPlatformIDsKHR`'s extension functions (`cl_khr_icd`).
    pub const ICD_SUFFIX: &'static str = "ferrocl";

    pub fn version(&self) -> Version {
        features::API_VERSION
    }

    /// `CL_PLATFORM_VERSION`: "OpenCL<space><major.minor><space><platform-specific information>".
    pub fn version_string(&self) -> String {
        let v = self.version();
        format!(
            "OpenCL {}.{} ferrocl {}",
            v.major,
            v.minor,
            env!("CARGO_PKG_VERSION")
        )
    }

    pub fn extensions(&self) -> &[NameVersion] {
        &self.extensions
    }

    /// `CL_PLATFORM_HOST_TIMER_RESOLUTION` in nanoseconds.
    pub fn host_timer_resolution(&self) -> u64 {
        crate::clock::resolution_ns()
    }
}

impl std::fmt::Debug for Platform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Platform")
            .field("devices", &self.devices)
            .finish()
    }
}
