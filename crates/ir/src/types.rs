//! Value types: scalars, vectors and pointers, interned into 16 bits.
//!
//! A `Type` is its own interned handle: the encoding is canonical, so equal types are equal
//! handles and comparing types is comparing two `u16`s. Text forms: `i1 i8 i16 i32 i64 f16 f32
//! f64`, vectors `f32x4`, pointers `ptr.global` (the address space is part of the type).

use std::fmt;

/// The address space a pointer points into (OpenCL C 6.7: the address space qualifiers).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum AddrSpace {
    /// Per-work-item memory: stack slots, function arguments taken by address.
    Private = 0,
    /// Memory objects allocated from the global memory pool.
    Global = 1,
    /// Read-only global memory.
    Constant = 2,
    /// Memory shared by the work-items of a work-group.
    Local = 3,
    /// A pointer to the private, local or global space, resolved at run time.
    Generic = 4,
}

impl AddrSpace {
    /// All address spaces, in encoding order.
    pub const ALL: [AddrSpace; 5] = [
        AddrSpace::Private,
        AddrSpace::Global,
        AddrSpace::Constant,
        AddrSpace::Local,
        AddrSpace::Generic,
    ];

    /// The text form: `private`, `global`, `constant`, `local`, `generic`.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "private",
            AddrSpace::Global => "global",
            AddrSpace::Constant => "constant",
            AddrSpace::Local => "local",
            AddrSpace::Generic => "generic",
        }
    }

    /// The space named `s`, if any.
    pub fn from_name(s: &str) -> Option<AddrSpace> {
        AddrSpace::ALL.into_iter().find(|a| a.name() == s)
    }

    fn from_bits(b: u16) -> Option<AddrSpace> {
        AddrSpace::ALL.get(usize::from(b)).copied()
    }
}

impl fmt::Display for AddrSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const KIND_MASK: u16 = 0xf;
const LANES_SHIFT: u16 = 4;
const LANES_MASK: u16 = 0x1f;
const SPACE_SHIFT: u16 = 9;

const K_I1: u16 = 1;
const K_I8: u16 = 2;
const K_I16: u16 = 3;
const K_I32: u16 = 4;
const K_I64: u16 = 5;
const K_F16: u16 = 6;
const K_F32: u16 = 7;
const K_F64: u16 = 8;
const K_PTR: u16 = 9;

/// The type of a value. Bits 0-3: lane kind; bits 4-8: lane count minus one; bits 9-11: the
/// address space of a pointer.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Type(u16);

impl Type {
    /// A boolean: the result of comparisons, the condition of branches and selects.
    pub const I1: Type = Type(K_I1);
    /// An 8-bit integer (`char`, `uchar`, and `bool` in memory).
    pub const I8: Type = Type(K_I8);
    /// A 16-bit integer.
    pub const I16: Type = Type(K_I16);
    /// A 32-bit integer.
    pub const I32: Type = Type(K_I32);
    /// A 64-bit integer.
    pub const I64: Type = Type(K_I64);
    /// An IEEE-754 binary16 float (`half`).
    pub const F16: Type = Type(K_F16);
    /// An IEEE-754 binary32 float.
    pub const F32: Type = Type(K_F32);
    /// An IEEE-754 binary64 float.
    pub const F64: Type = Type(K_F64);

    /// A pointer into `space`. Pointers are 64 bits wide in every address space.
    pub const fn ptr(space: AddrSpace) -> Type {
        Type(K_PTR | ((space as u16) << SPACE_SHIFT))
    }

    /// The encoded form, for serialization.
    pub fn to_bits(self) -> u16 {
        self.0
    }

    /// Decodes a type, or `None` when `bits` is not a valid encoding.
    pub fn from_bits(bits: u16) -> Option<Type> {
        let kind = bits & KIND_MASK;
        let lanes = ((bits >> LANES_SHIFT) & LANES_MASK) + 1;
        let space = bits >> SPACE_SHIFT;
        if !(K_I1..=K_PTR).contains(&kind) {
            return None;
        }
        if kind == K_PTR {
            let s = AddrSpace::from_bits(space)?;
            return (lanes == 1).then(|| Type::ptr(s));
        }
        if space != 0 {
            return None;
        }
        Type(kind).vector(lanes as u32)
    }

    fn kind(self) -> u16 {
        self.0 & KIND_MASK
    }

    /// The number of lanes: 1 for scalars and pointers.
    pub fn lanes(self) -> u32 {
        u32::from((self.0 >> LANES_SHIFT) & LANES_MASK) + 1
    }

    /// Whether this is a vector type.
    pub fn is_vector(self) -> bool {
        self.lanes() > 1
    }

    /// The type of one lane (the type itself for scalars).
    pub fn lane_type(self) -> Type {
        Type(self.0 & !(LANES_MASK << LANES_SHIFT))
    }

