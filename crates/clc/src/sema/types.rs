//! The OpenCL C type system (OpenCL C 6.3): scalars, vectors of 2/3/4/8/16 lanes, pointers
//! whose pointee carries qualifiers and an address space, arrays, records, enums, functions
//! and the opaque OpenCL types. Types are interned: equal types have equal [`TypeId`]s.

use crate::hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl Scalar {
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        ) || self.is_float()
    }
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool | Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            Scalar::Long | Scalar::ULong | Scalar::Double => 8,
        }
    }
    /// Conversion rank (C99 6.3.1.1); floats rank above every integer.
    pub fn rank(self) -> u32 {
        match self {
            Scalar::Bool => 0,
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort => 2,
            Scalar::Int | Scalar::UInt => 3,
            Scalar::Long | Scalar::ULong => 4,
            Scalar::Half => 5,
            Scalar::Float => 6,
            Scalar::Double => 7,
        }
    }
    pub fn to_unsigned(self) -> Scalar {
        match self {
            Scalar::Char => Scalar::UChar,
            Scalar::Short => Scalar::UShort,
            Scalar::Int => Scalar::UInt,
            Scalar::Long => Scalar::ULong,
            s => s,
        }
    }
    pub fn to_signed(self) -> Scalar {
        match self {
            Scalar::UChar => Scalar::Char,
            Scalar::UShort => Scalar::Short,
            Scalar::UInt => Scalar::Int,
            Scalar::ULong => Scalar::Long,
            s => s,
        }
    }
    /// The signed integer type of the same size (for relational results and masks).
    pub fn same_size_int(self) -> Scalar {
        match self.size() {
            1 => Scalar::Char,
            2 => Scalar::Short,
            4 => Scalar::Int,
            _ => Scalar::Long,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }
    pub const ALL_INT: [Scalar; 8] = [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
    ];
    pub const ALL_FLOAT: [Scalar; 3] = [Scalar::Float, Scalar::Double, Scalar::Half];
}

/// Vector lane counts OpenCL C allows (6.3.2).
pub const LANES: [u8; 5] = [2, 3, 4, 8, 16];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum AddrSpace {
    #[default]
    Private,
    Global,
    Local,
    Constant,
    Generic,
}

impl AddrSpace {
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Local => "__local",
            AddrSpace::Constant => "__constant",
            AddrSpace::Generic => "__generic",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    D1,
    D1Array,
    D1Buffer,
    D2,
    D2Array,
    D3,
    D2Depth,
    D2ArrayDepth,
}

