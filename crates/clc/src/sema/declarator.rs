//! Declaration specifiers and declarators: the base type a specifier names, the type a
//! declarator derives from it (pointers, arrays, functions, address spaces), structure, union and
//! enumeration definitions with their layout, and the integer arguments of attributes.

use super::*;

/// The address space written for the declared object itself: a pointer declarator's own
/// qualifier, or the declaration specifiers' for everything else.
pub(super) fn object_space(spec: &ast::DeclSpec, d: &ast::Declarator) -> Option<AddrSpace> {
    // An array's elements are the object: in `__global int *a[2]` they are pointers (whose
    // own space is the one after the `*`), and `__global` is their pointee's.
    let outer = d
        .derived
        .iter()
        .find(|x| !matches!(x, Derived::Array { .. }));
    match outer {
        Some(Derived::Pointer { space, .. }) => *space,
        _ => spec.space,
    }
}

impl<'a> Sema<'a> {
    /// The address space of a pointee written without one: the generic space where the
    /// program has it (OpenCL C 2.0, and 3.0 with `__opencl_c_generic_address_space`), private
    /// otherwise.
    pub(crate) fn unqualified_pointee_space(&self) -> AddrSpace {
        if self.opts.generic {
            AddrSpace::Generic
        } else {
            AddrSpace::Private
        }
    }

    /// The type a declaration's specifiers name (before declarators).
    pub(super) fn base_type(&mut self, spec: &ast::DeclSpec) -> QualType {
        if spec.space == Some(AddrSpace::Generic) && !self.opts.generic {
            // 6.7.5: the generic address space exists from OpenCL C 2.0 (3.0: with the feature).
            self.diags.error(spec.loc, "the generic address space requires OpenCL C 2.0 or the __opencl_c_generic_address_space feature");
        }
        let q = self.base_type_inner(spec);
        if spec.is_pipe {
            let loc = spec.loc;
            let ty = q.ty;
            // 6.15.18: `pipe T` with read_only (the default) or write_only access.
            let a = spec.access.unwrap_or(Access::ReadOnly);
            if a == Access::ReadWrite {
                self.diags.error(
                    loc,
                    "access qualifier 'read_write' can not be used for pipes",
                );
            }
            if self.opts.version == 300
                && !self.cfg.features.iter().any(|f| f == "__opencl_c_pipes")
            {
                self.diags
                    .error(loc, "pipes require the __opencl_c_pipes feature");
            } else if self.opts.version == 200 && !self.opts.device_pipes {
                self.diags.error(
                    loc,
                    "pipes are not supported by this device (CL_DEVICE_PIPE_SUPPORT is false)",
                );
            }
            let pty = self.types.intern(Type::Pipe(ty, a));
            return QualType {
                ty: pty,
                ..Default::default()
            };
        }
        q
    }