    /// The vector of `lanes` lanes of this scalar type. `None` unless `self` is an integer or
    /// float scalar and `lanes` is 1, 2, 3, 4, 8 or 16 (OpenCL C 6.3.2: built-in vector types).
    pub fn vector(self, lanes: u32) -> Option<Type> {
        if self.is_vector() || self.is_ptr() || !matches!(lanes, 1 | 2 | 3 | 4 | 8 | 16) {
            return None;
        }
        Some(Type(self.0 | ((lanes as u16 - 1) << LANES_SHIFT)))
    }

    /// The same lane count with `lane` as the lane type.
    pub fn with_lane_type(self, lane: Type) -> Option<Type> {
        lane.lane_type().vector(self.lanes())
    }

    /// Whether the lanes are integers (`i1` included).
    pub fn is_int(self) -> bool {
        (K_I1..=K_I64).contains(&self.kind())
    }

    /// Whether the lanes are `i1`.
    pub fn is_bool(self) -> bool {
        self.kind() == K_I1
    }

    /// Whether the lanes are floats.
    pub fn is_float(self) -> bool {
        (K_F16..=K_F64).contains(&self.kind())
    }

    /// Whether this is a pointer.
    pub fn is_ptr(self) -> bool {
        self.kind() == K_PTR
    }

    /// The address space of a pointer type.
    pub fn addr_space(self) -> Option<AddrSpace> {
        if self.is_ptr() {
            AddrSpace::from_bits(self.0 >> SPACE_SHIFT)
        } else {
            None
        }
    }

    /// The width of one lane in bits (`i1` is 1, pointers 64).
    pub fn lane_bits(self) -> u32 {
        match self.kind() {
            K_I1 => 1,
            K_I8 => 8,
            K_I16 | K_F16 => 16,
            K_I32 | K_F32 => 32,
            _ => 64,
        }
    }

    /// The size of a lane in memory, in bytes (`i1` has none: booleans are stored as `i8`).
    pub fn lane_bytes(self) -> u32 {
        self.lane_bits().div_ceil(8)
    }

    /// The size in memory, in bytes. 6.3.5 (6.1.5 in 1.2): "For 3-component vector data
    /// types, the size of the data type is 4 * sizeof(component)."
    pub fn bytes(self) -> u32 {
        let lanes = if self.lanes() == 3 { 4 } else { self.lanes() };
        self.lane_bytes() * lanes
    }

    /// The width of the whole value in bits, as `bitcast` counts it (3 lanes count as 4).
    pub fn bits(self) -> u32 {
        let lanes = if self.lanes() == 3 { 4 } else { self.lanes() };
        self.lane_bits() * lanes
    }

    /// Parses the text form.
    pub fn parse(s: &str) -> Option<Type> {
        if let Some(space) = s.strip_prefix("ptr.") {
            return AddrSpace::from_name(space).map(Type::ptr);
        }
        let (lane, lanes) = match s.split_once('x') {
            Some((l, n)) => (l, n.parse::<u32>().ok()?),
            None => (s, 1),
        };
        let scalar = match lane {
            "i1" => Type::I1,
            "i8" => Type::I8,
            "i16" => Type::I16,
            "i32" => Type::I32,
            "i64" => Type::I64,
            "f16" => Type::F16,
            "f32" => Type::F32,
            "f64" => Type::F64,
            _ => return None,
        };
        if lanes == 1 && s.contains('x') {
            return None;
        }
        scalar.vector(lanes)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(space) = self.addr_space() {
            return write!(f, "ptr.{space}");
        }
        let name = match self.kind() {
            K_I1 => "i1",
            K_I8 => "i8",
            K_I16 => "i16",
            K_I32 => "i32",
            K_I64 => "i64",
            K_F16 => "f16",
            K_F32 => "f32",
            _ => "f64",
        };
        f.write_str(name)?;
        if self.is_vector() {
            write!(f, "x{}", self.lanes())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_and_bits() {
        for bits in 0..=u16::MAX {
            if let Some(t) = Type::from_bits(bits) {
                assert_eq!(t.to_bits(), bits);
                assert_eq!(Type::parse(&t.to_string()), Some(t), "{t}");
            }
        }
        assert_eq!(Type::parse("f32x4"), Type::F32.vector(4));
        assert_eq!(Type::parse("i32x5"), None);
        assert_eq!(Type::parse("i32x1"), None);
        assert_eq!(Type::parse("ptr.local"), Some(Type::ptr(AddrSpace::Local)));
        assert_eq!(Type::ptr(AddrSpace::Global).vector(2), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(Type::F32.vector(3).unwrap().bytes(), 16);
        assert_eq!(Type::I8.vector(16).unwrap().bytes(), 16);
        assert_eq!(Type::ptr(AddrSpace::Local).bytes(), 8);
        assert_eq!(Type::F16.bytes(), 2);
        assert!(Type::I1.vector(4).unwrap().is_bool());
    }
}