impl ImageDim {
    pub fn name(self) -> &'static str {
        match self {
            ImageDim::D1 => "image1d_t",
            ImageDim::D1Array => "image1d_array_t",
            ImageDim::D1Buffer => "image1d_buffer_t",
            ImageDim::D2 => "image2d_t",
            ImageDim::D2Array => "image2d_array_t",
            ImageDim::D3 => "image3d_t",
            ImageDim::D2Depth => "image2d_depth_t",
            ImageDim::D2ArrayDepth => "image2d_array_depth_t",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TypeId(pub u32);

/// Qualifiers of an object type; `space` is where the object lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct QualType {
    pub ty: TypeId,
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    pub space: AddrSpace,
}

impl QualType {
    pub fn new(ty: TypeId) -> Self {
        QualType {
            ty,
            ..Default::default()
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    Pointer(QualType),
    /// Element type and length (`None`: unknown, e.g. `extern int a[]`).
    Array(QualType, Option<u64>),
    Record(u32),
    Enum(u32),
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
        variadic: bool,
    },
    /// Image type with its access qualifier (read_only when none is written, 6.8).
    Image(ImageDim, crate::parse::ast::Access),
    Sampler,
    Event,
    ClkEvent,
    Queue,
    ReserveId,
    NdRange,
    Pipe(TypeId, crate::parse::ast::Access),
    Atomic(Scalar),
    AtomicFlag,
    /// A block reference (6.14): result and parameter types.
    Block {
        ret: TypeId,
        params: Vec<TypeId>,
    },
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: Option<u32>,
    pub ty: QualType,
    pub offset: u64,
    /// `__attribute__((aligned(N)))` on the field (6.13.3).
    pub align: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct Record {
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub complete: bool,
    pub size: u64,
    pub align: u64,
    pub packed: bool,
    /// An anonymous record named by a typedef: shown by that name alone.
    pub typedef_named: bool,
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    pub name: String,
    pub complete: bool,
}

/// The interning table of one compilation.
#[derive(Debug, Default)]
pub struct Types {
    list: Vec<Type>,
    map: FxHashMap<Type, TypeId>,
    pub records: Vec<Record>,
    pub enums: Vec<EnumDef>,
    pub pointer_size: u64,
}

impl Types {
    pub fn new(pointer_size: u64) -> Self {
        let mut t = Types {
            pointer_size,
            ..Default::default()
        };
        t.intern(Type::Void);
        t
    }
    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(&id) = self.map.get(&ty) {
            return id;
        }
        let id = TypeId(self.list.len() as u32);
        self.list.push(ty.clone());
        self.map.insert(ty, id);
        id
    }
    pub fn get(&self, id: TypeId) -> &Type {
        &self.list[id.0 as usize]
    }
    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }
    pub fn scalar(&mut self, s: Scalar) -> TypeId {
        self.intern(Type::Scalar(s))
    }
    pub fn vector(&mut self, s: Scalar, n: u8) -> TypeId {
        if n == 1 {
            self.scalar(s)
        } else {
            self.intern(Type::Vector(s, n))
        }
    }
    pub fn pointer(&mut self, q: QualType) -> TypeId {
        self.intern(Type::Pointer(q))
    }
    pub fn int(&mut self) -> TypeId {
        self.scalar(Scalar::Int)
    }
    pub fn size_t(&mut self) -> TypeId {
        let s = if self.pointer_size == 4 {
            Scalar::UInt
        } else {
            Scalar::ULong
        };
        self.scalar(s)
    }
    pub fn ptrdiff_t(&mut self) -> TypeId {
        let s = if self.pointer_size == 4 {
            Scalar::Int
        } else {
            Scalar::Long
        };
        self.scalar(s)
    }