    pub(super) fn base_type_inner(&mut self, spec: &ast::DeclSpec) -> QualType {
        let loc = spec.loc;
        let ty = match &spec.base {
            BaseType::Void => self.types.void(),
            BaseType::Scalar(s) => {
                self.check_scalar_allowed(*s, loc);
                self.types.scalar(*s)
            }
            BaseType::Vector(s, n) => {
                self.check_scalar_allowed(*s, loc);
                self.types.vector(*s, *n)
            }
            BaseType::SizeT | BaseType::UintptrT => self.types.size_t(),
            BaseType::PtrdiffT | BaseType::IntptrT => self.types.ptrdiff_t(),
            BaseType::Image(d) => {
                if spec.quals.is_const || spec.quals.is_volatile || spec.quals.is_restrict {
                    // 6.11.q
                    self.diags.error(
                        loc,
                        "image types cannot be qualified with 'const', 'volatile' or 'restrict'",
                    );
                }
                if !self.opts.images {
                    self.diags.error(
                        loc,
                        format!("use of type '{}' requires image support", d.name()),
                    );
                } else if matches!(d, ImageDim::D2Depth | ImageDim::D2ArrayDepth)
                    && !self.opts.depth_images
                {
                    self.diags.error(
                        loc,
                        format!(
                            "use of type '{}' requires cl_khr_depth_images support",
                            d.name()
                        ),
                    );
                }
                // 6.8: an image without an access qualifier is read_only.
                let a = spec.access.unwrap_or(Access::ReadOnly);
                if a == Access::ReadWrite && self.opts.version < 200 {
                    self.diags.error(loc, format!("access qualifier 'read_write' can not be used for '{}' prior to OpenCL C version 2.0", d.name()));
                }
                self.types.intern(Type::Image(*d, a))
            }
            BaseType::Sampler => self.types.intern(Type::Sampler),
            BaseType::Event => self.types.intern(Type::Event),
            BaseType::ClkEvent => self.types.intern(Type::ClkEvent),
            BaseType::Queue => self.types.intern(Type::Queue),
            BaseType::ReserveId => self.types.intern(Type::ReserveId),
            BaseType::NdRange => self.types.intern(Type::NdRange),
            BaseType::MemoryOrder | BaseType::MemoryScope => self.types.int(),
            BaseType::Atomic(s) => {
                if self.opts.version < 200 {
                    self.diags
                        .error(loc, "atomic types require OpenCL C version 2.0 or later");
                }
                self.check_scalar_allowed(*s, loc);
                self.types.intern(Type::Atomic(*s))
            }
            BaseType::AtomicFlag => self.types.intern(Type::AtomicFlag),
            BaseType::Record(r) => self.record(r),
            BaseType::Enum(e) => self.enumeration(e),
            BaseType::Typedef(s) => match self.lookup(*s) {
                Some(Binding::Typedef(t)) => {
                    let td = self.typedefs[t as usize].ty;
                    let mut q = td;
                    q.is_const |= spec.quals.is_const;
                    q.is_volatile |= spec.quals.is_volatile;
                    if let Some(sp) = spec.space {
                        q.space = sp;
                    }
                    return q;
                }
                _ => {
                    let n = self.name(*s).to_string();
                    self.diags.error(loc, format!("unknown type name '{n}'"));
                    TypeId(0)
                }
            },
        };
        if spec.access.is_some() && !matches!(spec.base, BaseType::Image(_)) && !spec.is_pipe {
            self.diags.error(
                loc,
                "access qualifier can only be used for pipe and image type",
            );
        }
        QualType {
            ty,
            is_const: spec.quals.is_const,
            is_volatile: spec.quals.is_volatile,
            is_restrict: spec.quals.is_restrict,
            space: spec.space.unwrap_or_default(),
        }
    }

    /// double needs fp64, half values need fp16 (6.3.1, 6.11.n).
    pub(super) fn check_scalar_allowed(&mut self, s: Scalar, loc: Loc) {
        if s == Scalar::Double && !self.opts.fp64 {
            let msg = if self.opts.version >= 300 {
                "use of type 'double' requires cl_khr_fp64 and __opencl_c_fp64 support"
            } else {
                "use of type 'double' requires cl_khr_fp64 support"
            };
            self.diags.error(loc, msg);
        }
    }

    /// The type declaration `d` of a group with specifiers `spec` (base type `base`) declares,
    /// noting whether its declarator had an error (`declarator_failed`: the variable is
    /// then poisoned).
    pub(super) fn declared_type(
        &mut self,
        spec: &ast::DeclSpec,
        base: QualType,
        d: &ast::InitDecl,
    ) -> (QualType, Option<(Vec<ParamInfo>, bool)>) {
        let errors_before = self.diags.error_count();
        let declared = self.declarator_type(base, spec.space.is_some(), &d.decl);
        self.declarator_failed = self.diags.error_count() > errors_before;
        declared
    }

