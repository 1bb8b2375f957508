/// The library's source files, compiled as one translation unit in this order. (Included by
/// the build script too.)
pub const SOURCES: &[(&str, &str)] = &[
    ("common.cl", include_str!("common.cl")),
    ("integer.cl", include_str!("integer.cl")),
    ("misc.cl", include_str!("misc.cl")),
    ("exp_log.cl", include_str!("exp_log.cl")),
    ("trig.cl", include_str!("trig.cl")),
    ("special.cl", include_str!("special.cl")),
    ("image.cl", include_str!("image.cl")),
    ("pipe.cl", include_str!("pipe.cl")),
    ("half.cl", include_str!("half.cl")),
];