    /// Scalar element and lane count of arithmetic types (lanes 1 for scalars).
    pub fn arith(&self, id: TypeId) -> Option<(Scalar, u8)> {
        match self.get(id) {
            Type::Scalar(s) => Some((*s, 1)),
            Type::Vector(s, n) => Some((*s, *n)),
            // Enumerations are compatible with int (C99 6.7.2.2p4; clang picks int too).
            Type::Enum(_) => Some((Scalar::Int, 1)),
            _ => None,
        }
    }
    pub fn is_scalar_arith(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Scalar(_) | Type::Enum(_))
    }
    pub fn is_vector(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Vector(..))
    }
    pub fn is_pointer(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Pointer(_))
    }
    pub fn is_integer(&self, id: TypeId) -> bool {
        self.arith(id).is_some_and(|(s, _)| s.is_integer())
    }
    pub fn is_void(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Void)
    }
    pub fn pointee(&self, id: TypeId) -> Option<QualType> {
        match self.get(id) {
            Type::Pointer(q) => Some(*q),
            _ => None,
        }
    }
    /// Scalar types for conditions: arithmetic scalars and pointers.
    pub fn is_scalar(&self, id: TypeId) -> bool {
        self.is_scalar_arith(id) || self.is_pointer(id)
    }

    /// Size in bytes (3-lane vectors take the space of 4, 6.3.5); `None` for incomplete or
    /// opaque types.
    pub fn size_of(&self, id: TypeId) -> Option<u64> {
        Some(match self.get(id) {
            Type::Void => return None,
            Type::Scalar(s) => s.size() as u64,
            Type::Vector(s, n) => s.size() as u64 * if *n == 3 { 4 } else { *n as u64 },
            Type::Pointer(_) => self.pointer_size,
            Type::Array(e, Some(n)) => self.size_of(e.ty)?.checked_mul(*n)?,
            Type::Array(_, None) => return None,
            Type::Record(r) => {
                let r = &self.records[*r as usize];
                if !r.complete {
                    return None;
                }
                r.size
            }
            Type::Enum(_) => 4,
            Type::Function { .. } | Type::Block { .. } => return None,
            Type::Atomic(s) => s.size() as u64,
            Type::AtomicFlag => 4,
            Type::Event | Type::ClkEvent | Type::Queue | Type::ReserveId | Type::NdRange => {
                self.pointer_size
            }
            Type::Image(..) | Type::Sampler | Type::Pipe(..) => self.pointer_size,
        })
    }
    pub fn align_of(&self, id: TypeId) -> Option<u64> {
        Some(match self.get(id) {
            Type::Array(e, _) => self.align_of(e.ty)?,
            Type::Record(r) => self.records[*r as usize].align,
            _ => self.size_of(id)?,
        })
    }

    /// The type as OpenCL C spells it (for messages and kernel argument type names).
    pub fn name(&self, id: TypeId) -> String {
        match self.get(id) {
            Type::Void => "void".into(),
            Type::Scalar(s) => s.name().into(),
            Type::Vector(s, n) => format!("{}{}", s.name(), n),
            Type::Pointer(q) => {
                let inner = self.qual_name(*q);
                if matches!(self.get(q.ty), Type::Pointer(_)) {
                    format!("{inner}*")
                } else {
                    format!("{inner} *")
                }
            }
            Type::Array(e, n) => match n {
                Some(n) => format!("{}[{}]", self.qual_name(*e), n),
                None => format!("{}[]", self.qual_name(*e)),
            },
            Type::Record(r) => {
                let r = &self.records[*r as usize];
                if r.typedef_named {
                    return r.name.clone();
                }
                format!("{} {}", if r.is_union { "union" } else { "struct" }, r.name)
            }
            Type::Enum(e) => format!("enum {}", self.enums[*e as usize].name),
            Type::Function {
                ret,
                params,
                variadic,
            } => {
                let mut p: Vec<String> = params.iter().map(|t| self.name(*t)).collect();
                if *variadic {
                    p.push("...".into());
                }
                if p.is_empty() {
                    p.push("void".into());
                }
                format!("{} ({})", self.name(*ret), p.join(", "))
            }
            Type::Image(d, a) => format!("__{} {}", a.spelling(), d.name()),
            Type::Sampler => "sampler_t".into(),
            Type::Event => "event_t".into(),
            Type::ClkEvent => "clk_event_t".into(),
            Type::Queue => "queue_t".into(),
            Type::ReserveId => "reserve_id_t".into(),
            Type::NdRange => "ndrange_t".into(),
            Type::Pipe(t, a) => format!("__{} pipe {}", a.spelling(), self.name(*t)),
            Type::Atomic(s) => format!("atomic_{}", s.name()),
            Type::Block { ret, params } => {
                let mut p: Vec<String> = params.iter().map(|t| self.name(*t)).collect();
                if p.is_empty() {
                    p.push("void".into());
                }
                format!("{} (^)({})", self.name(*ret), p.join(", "))
            }
            Type::AtomicFlag => "atomic_flag".into(),
        }
    }

    pub fn qual_name(&self, q: QualType) -> String {
        let mut s = String::new();
        if q.is_const {
            s.push_str("const ");
        }
        if q.is_volatile {
            s.push_str("volatile ");
        }
        if q.space != AddrSpace::Private {
            s.push_str(q.space.name());
            s.push(' ');
        }
        s.push_str(&self.name(q.ty));
        if q.is_restrict {
            s.push_str(" restrict");
        }
        s
    }
}