    /// Applies declarators to a base type. `pointee_default` is the address space unqualified
    /// pointees get. Reports function pointers, VLAs and bad array sizes.
    pub fn declarator_type(
        &mut self,
        base: QualType,
        base_explicit: bool,
        d: &ast::Declarator,
    ) -> (QualType, Option<(Vec<ParamInfo>, bool)>) {
        let mut cur = base;
        let mut explicit = base_explicit;
        let mut fn_params = None;
        let n = d.derived.len();
        for (i, der) in d.derived.iter().rev().enumerate() {
            let outermost = i + 1 == n;
            match der {
                Derived::Pointer { quals, space } => {
                    if matches!(self.types.get(cur.ty), Type::Function { .. }) {
                        self.diags
                            .error(d.loc, "pointers to functions are not allowed");
                    }
                    if let Type::Image(dim, _) = self.types.get(cur.ty) {
                        let nm = dim.name();
                        self.diags.error(
                            d.loc,
                            format!("pointer to type '{nm}' is invalid in OpenCL"),
                        );
                    }
                    if matches!(self.types.get(cur.ty), Type::Sampler) {
                        self.diags
                            .error(d.loc, "pointer to type 'sampler_t' is invalid in OpenCL");
                    }
                    let mut pointee = cur;
                    if !explicit {
                        pointee.space = self.unqualified_pointee_space();
                    }
                    let pty = self.types.pointer(pointee);
                    cur = QualType {
                        ty: pty,
                        is_const: quals.is_const,
                        is_volatile: quals.is_volatile,
                        is_restrict: quals.is_restrict,
                        space: space.unwrap_or_default(),
                    };
                    explicit = space.is_some();
                }
                Derived::Array { size, loc } => {
                    if matches!(self.types.get(cur.ty), Type::Image(..)) {
                        self.diags
                            .error(*loc, "array of image type is invalid in OpenCL");
                    }
                    if matches!(self.types.get(cur.ty), Type::Sampler) {
                        self.diags
                            .error(*loc, "array of 'sampler_t' type is invalid in OpenCL");
                    }
                    if self.types.is_void(cur.ty) {
                        self.diags
                            .error(*loc, "array has incomplete element type 'void'");
                    }
                    let len = match size {
                        None => None,
                        Some(e) => {
                            let ce = self.expr(e);
                            let ce = self.rvalue(ce);
                            if ce.is_error() {
                                Some(1)
                            } else if !self.types.is_integer(ce.ty) {
                                let tn = self.types.name(ce.ty);
                                self.diags.error(
                                    e.loc,
                                    format!("size of array has non-integer type '{tn}'"),
                                );
                                Some(1)
                            } else {
                                match self.const_int(&ce) {
                                    Some(v) if v < 0 => {
                                        self.diags.error(e.loc, "array size is negative");
                                        Some(1)
                                    }
                                    Some(0) => {
                                        self.diags.error(
                                            e.loc,
                                            "zero size arrays are not supported in OpenCL C",
                                        );
                                        Some(1)
                                    }
                                    Some(v) => Some(v as u64),
                                    None => {
                                        // 6.11.d: no variable length arrays.
                                        self.diags.error(
                                            e.loc,
                                            "variable length arrays are not supported in OpenCL",
                                        );
                                        Some(1)
                                    }
                                }
                            }
                        }
                    };
                    let elem = cur;
                    let aty = self.types.intern(Type::Array(
                        QualType {
                            space: AddrSpace::Private,
                            ..elem
                        },
                        len,
                    ));
                    cur = QualType {
                        ty: aty,
                        is_const: elem.is_const,
                        is_volatile: elem.is_volatile,
                        is_restrict: false,
                        space: elem.space,
                    };
                }
                Derived::Block { loc } => {
                    // 6.14.2: `R (^name)(P...)` references a block of type R(P...).
                    match self.types.get(cur.ty).clone() {
                        Type::Function { ret, params, .. } => {
                            let b = self.types.intern(Type::Block { ret, params });
                            cur = QualType::new(b);
                        }
                        _ => {
                            self.diags
                                .error(*loc, "block reference must name a function type");
                        }
                    }
                    explicit = false;
                }
                Derived::Function {
                    params,
                    variadic,
                    loc,
                } => {
                    let mut ps = Vec::new();
                    self.push_scope();
                    for p in params {
                        let b = self.base_type(&p.spec);
                        let (pt, _) = self.declarator_type(b, p.spec.space.is_some(), &p.decl);
                        let mut pt = pt;
                        // Parameters of array type are pointers (C99 6.7.5.3p7).
                        if let Type::Array(e, _) = self.types.get(pt.ty).clone() {
                            let mut e = e;
                            e.space = pt.space;
                            if p.spec.space.is_none() && !self.opts.generic {
                                e.space = AddrSpace::Private;
                            } else if p.spec.space.is_none() {
                                e.space = AddrSpace::Generic;
                            }
                            pt = QualType::new(self.types.pointer(e));
                        }
                        let spelled = self.spelling(&p.spec, &p.decl);
                        ps.push((
                            pt,
                            p.decl.name,
                            p.decl.loc,
                            p.spec.space.is_some(),
                            spelled,
                            p.spec.access,
                        ));
                    }
                    self.pop_scope();
                    if *variadic {
                        // 6.11.e: no variadic functions but printf and enqueue_kernel.
                        self.diags.error(
                            *loc,
                            "invalid prototype, variadic arguments are not allowed in OpenCL",
                        );
                    }
                    if matches!(self.types.get(cur.ty), Type::Array(..)) {
                        self.diags.error(*loc, "function cannot return array type");
                    }
                    let fty = self.types.intern(Type::Function {
                        ret: cur.ty,
                        params: ps.iter().map(|p| p.0.ty).collect(),
                        variadic: false,
                    });
                    if outermost {
                        fn_params = Some((ps, *variadic));
                    }
                    cur = QualType::new(fty);
                    explicit = false;
                }
            }
        }
        (cur, fn_params)
    }

    /// The type name of a declaration as written (CL_KERNEL_ARG_TYPE_NAME).
    pub(super) fn spelling(&self, spec: &ast::DeclSpec, d: &ast::Declarator) -> String {
        let mut s = spec.base_name.clone();
        if let BaseType::Vector(sc, n) = spec.base {
            s = format!("{}{}", sc.name(), n);
        }
        for der in &d.derived {
            match der {
                Derived::Pointer { .. } => s.push('*'),
                Derived::Block { .. } => s.push('^'),
                Derived::Array { .. } => s.push('*'),
                Derived::Function { .. } => {}
            }
        }
        s
    }

    pub(super) fn record(&mut self, r: &ast::RecordSpec) -> TypeId {
        let kw = if r.is_union { "union" } else { "struct" };
        // Lookup or create the tag.
        let existing = r.name.and_then(|n| {
            if r.fields.is_some() {
                self.tags.last().and_then(|t| t.get(&n).copied())
            } else {
                self.tags.iter().rev().find_map(|t| t.get(&n).copied())
            }
        });
        let id = match existing {
            Some(t) => t,
            None => {
                let name = match r.name {
                    Some(n) => self.name(n).to_string(),
                    None => {
                        self.anon_records += 1;
                        format!("(anonymous at {})", self.anon_records)
                    }
                };
                self.types.records.push(Record {
                    name,
                    is_union: r.is_union,
                    fields: vec![],
                    complete: false,
                    size: 0,
                    align: 1,
                    packed: false,
                    typedef_named: false,
                });
                let rid = self.types.records.len() as u32 - 1;
                let t = self.types.intern(Type::Record(rid));
                if let Some(n) = r.name {
                    self.tags.last_mut().expect("tags").insert(n, t);
                }
                t
            }
        };
        let Type::Record(rid) = *self.types.get(id) else {
            let n = r.name.map(|n| self.name(n).to_string()).unwrap_or_default();
            self.diags.error(
                r.loc,
                format!("use of '{n}' with tag type that does not match previous declaration"),
            );
            return id;
        };
        let Some(groups) = &r.fields else { return id };
        if self.types.records[rid as usize].complete {
            let n = self.types.records[rid as usize].name.clone();
            self.diags
                .error(r.loc, format!("redefinition of '{kw} {n}'"));
            return id;
        }
        self.check_object_attrs(&r.attrs);
        let packed = r.attrs.iter().any(|a| a.name == "packed");
        let mut fields = Vec::new();
        for g in groups {
            let base = self.base_type(&g.spec);
            if g.fields.is_empty() {
                fields.extend(self.anonymous_member(g, base));
            }
            for (d, width) in &g.fields {
                if let Some(w) = width {
                    // 6.11.c: bit-fields are not supported.
                    self.diags
                        .error(w.loc, "bit-fields are not supported in OpenCL");
                }
                let (q, _) = self.declarator_type(base, g.spec.space.is_some(), d);
                if object_space(&g.spec, d).is_some() {
                    self.diags
                        .error(d.loc, "field may not be qualified with an address space");
                }
                match self.types.get(q.ty) {
                    Type::Image(dim, _) => {
                        let nm = dim.name();
                        self.diags.error(d.loc, format!("the '{nm}' type cannot be used to declare a structure or union field"));
                    }
                    Type::Sampler
                    | Type::Event
                    | Type::ClkEvent
                    | Type::ReserveId
                    | Type::Queue => {
                        let nm = self.types.name(q.ty);
                        self.diags.error(d.loc, format!("the '{nm}' type cannot be used to declare a structure or union field"));
                    }
                    Type::Array(_, None) => {
                        self.diags
                            .error(d.loc, "flexible array members are not supported in OpenCL");
                    }
                    Type::Function { .. } => {
                        self.diags.error(d.loc, "field declared as a function");
                    }
                    _ => {
                        if self.types.size_of(q.ty).is_none() {
                            let tn = self.types.name(q.ty);
                            self.diags
                                .error(d.loc, format!("field has incomplete type '{tn}'"));
                        }
                    }
                }
                if let Some(n) = d.name {
                    if fields.iter().any(|f: &Field| f.name == Some(n)) {
                        let nm = self.name(n).to_string();
                        self.diags.error(d.loc, format!("duplicate member '{nm}'"));
                    }
                }
                let q = QualType {
                    space: AddrSpace::Private,
                    ..q
                };
                let align = self.align_attr(&d.attrs).or(self.align_attr(&g.spec.attrs));
                self.check_object_attrs(&d.attrs);
                fields.push(Field {
                    name: d.name,
                    ty: q,
                    offset: 0,
                    align,
                });
            }
        }
        self.check_anonymous_duplicates(&fields, r.loc);
        // Layout (C rules; `packed` drops padding).
        let (mut size, mut align) = (0u64, 1u64);
        for f in &mut fields {
            let fs = self.types.size_of(f.ty.ty).unwrap_or(0);
            let fa = if let Some(a) = f.align {
                a.max(1)
            } else if packed {
                1
            } else {
                self.types.align_of(f.ty.ty).unwrap_or(1).max(1)
            };
            // `#pragma pack(N)` caps each member's alignment, an `aligned` attribute's
            // included (clang: "the maximum field alignment overrides the aligned attribute").
            let fa = r.pack.map_or(fa, |p| fa.min(u64::from(p)));
            align = align.max(fa);
            if r.is_union {
                f.offset = 0;
                size = size.max(fs);
            } else {
                size = size.div_ceil(fa).saturating_mul(fa);
                f.offset = size;
                size = size.saturating_add(fs);
            }
        }
        for a in &r.attrs {
            if a.name == "aligned" {
                // Without an argument: the largest alignment of any type (a long16).
                let v = if a.args.is_empty() {
                    Some(128)
                } else {
                    self.attr_int(a, 0)
                };
                if let Some(v) = v {
                    align = align.max(v);
                }
            }
        }
        size = size.div_ceil(align).saturating_mul(align);
        let rec = &mut self.types.records[rid as usize];
        rec.fields = fields;
        rec.complete = true;
        rec.size = size;
        rec.align = align;
        rec.packed = packed;
        id
    }

    pub(super) fn enumeration(&mut self, e: &ast::EnumSpec) -> TypeId {
        let existing = e
            .name
            .and_then(|n| self.tags.iter().rev().find_map(|t| t.get(&n).copied()));
        let id = match existing {
            Some(t) if e.enumerators.is_none() => return t,
            Some(t) => t,
            None => {
                let name = e
                    .name
                    .map(|n| self.name(n).to_string())
                    .unwrap_or_else(|| "(anonymous)".into());
                self.types.enums.push(EnumDef {
                    name,
                    complete: false,
                });
                let t = self
                    .types
                    .intern(Type::Enum(self.types.enums.len() as u32 - 1));
                if let Some(n) = e.name {
                    self.tags.last_mut().expect("tags").insert(n, t);
                }
                t
            }
        };
        if let Some(list) = &e.enumerators {
            let mut next: i64 = 0;
            for (name, value, loc) in list {
                if let Some(v) = value {
                    let ce = self.expr(v);
                    let ce = self.rvalue(ce);
                    match self.const_int(&ce) {
                        Some(x) => next = x as i64,
                        None if ce.is_error() => {}
                        None => self
                            .diags
                            .error(v.loc, "expression is not an integer constant expression"),
                    }
                }
                self.bind(*name, Binding::EnumConst(next), *loc);
                next = next.wrapping_add(1);
            }
            if let Type::Enum(i) = *self.types.get(id) {
                self.types.enums[i as usize].complete = true;
            }
        }
        id
    }

    pub(super) fn attr_int(&mut self, a: &ast::Attr, i: usize) -> Option<u64> {
        match a.args.get(i) {
            Some(ast::AttrArg::Expr(e)) => {
                let ce = self.expr(e);
                let ce = self.rvalue(ce);
                match self.const_int(&ce) {
                    Some(v) if v >= 0 => Some(v as u64),
                    _ => {
                        self.diags.error(
                            e.loc,
                            format!("'{}' attribute requires an integer constant", a.name),
                        );
                        None
                    }
                }
            }
            _ => {
                self.diags.error(
                    a.loc,
                    format!("'{}' attribute requires an integer constant", a.name),
                );
                None
            }
        }
    }
}
